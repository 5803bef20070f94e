import { describe, expect, it } from "vitest";
import { literalLines } from "../../src/worker/reviewers/template-literals.js";

/** The lines `literalLines` names for a file of `path`, as an array; undefined when it is unsure. */
const linesOf = (path: string, ...source: string[]) => {
  const found = literalLines(path, source.join("\n"));
  return found === undefined ? undefined : [...found].sort((a, b) => a - b);
};

describe("Dart's multi-line strings", () => {
  it("names the lines inside ''' and \"\"\" strings, raw ones too, and no others", () => {
    expect(
      linesOf(
        "test/format_test.dart",
        "var a = 1;  ", // 1
        "var s = '''one  ", // 2
        "two ''' ;  ", // 3
        'var t = r"""\\  ', // 4: raw, the backslash escapes nothing
        '""" ;  ', // 5
        "// ''' in a comment  ", // 6
        "/* /* */ ''' */ var u = \"'''\";  ", // 7: comments nest
        "",
      ),
    ).toEqual([2, 4]);
  });

  it("gives up on a one-line string that meets a line break, or a string never closed", () => {
    expect(linesOf("a.dart", "var s = 'open", "';", "")).toBeUndefined();
    expect(linesOf("a.dart", "var s = '''open  ", "")).toBeUndefined();
  });
});

describe("Groovy's multi-line strings", () => {
  it("names the lines inside ''', \"\"\", dollar-slashy and slashy strings", () => {
    expect(
      linesOf(
        "build.gradle",
        "def a = '''x  ", // 1
        "'''  ", // 2
        "def b = $/y  ", // 3
        "$/ still in  ", // 4: `$/` is an escaped slash
        "/$  ", // 5
        "def c = ~/z  ", // 6
        "/  ", // 7
        "def d = e / f / g  ", // 8: division
        "",
      ),
    ).toEqual([1, 3, 4, 6]);
    expect(linesOf("Jenkinsfile", 'sh """', "echo hi  ", '"""', "")).toEqual([1, 2]);
  });

  it("gives up on a file that ends inside a string", () => {
    expect(linesOf("a.groovy", "def a = '''x  ", "")).toBeUndefined();
  });
});

describe("Elixir's strings, heredocs and sigils", () => {
  it("names the lines inside heredocs, strings, charlists and sigils", () => {
    expect(
      linesOf(
        "test/a_test.exs",
        'x = ?" # a character, then a comment "  ', // 1
        '@doc """', // 2
        "doc  ", // 3
        '"""', // 4
        "s = ~S'''", // 5
        "raw  ", // 6
        "'''", // 7
        "t = ~s(a  ", // 8
        ")  ", // 9
        'u = "line  ', // 10
        '"', // 11
        "",
      ),
    ).toEqual([2, 3, 5, 6, 8, 10]);
  });

  it("walks a #{} as code, so a quote in it leaves the strings after it in step", () => {
    expect(
      linesOf("a.ex", 'x = "#{\'"\'}"', 'y = "a  ', 'b"', 'z = ~s(#{")"}  ', ")", "w = 1  ", ""),
    ).toEqual([2, 4]);
    expect(linesOf("a.ex", "x = ~S(#{  ", ")", "")).toEqual([1]);
  });

  it("gives up on a file that ends inside a heredoc", () => {
    expect(linesOf("a.ex", 'x = """', "a  ", "")).toBeUndefined();
  });
});

describe("Julia's strings", () => {
  it('names the lines inside """ and " strings, past nested comments, characters and transposes', () => {
    expect(
      linesOf(
        "test/runtests.jl",
        "c = '\"'; t = a' * b'  ", // 1
        '#= #= """ =# =# x = 1  ', // 2
        's = """', // 3
        "a  ", // 4
        '"""  # """', // 5
        "",
      ),
    ).toEqual([3, 4]);
  });
});

describe("Lua's long strings", () => {
  it("names the lines inside [[...]] and [==[...]==], and not in --[[ comments", () => {
    expect(
      linesOf(
        "spec/a_spec.lua",
        "--[[ a comment  ", // 1
        "[[ still comment ]]  ", // 2
        "local s = [[one  ", // 3
        "two ]]  ", // 4
        "local t = [==[ ]] ]=]  ", // 5
        "]==]  -- [[", // 6
        "local u = '[[' .. \"]]\"  ", // 7
        "",
      ),
    ).toEqual([3, 5]);
  });

  it("gives up on a string continued past its line", () => {
    expect(linesOf("a.lua", 'local s = "a\\', 'b"', "")).toBeUndefined();
    expect(linesOf("a.lua", "local s = [[open  ", "")).toBeUndefined();
  });
});

