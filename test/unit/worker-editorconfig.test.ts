import { describe, expect, it } from "vitest";
import { createEditorConfig } from "../../src/worker/reviewers/editorconfig.js";
import { compileSectionGlob } from "../../src/worker/reviewers/editorconfig-glob.js";

function resolver(files: Record<string, string>) {
  return createEditorConfig((dir) => files[dir]);
}

describe("EditorConfig section globs", () => {
  it.each([
    ["*", "a.md", true],
    ["*", "docs/a.md", true],
    ["*.md", "docs/deep/a.md", true],
    ["*.md", "a.mdx", false],
    ["*.{md,txt}", "notes.txt", true],
    ["*.{md,txt}", "notes.js", false],
    ["{package.json,.travis.yml}", "package.json", true],
    ["lib/**.js", "lib/a/b.js", true],
    ["lib/**.js", "src/lib/a.js", false],
    ["/docs/*.md", "docs/a.md", true],
    ["/docs/*.md", "docs/x/a.md", false],
    ["file[0-9].txt", "file7.txt", true],
    ["file[!0-9].txt", "file7.txt", false],
    ["v{1..3}.txt", "v2.txt", true],
    ["v{1..3}.txt", "v4.txt", false],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["\\*.md", "*.md", true],
    ["{single}", "{single}", true],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(compileSectionGlob(glob).test(path)).toBe(expected);
  });
});

describe("EditorConfig resolution", () => {
  it("applies the nearest file last and, in one file, the last matching section", () => {
    const settings = resolver({
      "": "root = true\n[*]\ntrim_trailing_whitespace = true\ninsert_final_newline = true\n[*.md]\ntrim_trailing_whitespace = false\n",
      docs: "[*.md]\ntrim_trailing_whitespace = true\n[legacy/*.md]\ninsert_final_newline = false\n",
    });
    expect(settings("a.ts")).toEqual({ trimTrailingWhitespace: true, insertFinalNewline: true });
    expect(settings("README.md")).toEqual({ trimTrailingWhitespace: false, insertFinalNewline: true });
    expect(settings("docs/guide.md")).toEqual({ trimTrailingWhitespace: true, insertFinalNewline: true });
    expect(settings("docs/legacy/old.md")).toEqual({
      trimTrailingWhitespace: true,
      insertFinalNewline: false,
    });
  });

  it("stops at the first root = true and ignores files above it", () => {
    const settings = resolver({
      "": "[*]\ntrim_trailing_whitespace = false\n",
      pkg: "root = true\n[*.js]\ninsert_final_newline = false\n",
    });
    expect(settings("pkg/a.js")).toEqual({ insertFinalNewline: false });
    expect(settings("other/a.js")).toEqual({ trimTrailingWhitespace: false });
  });

  it("reads keys and values in any case, skips comments, and lets unset restore the default", () => {
    const settings = resolver({
      "": "# comment\n; comment\n[*]\nTRIM_TRAILING_WHITESPACE = FALSE\n[*.txt]\ntrim_trailing_whitespace = unset\n",
    });
    expect(settings("a.js")).toEqual({ trimTrailingWhitespace: false });
    expect(settings("a.txt")).toEqual({});
    expect(resolver({})("a.js")).toEqual({});
  });
});
