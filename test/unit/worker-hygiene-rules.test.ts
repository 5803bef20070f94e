import { describe, expect, it } from "vitest";
import type { LineSpan } from "../../src/protocol/changed-lines.js";
import { type FileFacts, fixRulesFor } from "../../src/worker/reviewers/hygiene-rules.js";
import {
  isMarkdownBreak,
  leftAloneReason,
  snapshotInputDirs,
} from "../../src/worker/reviewers/hygiene-scope.js";
import { checkText } from "../../src/worker/reviewers/hygiene-text.js";
import {
  DEFAULT_WHITESPACE_RULE,
  parseWhitespaceRule,
  whitespaceRuleFor,
} from "../../src/worker/reviewers/whitespace-rules.js";

/** The file as hygiene would rewrite it under the rules for these facts. */
function fixed(text: string, facts: Partial<FileFacts> = {}): string {
  const rules = fixRulesFor({
    path: "a.txt",
    text,
    added: undefined,
    whitespace: undefined,
    editor: {},
    core: DEFAULT_WHITESPACE_RULE,
    ...facts,
  });
  return checkText(Buffer.from(text, "latin1"), rules).fixed?.toString("latin1") ?? text;
}

const lines = (...spans: LineSpan[]) => spans;
/** A text's UTF-8 bytes as hygiene reads a file: one char per byte. */
const utf8 = (text: string) => Buffer.from(text).toString("latin1");

describe("git's whitespace rules", () => {
  it("reads core.whitespace lists from git's default, in order", () => {
    expect(parseWhitespaceRule("").blankAtEol).toBe(true);
    expect(parseWhitespaceRule("-trailing-space").blankAtEol).toBe(false);
    expect(parseWhitespaceRule("-blank-at-eol,tab-in-indent").blankAtEol).toBe(false);
    expect(parseWhitespaceRule("-trailing-space, blank-at-eol").blankAtEol).toBe(true);
    expect(parseWhitespaceRule("cr-at-eol,tabwidth=4").blankAtEol).toBe(true);
  });

  it("lets the whitespace attribute win over core.whitespace", () => {
    const off = parseWhitespaceRule("-blank-at-eol");
    expect(whitespaceRuleFor("unspecified", off).blankAtEol).toBe(false);
    expect(whitespaceRuleFor("set", off).blankAtEol).toBe(true);
    expect(whitespaceRuleFor("unset", DEFAULT_WHITESPACE_RULE).blankAtEol).toBe(false);
    expect(whitespaceRuleFor("-trailing-space", DEFAULT_WHITESPACE_RULE).blankAtEol).toBe(false);
  });
});