describe("Zig's line strings", () => {
  it("names each \\\\ line, whose whole rest is data, and no other", () => {
    expect(
      linesOf(
        "src/test.zig",
        "const expected =  ", // 1
        "    \\\\first  ", // 2
        "    \\\\second  ", // 3
        ";  // \\\\ in a comment  ", // 4
        'const s = "\\\\ in a string";  ', // 5
        "    \\\\last without a line break  ",
      ),
    ).toEqual([2, 3, 6]);
  });
});

describe("Clojure's strings", () => {
  it("names the lines inside strings and regexes, past characters and comments", () => {
    expect(
      linesOf(
        "test/a_test.clj",
        '(def q \\") ; a " in a comment  ', // 1
        '(def s "one  ', // 2
        'two")  ', // 3
        '(def r #"a  ', // 4
        'b")', // 5
        "",
      ),
    ).toEqual([2, 4]);
  });
});

describe("the Lisps' strings", () => {
  it("names the lines inside strings, past characters and nested block comments", () => {
    for (const path of ["tests/a.lisp", "a.scm", "a.rkt"])
      expect(
        linesOf(
          path,
          '(define q #\\") ; a " in a comment  ', // 1
          '#| #| " |# " |# (define s "one  ', // 2
          'two")  ', // 3
          "",
        ),
        path,
      ).toEqual([2]);
    expect(
      linesOf(
        "test/a-test.el",
        '(setq q ?" r ?\\" s \\"sym) ; a " in a comment  ', // 1
        '(should (equal (f) "one  ', // 2
        'two"))  ', // 3
        "",
      ),
    ).toEqual([2]);
  });
});

describe("TOML's multi-line strings", () => {
  it("names the lines inside \"\"\" and ''' strings", () => {
    expect(
      linesOf(
        "Cargo.toml",
        'a = "x"  # """  ', // 1
        'b = """', // 2
        "one  ", // 3
        '"""  ', // 4
        "c = '''", // 5
        "two \\  ", // 6: a literal string: no escape
        "'''", // 7
        'd = """five quotes""""" # the last three end it  ', // 8
        "",
      ),
    ).toEqual([2, 3, 5, 6]);
  });
});

describe("R's strings", () => {
  it("names the lines inside strings and raw strings", () => {
    expect(
      linesOf(
        "tests/testthat/test-a.R",
        "x <- 1 # 'quote  ", // 1
        'y <- r"-(a )" b  ', // 2
        ')-"  ', // 3
        "z <- 'c  ", // 4
        "'", // 5
        "",
      ),
    ).toEqual([2, 4]);
  });
});

describe("Nim's triple-quoted strings", () => {
  it('names the lines inside """ strings, past characters, raw strings and nested comments', () => {
    expect(
      linesOf(
        "tests/t.nim",
        "let c = '\"'; let n = 1'u8  ", // 1
        '#[ #[ """ ]# ]# let r = r"a""b"  ', // 2
        'let s = """one  ', // 3
        '"""  ', // 4
        "",
      ),
    ).toEqual([3]);
  });
});

describe("Crystal's strings", () => {
  it("names the lines inside strings and percent literals", () => {
    expect(
      linesOf("spec/a_spec.cr", 'a = "x  ', '"', "b = %(y  ", ")", "c = 10 % (3)  ", "puts %(z  ", ")", ""),
    ).toEqual([1, 3, 6]);
  });

  it("walks a #{} as code, so a quote in it leaves the strings after it in step", () => {
    expect(
      linesOf("a.cr", 'x = "#{\'"\'}"  ', 'y = "a  ', 'b"', "z = %(#{'\"'}  ", ")", "w = 1  ", ""),
    ).toEqual([2, 4]);
    expect(linesOf("a.cr", "x = %q(#{  ", ")", "")).toEqual([1]);
  });

  it("is unsure of a file that opens a heredoc", () => {
    expect(linesOf("a.cr", "s = <<-EOS", "  body  ", "  EOS", "")).toBeUndefined();
  });
});

describe("PowerShell's here-strings and strings", () => {
  it("names the lines inside here-strings, to a closing quote that starts a line, and strings", () => {
    expect(
      linesOf(
        "tests/A.Tests.ps1",
        "$a = 1  # '  ", // 1
        '$e = @"', // 2
        'one "@ still in  ', // 3
        '"@  ', // 4
        "$f = @'", // 5
        "two  ", // 6
        "'@", // 7
        '$g = "a `" b  ', // 8
        "c\"; $h = 'it''s  ", // 9
        "'", // 10
        "<# a ' in a block comment #> $i = 2  ", // 11
        "",
      ),
    ).toEqual([2, 3, 5, 6, 8, 9]);
  });
});

