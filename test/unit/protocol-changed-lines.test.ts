import { describe, expect, it } from "vitest";
import { changedLinesOf, fitPatch, parsePatchLines } from "../../src/protocol/changed-lines.js";

// `git diff-tree -p --no-renames` of a commit that changes, deletes, adds and binary-edits files,
// one of them with a space and a non-ASCII letter in its name.
const PATCH = [
  "diff --git a/b.bin b/b.bin",
  "index 87ae6b6..22f6b3b 100644",
  "Binary files a/b.bin and b/b.bin differ",
  "diff --git a/f.txt b/f.txt",
  "index 27df8b9..74db1a7 100644",
  "--- a/f.txt",
  "+++ b/f.txt",
  "@@ -1,5 +1,5 @@",
  " a",
  "-b",
  "+B",
  " c",
  " d",
  " e",
  "@@ -8,4 +8,5 @@ g",
  " h",
  " i",
  " j",
  "-k",
  "+K",
  "+L",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "index 587be6b..0000000",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-x",
  "diff --git a/new.txt b/new.txt",
  "new file mode 100644",
  "index 0000000..9c38d10",
  "--- /dev/null",
  "+++ b/new.txt",
  "@@ -0,0 +1,2 @@",
  "+new",
  "+file",
  "\\ No newline at end of file",
  'diff --git "a/sp ace \\303\\251.txt" "b/sp ace \\303\\251.txt"',
  "index 2fa992c..c425e22 100644",
  '--- "a/sp ace \\303\\251.txt"\t',
  '+++ "b/sp ace \\303\\251.txt"\t',
  "@@ -1 +1,2 @@",
  " keep",
  "++++ b/x",
  "",
].join("\n");

const RANGE = { base: "a".repeat(40), head: "b".repeat(40) };

describe("the lines a change touched", () => {
  it("reads added lines and hunk spans per head-side path from git's patch", () => {
    const files = parsePatchLines(PATCH);
    expect(Object.fromEntries(files)).toEqual({
      "b.bin": { added: null, hunks: null },
      "f.txt": {
        added: [
          [2, 2],
          [11, 12],
        ],
        hunks: [
          [1, 5],
          [8, 12],
        ],
      },
      "gone.txt": { added: [], hunks: [] },
      "new.txt": { added: [[1, 2]], hunks: [[1, 2]] },
      // An added line that reads like a header is content: the hunk's counts say so.
      "sp ace é.txt": { added: [[2, 2]], hunks: [[1, 2]] },
    });
  });

  it("lists every changed path of the range, in its order, with the schema name", () => {
    const paths = ["b.bin", "f.txt", "gone.txt", "new.txt", "sp ace é.txt"];
    const changes = changedLinesOf({ ...RANGE, paths, patch: PATCH });
    expect(changes.schema).toBe("git-review-remote/changed-lines@1");
    expect(changes.complete).toBe(true);
    expect(changes.files.map((file) => file.path)).toEqual(paths);
    expect(changes.files[1]).toEqual({
      path: "f.txt",
      added: [
        [2, 2],
        [11, 12],
      ],
      hunks: [
        [1, 5],
        [8, 12],
      ],
    });
  });

  it("knows the paths but not the lines when the patch was too large to send", () => {
    const changes = changedLinesOf({ ...RANGE, paths: ["f.txt"], patch: "" });
    expect(changes.complete).toBe(false);
    expect(changes.files).toEqual([{ path: "f.txt", added: null, hunks: null }]);
    expect(changedLinesOf({ ...RANGE, paths: [], patch: "" })).toMatchObject({ complete: true, files: [] });
  });

  it("joins adjacent added lines and keeps a pure deletion's position as its hunk", () => {
    const patch = [
      "diff --git a/x b/x",
      "--- a/x",
      "+++ b/x",
      "@@ -3,2 +2,0 @@",
      "-gone",
      "-gone too",
      "@@ -10 +9,3 @@",
      "-old",
      "+one",
      "+two",
      "+three",
      "",
    ].join("\n");
    expect(parsePatchLines(patch).get("x")).toEqual({
      added: [[9, 11]],
      hunks: [
        [2, 2],
        [9, 11],
      ],
    });
  });
});

describe("a patch too large to send whole", () => {
  const section = (path: string, lines: number) =>
    [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, `@@ -1 +1,${lines} @@`]
      .concat(Array.from({ length: lines }, (_, i) => `+line ${i}`))
      .join("\n")
      .concat("\n");
  const small = section("a.txt", 2);
  const large = section("yarn.lock", 40);
  const middle = section("c.txt", 5);
  const patch = small + large + middle;
  const paths = ["a.txt", "yarn.lock", "c.txt"];

  it("keeps whole file sections in their order, leaving out the largest first", () => {
    expect(fitPatch(patch, Buffer.byteLength(patch))).toEqual({ patch, kept: 3, total: 3 });
    const limit = Buffer.byteLength(small + middle);
    expect(fitPatch(patch, limit)).toEqual({ patch: small + middle, kept: 2, total: 3 });
    expect(fitPatch(patch, limit - 1)).toEqual({ patch: small, kept: 1, total: 3 });
    expect(fitPatch(patch, 10)).toEqual({ patch: "", kept: 0, total: 3 });
  });

  it("knows the lines of the files it kept and not of those it left out", () => {
    const changes = changedLinesOf({ ...RANGE, paths, patch: small + middle });
    expect(changes.complete).toBe(false);
    expect(changes.files).toEqual([
      { path: "a.txt", added: [[1, 2]], hunks: [[1, 2]] },
      { path: "yarn.lock", added: null, hunks: null },
      { path: "c.txt", added: [[1, 5]], hunks: [[1, 5]] },
    ]);
    expect(changedLinesOf({ ...RANGE, paths, patch }).complete).toBe(true);
  });
});