describe("which fixes one file may get", () => {
  const text = "one  \ntwo  \nthree  ";

  it("touches only the lines the change added; the final newline only when it wrote the last line", () => {
    expect(fixed(text)).toBe("one\ntwo\nthree\n");
    expect(fixed(text, { added: lines([2, 2]) })).toBe("one  \ntwo\nthree  ");
    expect(fixed(text, { added: lines([3, 3]) })).toBe("one  \ntwo  \nthree\n");
    expect(fixed(text, { added: [] })).toBe(text);
    expect(fixed(text, { added: null })).toBe(text);
  });

  it("follows -whitespace, a whitespace list, core.whitespace and .editorconfig", () => {
    expect(fixed(text, { whitespace: "unset" })).toBe(text);
    expect(fixed(text, { whitespace: "-blank-at-eol" })).toBe("one  \ntwo  \nthree  \n");
    expect(fixed(text, { core: parseWhitespaceRule("-trailing-space") })).toBe("one  \ntwo  \nthree  \n");
    expect(fixed(text, { editor: { trimTrailingWhitespace: false } })).toBe("one  \ntwo  \nthree  \n");
    expect(fixed(text, { editor: { insertFinalNewline: false } })).toBe("one\ntwo\nthree");
  });

  it("keeps Markdown hard breaks and never makes a backslash one", () => {
    const markdown = "two spaces  \none space \ntab\t\nslash\\ \nend\n";
    expect(fixed(markdown, { path: "README.md" })).toBe("two spaces  \none space\ntab\nslash\\ \nend\n");
    expect(fixed(markdown)).toBe("two spaces\none space\ntab\nslash\\\nend\n");
    expect(isMarkdownBreak("a  ")).toBe(true);
    expect(isMarkdownBreak("a\t ")).toBe(false);
  });

  it("trims Markdown lines that cannot end in a break: blank, headings, thematic breaks", () => {
    // A blank line of spaces (an editor's indent in a list), a front matter fence, an ATX heading
    // and a setext underline have no line to break onto; the paragraph line between them does.
    const markdown =
      "---  \ntitle: x\n---\n# Title  \n\ntext  \nmore\n   \n- item\n  \n  cont\n***   \nSub\n===  \n";
    expect(fixed(markdown, { path: "docs/intro.mdx" })).toBe(
      "---\ntitle: x\n---\n# Title\n\ntext  \nmore\n\n- item\n\n  cont\n***\nSub\n===\n",
    );
    // A break before a blank line or the end of the file breaks onto nothing.
    const ends = "a paragraph  \ngoes on  \n\nlast  \r\n\r\nend  ";
    expect(fixed(ends, { path: "notes.md" })).toBe("a paragraph  \ngoes on\n\nlast\r\n\r\nend\n");
    expect(isMarkdownBreak("    ---  ")).toBe(true);
    expect(isMarkdownBreak("#hashtag  ")).toBe(true);
    expect(isMarkdownBreak("## \\ ")).toBe(false);
  });

  it("keeps trailing spaces inside JavaScript template literals, and all of them when unsure", () => {
    const script = "const a = 1;  \nconst t = `x  \ny`;  \n";
    expect(fixed(script, { path: "a.spec.ts" })).toBe("const a = 1;\nconst t = `x  \ny`;\n");
    expect(fixed("const t = `open  \n", { path: "a.ts" })).toBe("const t = `open  \n");
  });

  it("keeps trailing spaces inside Go raw strings, past comments, strings and runes", () => {
    // As gitleaks' rule tests embed YAML: the spaces are the test input.
    const go = [
      "var a = 1  ",
      'var q = "`"  // a ` in a string and a comment  ',
      "var r = '`'  ",
      "/* ` in a block  ",
      "*/ var y = `apiVersion: v1   ",
      "kind: Secret   ",
      "`  ",
      "",
    ].join("\n");
    expect(fixed(go, { path: "rules/kubernetes.go" })).toBe(
      [
        "var a = 1",
        'var q = "`"  // a ` in a string and a comment',
        "var r = '`'",
        "/* ` in a block",
        "*/ var y = `apiVersion: v1   ",
        "kind: Secret   ",
        "`",
        "",
      ].join("\n"),
    );
    expect(fixed("var s = `open  \n", { path: "a.go" })).toBe("var s = `open  \n");
  });

  it("keeps trailing spaces inside Python's triple-quoted strings, past comments and one-line strings", () => {
    // A doctest's expected output and a string value: the spaces are what the code returns.
    const python = [
      "def f():  ",
      '    """Doc.  ',
      "    >>> f()  ",
      "    'a  \\nb'",
      '    """  ',
      `    s = '"""'  # not a triple quote: ''' in a comment  `,
      "    t = 'a \\",
      "b'  ",
      "    return r'''x \\'''  ",
      "y'''  ",
      "",
    ].join("\n");
    expect(fixed(python, { path: "pkg/mod.py" })).toBe(
      [
        "def f():",
        '    """Doc.  ',
        "    >>> f()  ",
        "    'a  \\nb'",
        '    """',
        `    s = '"""'  # not a triple quote: ''' in a comment`,
        "    t = 'a \\",
        "b'",
        "    return r'''x \\'''  ",
        "y'''",
        "",
      ].join("\n"),
    );
    expect(fixed("s = 'open  \n", { path: "a.py" })).toBe("s = 'open  \n");
  });

  it("keeps trailing spaces in a shell script's here-documents, to the line that ends each", () => {
    // A test's expected output, compared byte for byte.
    const script = [
      "cat >expect <<EOF  ",
      "one  ",
      "EOF",
      "cat <<-'END' | diff - out  ",
      "\ttwo  ",
      "\tEND",
      'grep x <<< "here  "  ',
      "cat <<\\A; cat <<B",
      "a  ",
      "A",
      "b  ",
      "B",
      "echo done  ",
      "",
    ].join("\n");
    expect(fixed(script, { path: "t/t0001-expect.sh" })).toBe(
      [
        "cat >expect <<EOF",
        "one  ",
        "EOF",
        "cat <<-'END' | diff - out",
        "\ttwo  ",
        "\tEND",
        'grep x <<< "here  "',
        "cat <<\\A; cat <<B",
        "a  ",
        "A",
        "b  ",
        "B",
        "echo done",
        "",
      ].join("\n"),
    );
    // A << that is no here-document ends nowhere: no line is said to be outside one.
    const shifted = "echo $((1 << 2))  \nx=1  \n";
    expect(fixed(shifted, { path: "a.sh" })).toBe(shifted);
  });

  it("keeps trailing spaces in Ruby's heredocs, squiggly, dashed, plain and quoted", () => {
    // A spec's expected output, compared byte for byte.
    const ruby = [
      "class << self  ",
      "  x = a << b  ",
      "  expect(out).to eq(<<~EOS)  ",
      "    one  ",
      "  EOS",
      "  run(<<-'SQL', <<`CMD`)  ",
      "    two  ",
      "    SQL",
      "three  ",
      "CMD",
      '  y = <<"PLAIN"  ',
      "  four  ",
      "  PLAIN",
      "PLAIN",
      "end  ",
      "",
    ].join("\n");
    expect(fixed(ruby, { path: "spec/out_spec.rb" })).toBe(
      [
        "class << self",
        "  x = a << b",
        "  expect(out).to eq(<<~EOS)",
        "    one  ",
        "  EOS",
        "  run(<<-'SQL', <<`CMD`)",
        "    two  ",
        "    SQL",
        "three  ",
        "CMD",
        '  y = <<"PLAIN"',
        "  four  ",
        "  PLAIN",
        "PLAIN",
        "end",
        "",
      ].join("\n"),
    );
    // A plain heredoc's word must start its line: indented, it ends nothing.
    const open = "x = <<EOS  \n  EOS\ny = 1  \n";
    expect(fixed(open, { path: "Rakefile" })).toBe(open);
  });

  it("keeps trailing spaces in PHP's heredocs and nowdocs, to the label that ends each", () => {
    // As a fixer's tests hold the code before and after, whitespace and all.
    const php = [
      "<?php  ",
      "$input = <<<'EOD'",
      "    $a = 1;  ",
      "    EODX stays in it  ",
      "    EOD;  ",
      'yield [<<< "EOT"',
      "  two  ",
      "EOT, $b];  ",
      "$help = <<<EOF",
      "three  ",
      "EOF . <<<'EOF'",
      "four  ",
      "EOF;  ",
      "$x = 1;  ",
      "",
    ].join("\n");
    expect(fixed(php, { path: "tests/Fixer/Whitespace/NoTrailingWhitespaceFixerTest.php" })).toBe(
      [
        "<?php",
        "$input = <<<'EOD'",
        "    $a = 1;  ",
        "    EODX stays in it  ",
        "    EOD;",
        'yield [<<< "EOT"',
        "  two  ",
        "EOT, $b];",
        "$help = <<<EOF",
        "three  ",
        "EOF . <<<'EOF'",
        "four  ",
        "EOF;",
        "$x = 1;",
        "",
      ].join("\n"),
    );
    expect(fixed("$a = <<<EOT\nopen  \n", { path: "a.php" })).toBe("$a = <<<EOT\nopen  \n");
  });

  it("keeps trailing spaces inside Kotlin, Scala and C# raw strings and C#'s verbatim ones", () => {
    const kotlin = [
      'val q = "\\"\\"\\""  // not a raw string: """ in a comment  ',
      "val c = '\"'  ",
      'val expected = """line  ',
      "  two  ",
      '""""  ',
      '/* a " in a comment  */ val x = 1  ',
      "",
    ].join("\n");
    expect(fixed(kotlin, { path: "src/test/kotlin/A.kt" })).toBe(
      [
        'val q = "\\"\\"\\""  // not a raw string: """ in a comment',
        "val c = '\"'",
        'val expected = """line  ',
        "  two  ",
        '""""',
        '/* a " in a comment  */ val x = 1',
        "",
      ].join("\n"),
    );
    const csharp = [
      'var raw = """"  ',
      '  """ inside  ',
      '  """";  ',
      'var path = @"C:\\dir\\  ',
      'with ""quotes""  ";  ',
      "",
    ].join("\n");
    expect(fixed(csharp, { path: "Tests/A.cs" })).toBe(
      [
        'var raw = """"  ',
        '  """ inside  ',
        '  """";',
        'var path = @"C:\\dir\\  ',
        'with ""quotes""  ";',
        "",
      ].join("\n"),
    );
    expect(fixed('val s = "open  \n', { path: "a.scala" })).toBe('val s = "open  \n');
  });

  it("keeps trailing spaces inside Swift's multi-line strings, extended delimiters too", () => {
    // A test's expected text, compared byte for byte.
    const swift = [
      'let q = "a \\" b"  // """ in a comment  ',
      'let expected = """  ',
      '  one \\"""  ',
      '  """  ',
      'let raw = #"""  ',
      '  two """ still in it  ',
      '  """#  ',
      'let path = #"C:\\dir\\"#  ',
      "",
    ].join("\n");
    expect(fixed(swift, { path: "Tests/OutputTests.swift" })).toBe(
      [
        'let q = "a \\" b"  // """ in a comment',
        'let expected = """  ',
        '  one \\"""  ',
        '  """',
        'let raw = #"""  ',
        '  two """ still in it  ',
        '  """#',
        'let path = #"C:\\dir\\"#',
        "",
      ].join("\n"),
    );
    expect(fixed('let s = """\nopen  \n', { path: "a.swift" })).toBe('let s = """\nopen  \n');
  });

  it("keeps trailing spaces inside C++ raw strings, past comments a backslash continues", () => {
    // As a formatter's tests compare a raw string with its output byte for byte.
    const cpp = [
      "int a = 1;  ",
      '// R"( in a comment \\',
      '   still the comment: R"(  ',
      'auto expected = R"cpp(line  ',
      '  )" is not the end  ',
      ')cpp";  ',
      "",
    ].join("\n");
    expect(fixed(cpp, { path: "unittests/FormatTest.cpp" })).toBe(
      [
        "int a = 1;",
        '// R"( in a comment \\',
        '   still the comment: R"(',
        'auto expected = R"cpp(line  ',
        '  )" is not the end  ',
        ')cpp";',
        "",
      ].join("\n"),
    );
    expect(fixed('auto s = R"(open  \n', { path: "a.h" })).toBe('auto s = R"(open  \n');
  });

  it("keeps trailing spaces in YAML's block scalars, to the first line no deeper than the header's", () => {
    // A literal block's trailing spaces are its content; a folded one's too.
    const yaml = [
      "# a comment: |  ",
      "jobs:  ",
      "  test:  ",
      "    steps:  ",
      "      - run: |  ",
      "          echo one  ",
      "    ",
      "{{- if .Values.x }}",
      "          echo two  ",
      "      - name: after  ",
      '        "a: b": >-2 # folded  ',
      "          three  ",
      "        plain: x  ",
      "        seq:  ",
      "        - |+  ",
      "          four  ",
      "        props:  ",
      "          &text !!str  ",
      "          |  ",
      "         five  ",
      "        end: 1  ",
      "--- |  ",
      "six  ",
      "...  ",
      "last: 1  ",
      "",
    ].join("\n");
    expect(fixed(yaml, { path: ".github/workflows/ci.yml" })).toBe(
      [
        "# a comment: |",
        "jobs:",
        "  test:",
        "    steps:",
        "      - run: |",
        "          echo one  ",
        "    ",
        "{{- if .Values.x }}",
        "          echo two  ",
        "      - name: after",
        '        "a: b": >-2 # folded',
        "          three  ",
        "        plain: x",
        "        seq:",
        "        - |+",
        "          four  ",
        "        props:",
        "          &text !!str",
        "          |",
        "         five  ",
        "        end: 1",
        "--- |",
        "six  ",
        "...",
        "last: 1",
        "",
      ].join("\n"),
    );
    // A file that ends inside one is YAML still: the block ends with it.
    expect(fixed("a: |\n  b  \n", { path: "a.yaml" })).toBe("a: |\n  b  \n");
  });

  it("keeps trailing spaces inside Rust strings, raw or not, past comments, chars and lifetimes", () => {
    // As ripgrep's tests compare raw strings with its output byte for byte.
    const rust = [
      "fn f<'a>(x: &'a str) {  ",
      "    let q = '\"';  ",
      "    let e = '\\'';  ",
      '    /* a " in /* a nested */ comment  ',
      '    still " in it */ let r#type = 1;  ',
      '    let expected = r#"line with "quotes"  ',
      "  two trailing  ",
      '"#;  ',
      '    let plain = "a \\" b  ',
      '   c";  ',
      '    let b = br"x  ',
      '";  ',
      `    let c = '${utf8("é")}'; let d = '${utf8("🦀")}';  `,
      "}",
      "",
    ].join("\n");
    expect(fixed(rust, { path: "crates/core/main.rs" })).toBe(
      [
        "fn f<'a>(x: &'a str) {",
        "    let q = '\"';",
        "    let e = '\\'';",
        '    /* a " in /* a nested */ comment',
        '    still " in it */ let r#type = 1;',
        '    let expected = r#"line with "quotes"  ',
        "  two trailing  ",
        '"#;',
        '    let plain = "a \\" b  ',
        '   c";',
        '    let b = br"x  ',
        '";',
        `    let c = '${utf8("é")}'; let d = '${utf8("🦀")}';`,
        "}",
        "",
      ].join("\n"),
    );
    expect(fixed('let s = r"open  \n', { path: "a.rs" })).toBe('let s = r"open  \n');
    expect(fixed("/* open  \n", { path: "a.rs" })).toBe("/* open  \n");
  });

  it.each([
    ["test/a_test.dart", "var s = '''", "'''"],
    ["build.gradle", 'def s = """', '"""'],
    ["test/a_test.exs", 'x = """', '"""'],
    ["test/runtests.jl", 's = """', '"""'],
    ["spec/a_spec.lua", "local s = [[", "]]"],
    ["test/a.clj", '(def s "', '")'],
    ["test/a.lisp", '(defparameter *s* "', '")'],
    ["test/a-test.el", '(should (equal (f) "', '"))'],
    ["pyproject.toml", 's = """', '"""'],
    ["tests/testthat/test-a.R", 'x <- "', '"'],
    ["tests/t.nim", 'let s = """', '"""'],
    ["spec/a_spec.cr", 's = "', '"'],
    ["default.nix", "{ s = ''", "''; }"],
    ["tests/A.Tests.ps1", '$s = @"', '"@'],
    ["t/a.t", "my $s = <<'EOF';", "EOF"],
    ["main.tf", "s = <<EOT", "EOT"],
    ["Dockerfile", "COPY <<EOF /a", "EOF"],
  ])("keeps the data lines of %s's multi-line literal and trims the rest", (path, open, close) => {
    const text = ["a = 1  ", open, "data  ", close, "b = 2  ", ""].join("\n");
    expect(fixed(text, { path })).toBe(["a = 1", open, "data  ", close, "b = 2", ""].join("\n"));
    // A file that ends inside the literal: the lexer cannot tell, and no line is trimmed.
    const unclosed = ["a = 1  ", open, "data  ", ""].join("\n");
    expect(fixed(unclosed, { path })).toBe(unclosed);
  });

  it("keeps Zig's \\\\ lines, each data to its end", () => {
    const zig = ["const s =  ", "    \\\\one  ", "    \\\\two  ", ";  ", ""].join("\n");
    expect(fixed(zig, { path: "src/a.zig" })).toBe(
      ["const s =", "    \\\\one  ", "    \\\\two  ", ";", ""].join("\n"),
    );
  });
});