describe("Nix's strings", () => {
  it("names the lines inside indented strings, past their escapes, and strings", () => {
    expect(
      linesOf(
        "default.nix",
        "{ # '' in a comment  ", // 1
        "  script = ''", // 2
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Nix source as test input
        "    echo ''' ''${x}  ", // 3
        "  '';  ", // 4
        '  s = "a  ', // 5
        '  ";', // 6
        "}",
      ),
    ).toEqual([2, 3, 5]);
  });
});

describe("Perl's heredocs", () => {
  it("names the lines of heredoc bodies, not POD, and everything after __DATA__", () => {
    expect(
      linesOf(
        "t/basic.t",
        "my $x = 1 << 2;  ", // 1: a shift
        'is($out, <<"EOF");', // 2
        "expected  ", // 3
        "EOF", // 4
        "my $y = <<~EOT;", // 5
        "  indented  ", // 6
        "  EOT", // 7
        "=pod", // 8
        "  print <<END;  ", // 9: an example in POD opens nothing
        "=cut", // 10
        "__DATA__", // 11
        "data  ", // 12
        "more  ", // 13
      ),
    ).toEqual([3, 6, 12, 13]);
  });

  it("names the lines inside strings and quote-like operators, past variables and comments", () => {
    expect(
      linesOf(
        "lib/A.pm",
        "my $n = $#list; # a ' in a comment  ", // 1
        'my $s = "one  ', // 2
        'two";  ', // 3
        "my $q = qq{three  ", // 4
        "};  ", // 5
        "$x =~ s{'}{x}; my $h = $h{s};  ", // 6
        "my $r = $x =~ /'/ ? 'a  ", // 7
        "' : 1;", // 8
        "$t =~ s{'}{'\\\\''}g; $u = qq{ {$h{a}}  ", // 9: the second part, and a nested bracket
        "}.qq{ b '  ", // 10: after a `.`
        "}; grep(!m/x/s, # 'a' in a comment after a match's flags", // 11
        "  m;'  ", // 12
        ";);", // 13
        "",
      ),
    ).toEqual([2, 4, 7, 9, 10, 12]);
  });

  it("reads a module's POD after __END__ as documentation, the rest as data", () => {
    expect(
      linesOf("lib/A.pm", "1;", "__END__", "data  ", "=head1 NAME  ", "A - a module  ", "=cut", "more  "),
    ).toEqual([3, 7]);
    // After __DATA__, a line that looks like POD is data too.
    expect(linesOf("lib/A.pm", "1;", "__DATA__", "=head1 data  ")).toEqual([3]);
  });

  it("gives up on a heredoc never ended, or a string never closed", () => {
    expect(linesOf("lib/A.pm", "print <<EOF;", "body  ", "")).toBeUndefined();
    expect(linesOf("lib/A.pm", "print 'open  ", "")).toBeUndefined();
  });
});

describe("HCL's heredocs", () => {
  it("names the lines of <<EOT and <<-EOT bodies, not a comment's", () => {
    expect(
      linesOf(
        "main.tf",
        "# policy = <<X", // 1
        "policy = <<EOT", // 2
        "{ }  ", // 3
        "EOT", // 4
        "  user_data = <<-EOF", // 5
        "    echo hi  ", // 6
        "  EOF", // 7
        "x = 1  ", // 8
        "",
      ),
    ).toEqual([3, 6]);
  });
});

describe("a Dockerfile's heredocs", () => {
  it("names the lines of RUN and COPY heredoc bodies, as the shell's", () => {
    const dockerfile = [
      "FROM alpine  ", // 1
      "# RUN <<X", // 2: a comment opens none
      "COPY <<EOF /etc/motd", // 3
      "hello  ", // 4
      "EOF", // 5
      "RUN <<-'END' sh", // 6
      "\techo hi  ", // 7
      "\tEND", // 8
      "",
    ];
    for (const path of ["Dockerfile", "docker/Dockerfile.dev", "app.dockerfile", "Containerfile"])
      expect(linesOf(path, ...dockerfile), path).toEqual([4, 7]);
    expect(linesOf("Dockerfile", "RUN <<EOF", "never ended  ", "")).toBeUndefined();
  });
});

