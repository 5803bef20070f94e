import { describe, expect, it } from "vitest";
import { isScriptPath, templateLiteralLines } from "../../src/worker/reviewers/template-literals.js";

const lines = (text: string) => {
  const found = templateLiteralLines(text);
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
