import { describe, expect, it } from "vitest";
import {
  isScriptPath,
  literalLines,
  templateLiteralLines,
} from "../../src/worker/reviewers/template-literals.js";

const lines = (text: string) => {
  const found = templateLiteralLines(text);
  return found === undefined ? undefined : [...found];
};
/** The lines `literalLines` names for a file of `path`, as an array; undefined when it is unsure. */
const linesOf = (path: string, text: string) => {
  const found = literalLines(path, text);
  return found === undefined ? undefined : [...found];
};

describe("lines inside JavaScript template literals", () => {
  it("names the lines whose line break is inside a template literal", () => {
    const source = ["const a = 1;  ", "const t = `one  ", "two  ", "three`;  ", "const b = 2;"].join("\n");
    expect(lines(source)).toEqual([2, 3]);
  });

  it("follows nested expressions, strings and comments inside and around templates", () => {
    const source = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source as test input
      "const t = `a ${ fn({ x: '`' }) } b  ", // the quote holds a backtick; the template goes on
      "c`; // a ` in a comment  ",
      "/* and ` here  ",
      '*/ const s = "`";',
      "const u = `${`inner  ",
      "`}`;",
    ].join("\n");
    expect(lines(source)).toEqual([1, 5]);
  });

  it("tells regular expressions from divisions", () => {
    expect(lines("const r = /`/g; const d = a / b / c;\nconst t = `x  \ny`;\n")).toEqual([2]);
    expect(lines("return /[/`]/.test(x);\n")).toEqual([]);
  });

  it("gives up (undefined) when it loses track, so every line is protected", () => {
    expect(lines("const t = `never closed  \n")).toBeUndefined();
    expect(lines("const s = 'unterminated\nx;\n")).toBeUndefined();
  });

  it("applies to JavaScript and TypeScript files only", () => {
    for (const path of ["a.js", "a.mjs", "a.cjs", "a.ts", "a.tsx", "a.jsx", "a.mts", "a.cts"])
      expect(isScriptPath(path)).toBe(true);
    for (const path of ["a.json", "a.md", "a.vue", "a.tsv"]) expect(isScriptPath(path)).toBe(false);
  });
});

describe("block comments, nested where the language nests them", () => {
  it("reads Kotlin's, Scala's and Swift's nested comments to their own end", () => {
    // Read flat, the comment would end at the first `*/` and its `"""` open a string that the real
    // one closes, leaving the real string's lines to be trimmed.
    const source = ['/* /* */ """ */', 'val s = """', "a  ", '"""  // """', ""].join("\n");
    for (const path of ["A.kt", "build.gradle.kts", "A.scala", "a.sc", "A.swift"])
      expect(linesOf(path, source), path).toEqual([2, 3]);
    const rust = ['/* /* */ " */', 'let s = "a  ', '";  // "', ""].join("\n");
    expect(linesOf("a.rs", rust)).toEqual([2]);
  });

  it("keeps a file that ends inside a nested comment unsure", () => {
    for (const path of ["A.kt", "A.scala", "A.swift", "a.rs"])
      expect(linesOf(path, "/* /* */ val x = 1  \n"), path).toBeUndefined();
  });

  it("ends C#'s, Go's and JavaScript's comments at their first */", () => {
    expect(linesOf("A.cs", ['/* /* */ var s = """', "a  ", '""";', ""].join("\n"))).toEqual([1, 2]);
    expect(linesOf("a.go", "/* /* */ var s = `a  \n`\n")).toEqual([1]);
    expect(linesOf("a.ts", "/* /* */ const s = `a  \n`;\n")).toEqual([1]);
    expect(linesOf("A.cs", "/* /* */ var x = 1;  \n")).toEqual([]);
  });
});

describe("Go's strings", () => {
  it("gives up on an interpreted string or a rune that a backslash carries over a line break", () => {
    // Not Go, and never read as a way past the line break: the lines after it would be misnumbered.
    for (const [open, close] of [
      ['"a\\', 'b"'],
      ["'\\", "'"],
    ])
      expect(linesOf("a.go", `var s = ${open}\n${close}\nvar r = \`x  \ny\`\n`), open).toBeUndefined();
    expect(linesOf("a.go", 'var s = "a\\\\"\nvar r = `x  \ny`\n')).toEqual([2]);
  });
});

describe("C++ raw strings", () => {
  it('names the lines inside R"(...)" and R"delim(...)delim", prefixed or not', () => {
    const source = [
      'auto a = R"(one  ',
      'two )"; int after = 1;  ', // `)"` ends a string opened with no delimiter
      'auto b = u8R"xy(three )" and )x" are content  ',
      ')xy"; auto c = LR"(four  ',
      ')";',
      "",
    ].join("\n");
    expect(linesOf("format_test.cpp", source)).toEqual([1, 3, 4]);
  });

  it("reads past comments, plain strings, characters and digit separators", () => {
    const source = [
      '// R"( in a comment  ', // 1
      'const char* s = "R\\"(not raw";  /* R"( */', // 2
      "char q = '\"'; int n = 1'000'000;  ", // 3
      'auto FOOR = 1; auto t = FOOR"(plain)";  ', // 4
      'auto r = R"--(', // 5
      '  )" )-" still  ', // 6
      ')--";', // 7
      "",
    ].join("\n");
    expect(linesOf("a.hpp", source)).toEqual([5, 6]);
  });

  it("carries a line comment past a backslash that ends its line, spaces after it too", () => {
    const spliced = (after: string) =>
      [`// a comment \\${after}`, 'R"( is comment too', 'auto r = R"(x  ', ')";', ""].join("\n");
    expect(linesOf("a.cc", spliced(""))).toEqual([3]);
    expect(linesOf("a.cc", spliced("  "))).toEqual([3]);
    expect(linesOf("a.h", spliced("\r"))).toEqual([3]);
  });

  it("gives up on a file that ends inside a string, or a plain string continued on the next line", () => {
    expect(linesOf("a.cpp", 'auto r = R"x(open  \n)";\n')).toBeUndefined();
    expect(linesOf("a.cpp", 'auto s = "a\\\nb";\n')).toBeUndefined();
    expect(linesOf("a.cpp", "/* open  \n")).toBeUndefined();
  });
});

describe("here-document openers that open none", () => {
  it("passes over a comment's line and Ruby's class <<self", () => {
    // Read as openers, each would find no end and leave the whole file unfixed.
    const ruby = [
      "class Foo",
      "  class <<self",
      "  #   msg = <<END_OF_MESSAGE",
      "  def x = <<~EOS",
      "    body  ",
      "  EOS",
      "end",
      "",
    ].join("\n");
    expect(linesOf("lib/foo.rb", ruby)).toEqual([5]);
    const shell = ["#!/bin/sh", "# usage: cat <<EOF", "cat <<EOF", "body  ", "EOF", ""].join("\n");
    expect(linesOf("run.sh", shell)).toEqual([4]);
  });

  it("still reads an opener after code, a # in a string or an interpolation before it", () => {
    expect(linesOf("a.rb", 'x = "#{a}" + <<EOS\nbody  \nEOS\n')).toEqual([2]);
    expect(linesOf("a.sh", 'echo "#" && cat <<EOF\nbody  \nEOF\n')).toEqual([2]);
  });
});