describe("languages with no literal whose spaces are data", () => {
  it("names no line and is never unsure", () => {
    expect(linesOf("README.md", "```", "code  ", "")).toEqual([]);
    expect(linesOf("A.java", 'String s = """', "a  ", '""";', "")).toEqual([]);
  });
});

describe("Ruby's strings and percent literals", () => {
  it("names the lines inside strings, percent literals, regular expressions and =begin", () => {
    expect(
      linesOf(
        "lib/a.rb",
        's = "one  ', // 1
        'two"  ', // 2: code after the close
        "t = 'x  ", // 3
        "'", // 4
        "a = %q(one  ", // 5
        "(two)  ", // 6: a bracket nests
        ")  ", // 7
        "b = %Q{#{x}  ", // 8: an interpolation without quotes
        "}", // 9
        "c = %w[a  ", // 10
        "b] + %(d  ", // 11
        ")", // 12
        "r = %r!a  ", // 13
        "!x", // 14
        "q = a / b  ", // 15: a division
        "m = x =~ /a  ", // 16
        "b/  ", // 17
        "=begin", // 18
        'doc "  ', // 19
        "=end", // 20
        "e = `ls  ", // 21
        "`", // 22
        "c = 10 % (3)  ", // 23: read as a literal, which ends on its line
        '# a " in a comment  ', // 24
        "",
      ),
    ).toEqual([1, 3, 5, 6, 8, 10, 11, 13, 16, 18, 19, 21]);
  });

  it("names a double-quoted string over lines, and no line of code", () => {
    expect(linesOf("a.rb", 's = "one  \ntwo"\n')).toEqual([1]);
    expect(linesOf("Rakefile", "x = 1  ", "y = 2  ", "")).toEqual([]);
  });

  it("skips a heredoc's body, so its quotes leave the strings after it in step", () => {
    expect(
      linesOf("spec/a_spec.rb", "x = <<~EOS", '  say "hi  ', "EOS", "y = 'a  ", "b'  ", "z = 1  ", ""),
    ).toEqual([2, 4]);
  });

  it("keeps every line after __END__, the script's data, and reads no quote in it", () => {
    expect(linesOf("a.rb", "x = 1  ", "__END__", '"  ', "z  ")).toEqual([3, 4]);
  });

  it("reads $', $/, def /, a./ and :/ as names, not quotes or regular expressions", () => {
    expect(
      linesOf(
        "a.rb",
        "x = $'  ",
        "y = $/  ",
        "def /(o)  ",
        "a./(b)  ",
        "c = a.inject(:/)  ",
        "d = 'e  ",
        "'",
        "",
      ),
    ).toEqual([6]);
  });

  it('is unsure of a / after a name, a ?" after a space, or a file ending in an interpolation', () => {
    expect(linesOf("a.rb", "x = foo /a  ", "b/", "")).toBeUndefined();
    expect(linesOf("a.rb", 'x = c ?"a" : "b"  ', "y = 1", "")).toBeUndefined();
    expect(linesOf("a.rb", 'x = "#{a', "")).toBeUndefined();
    expect(linesOf("a.rb", 'x = "open  ', "")).toBeUndefined();
  });

  it("walks the code of a #{} as code: its strings and braces, then the literal goes on", () => {
    expect(linesOf("a.rb", 'x = "a #{h["k"]} b  ', '"', "y = 1  ", "")).toEqual([1]);
    expect(linesOf("a.rb", 'x = "#{"}"}  ', '"', "y = 1  ", "")).toEqual([1]);
    expect(linesOf("a.rb", 'x = %Q{#{ [1].map { |v| "#{v}}" } }  ', "}", "y = 1  ", "")).toEqual([1]);
    expect(linesOf("a.rb", 'x = "#{', "  y  ", '}"', "z = 1  ", "")).toEqual([1, 2]);
    expect(linesOf("a.rb", "x = %(#{'a'})  ", "y = 'b  ", "'", "")).toEqual([2]);
  });

  it('reads a character literal where an operand starts: ?" after =, ?/ after (', () => {
    expect(
      linesOf(
        "a.rb",
        'x = ?"  ',
        "y = 'a  ",
        "'",
        'case c when ?" then 1 end  ',
        "z = s.chomp(?/)  ",
        "w = ?\\s  ",
        "",
      ),
    ).toEqual([2]);
  });

  it("reads #{} as text in a literal that does not interpolate", () => {
    expect(linesOf("a.rb", "x = '#{\"  ", "'", "y = %q(#{'  ", ")", "")).toEqual([1, 3]);
  });
});
