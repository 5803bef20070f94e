import { describe, expect, it } from "vitest";
import { checkEntryPath, checkLinkTarget, FoldedTree } from "../../src/paths/bundle.js";
import { collisionKey as foldName, isDotGitLike } from "../../src/paths/fold.js";
import { resolveLink } from "../../src/paths/symlink.js";
import { FoldedNames } from "../helpers/folded-names.js";

describe("worker path rules", () => {
  it.each([
    ".git",
    ".GIT",
    ".Git.",
    ".git  ",
    ".git. .",
    ".git::$INDEX_ALLOCATION",
    "git~1",
    "GIT~2",
    ".g\u200cit",
    "\u200b.git",
    ".git\ufeff",
    "\uff0egit",
    ".\uff47it",
  ])("%j is a .git look-alike", (name) => {
    expect(isDotGitLike(name)).toBe(true);
  });

  it.each([".github", ".gitignore", ".gitattributes", "git", "digit~1", "my.git", ".git-blame-ignore-revs"])(
    "%j is not",
    (name) => {
      expect(isDotGitLike(name)).toBe(false);
    },
  );

  it("folds names the way case-insensitive, normalizing filesystems compare them", () => {
    expect(foldName("Stra\u00dfe")).toBe(foldName("STRASSE"));
    expect(foldName("\ufb00")).toBe(foldName("ff"));
    expect(foldName("e\u0301")).toBe(foldName("\u00e9"));
    expect(foldName("a\u200db")).toBe(foldName("ab"));
    expect(foldName("a")).not.toBe(foldName("b"));
  });

  it("splits canonical names and keeps a directory's trailing slash out", () => {
    expect(checkEntryPath("src/app.ts", false)).toEqual(["src", "app.ts"]);
    expect(checkEntryPath("src/", true)).toEqual(["src"]);
    expect(checkEntryPath("src//", true)).toMatchObject({ rule: "non-canonical-path" });
  });

  it("checks symlink targets statically", () => {
    expect(checkLinkTarget("../sibling")).toBeUndefined();
    expect(checkLinkTarget("/abs")).toMatchObject({ rule: "symlink-absolute-path" });
    expect(checkLinkTarget("x/.GIT/hooks")).toMatchObject({ rule: "symlink-dotgit" });
  });

  it("resolves through other symlinks as the kernel would", () => {
    const links = new Map([
      ["a/b/c/up", "../.."],
      ["a/b/escape", "c/up/../.."],
      ["docs/latest", "v2"],
    ]);
    expect(resolveLink(["a", "b", "c"], "../..", links)).toEqual({ ok: true, path: "a" });
    expect(resolveLink(["a", "b"], "c/up/../..", links)).toMatchObject({ ok: false, rule: "symlink-escape" });
    expect(resolveLink([], "docs/latest/../latest/x", links)).toEqual({ ok: true, path: "docs/v2/x" });
    expect(resolveLink([], "a/../..", links)).toMatchObject({ ok: false, rule: "symlink-escape" });
  });
});

describe("FoldedNames and FoldedTree", () => {
  it("finds the same collisions whether or not a name's directories were claimed first", () => {
    const pairs = [
      ["Docs/Read.md", "docs/read.MD"],
      ["caf\u00e9/menu", "cafe\u0301/Menu"],
      ["a/b/c.txt", "A/B/C.TXT."],
      ["x/\uff27it/y", "x/git/y"],
    ];
    for (const [first, second] of pairs as [string, string][]) {
      const withParents = new FoldedTree();
      expect(withParents.claimWithParents(first)).toBeUndefined();
      expect(withParents.claimWithParents(second)?.rule).toBe("case-collision");
      const alone = new FoldedNames();
      expect(alone.claim(first)).toBeUndefined();
      expect(alone.claim(second)).toBe(first);
      expect(foldName(second)).toBe(foldName(first));
    }
    const distinct = new FoldedTree();
    for (const path of ["a/b", "a/c", "ab/c", "a.b/c", "a/b.c"])
      expect(distinct.claimWithParents(path)).toBeUndefined();
  });

  it("FoldedTree refuses what FoldedNames refuses when each directory is claimed before its files", () => {
    const claimedSoFar: string[] = [];
    // Tree order, with directories left and re-entered, collisions at every depth, a file and a
    // directory that fold together, and NFC/NFD and full-width names.
    const listing = [
      "README.md",
      "docs/a.md",
      "docs/sub/x.md",
      "docs/b.md",
      "Docs/c.md",
      "docs/SUB/y.md",
      "docs/sub/X.md",
      "docs/sub/z.md",
      "readme.md",
      "caf\u00e9/menu",
      "cafe\u0301/menu",
      "caf\u00e9/Menu",
      "src/index.ts",
      "src/lib/a.ts",
      "src/index.ts.",
      "src/lib.ts",
      "src/LIB/b.ts",
      "x/\uff27it/y",
      "x/git/y",
      "x/git",
      "top",
      "TOP/inner",
    ];
    const tree = new FoldedTree();
    for (const path of listing) {
      const parts = path.split("/");
      const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join("/"));
      // The reference: every prefix checked, then all claimed (FoldedNames remembers claims only).
      const probe = new FoldedNames();
      for (const claimed of claimedSoFar) probe.claim(claimed);
      const refused = prefixes.find((prefix) => probe.claim(prefix) !== undefined);
      if (refused === undefined) {
        claimedSoFar.push(...prefixes.filter((prefix) => !claimedSoFar.includes(prefix)));
      }
      expect(tree.claimWithParents(path)?.rule, path).toBe(
        refused === undefined ? undefined : "case-collision",
      );
    }
    expect(claimedSoFar).toContain("docs/sub/z.md");
    expect(claimedSoFar).not.toContain("Docs/c.md");
  });
});
