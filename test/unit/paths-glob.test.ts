import { describe, expect, it } from "vitest";
import { matchGlob, matchGlobList } from "../../src/paths/glob.js";

describe("matchGlob (gitignore semantics)", () => {
  it.each([
    ["*.pem", "a.pem", true],
    ["*.pem", "deep/dir/a.pem", true],
    ["*.pem", "tempemail.js", false],
    ["*.pem", "a.pem.txt", false],
    [".env", "sub/.env", true],
    [".env", ".environment", false],
    ["/build", "build/x", true],
    ["/build", "src/build/x", false],
    ["docs/*.md", "docs/a.md", true],
    ["docs/*.md", "docs/sub/a.md", false],
    ["docs/**/*.md", "docs/sub/deep/a.md", true],
    ["docs/**/*.md", "docs/a.md", true],
    ["**/gen", "a/b/gen/c.ts", true],
    [".github/**", ".github/workflows/ci.yml", true],
    [".github/**", "x/.github/workflows/ci.yml", false],
    ["gen/", "src/gen/b.ts", true],
    ["gen/", "src/gen", false],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file/.txt", false],
    ["[ab].ts", "b.ts", true],
    ["[!ab].ts", "b.ts", false],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
  ])("%s matches %s: %s", (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });

  it("lets the last pattern decide and re-includes with !", () => {
    expect(matchGlobList(["*.json", "!package.json"], "package.json")).toBeUndefined();
    expect(matchGlobList(["*.json", "!package.json"], "a.json")).toBe("*.json");
    expect(matchGlobList(["# comment", ""], "a")).toBeUndefined();
  });
});