describe("files hygiene leaves alone", () => {
  it.each([
    ["src/__snapshots__/app.test.ts.snap", "snapshot"],
    ["test/app.snap", "snapshot"],
    ["packages/eslint-plugin/tests/docs-eslint-output-snapshots/rule.shot", "snapshot"],
    ["tests/schema-snapshots/rule.ts", "snapshot"],
    ["src/__image_snapshots__/button.png", "snapshot"],
    ["fix.diff", "patch file"],
    ["patches/x.patch", "patch file"],
    ["test/fixtures/a.txt", "fixture"],
    ["pkg/__fixtures__/deep/a.js", "fixture"],
    ["go/testdata/in.txt", "fixture"],
    ["test-data/a.csv", "fixture"],
    ["packages/babel-helpers/test/define-helper-fixtures/misc/9496/input.js", "fixture"],
    ["test/regenerator-fixtures/package.json", "fixture"],
    ["spec/api_fixtures/a.json", "fixture"],
  ])("%s (%s)", (path, reason) => {
    expect(leftAloneReason(path)).toBe(reason);
  });

  it.each([
    "src/app.ts",
    "fixtures.ts",
    "docs/snapshot.md",
    "src/snapshot/take.ts",
    "snapshots.ts",
    // A package named for fixtures is source; so is a test directory's own file named so.
    "packages/babel-helper-fixtures/src/index.ts",
    "test/load-fixtures.ts",
  ])("but not %s", (path) => {
    expect(leftAloneReason(path)).toBeUndefined();
  });

  it("leaves alone the files beside a test directory's snapshots, and only those", () => {
    const inputs = snapshotInputDirs([
      "tests/format/js/in/__snapshots__/format.test.js.snap",
      "tests/format/js/in/input.js",
      "src/lib/__tests__/__snapshots__/lib.test.ts.snap",
      "src/components/__snapshots__/Button.test.tsx.snap",
      "__snapshots__/top.snap",
    ]);
    expect([...inputs].sort()).toEqual(["src/lib/__tests__", "tests/format/js/in"]);
    expect(leftAloneReason("tests/format/js/in/input.js", inputs)).toBe("snapshot test input");
    expect(leftAloneReason("src/lib/__tests__/lib.test.ts", inputs)).toBe("snapshot test input");
    // Not under a test directory: the component's source is no test input.
    expect(leftAloneReason("src/components/Button.tsx", inputs)).toBeUndefined();
    // Only the directory itself: a sibling or a subdirectory is not the snapshots' input.
    expect(leftAloneReason("tests/format/js/other/input.js", inputs)).toBeUndefined();
    expect(leftAloneReason("tests/format/js/in/deeper/input.js", inputs)).toBeUndefined();
  });
});
