// pipeline: the scope stage, a focused review's proposals kept to the files its change touched.
import { describe, expect, it } from "vitest";
import { scopeProposals } from "../../src/pipeline/scope.js";

const gate = { maxPatchBytes: 1024 * 1024 };

/** A `git diff` section changing line 1 of `path` from `before` to `after`. */
function edit(path: string, before: string, after: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    "index 1111111..2222222 100644",
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -1 +1 @@",
    `-${before}`,
    `+${after}`,
    "",
  ].join("\n");
}

function rename(from: string, to: string): string {
  return [
    `diff --git a/${from} b/${to}`,
    "similarity index 100%",
    `rename from ${from}`,
    `rename to ${to}`,
    "",
  ].join("\n");
}

function added(path: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    "new file mode 100644",
    "index 0000000..3333333",
    "--- /dev/null",
    `+++ b/${path}`,
    "@@ -0,0 +1 @@",
    "+new",
    "",
  ].join("\n");
}

const rules = (changed: string[], sent: string[]) => ({
  changed: new Set(changed),
  sent: new Set(sent),
  gate,
});
const SENT = ["src/a.js", "src/b.js", "lib/c.js"];

describe("scopeProposals", () => {
  const NOTE =
    "Kept to the reviewed change: 1 of the 3 files this commit changed (--filter-mode=nofilter keeps them all).";
  const all = () => edit("lib/c.js", "a", "b") + edit("src/a.js", "a", "b") + edit("src/b.js", "a", "b");

  it("names a built-in reviewer commit after the fixes it keeps, and counts those it leaves out", () => {
    const message = [
      "biome: 9 fixes (lint/style/useConst, lint/style/noVar, eqeqeq, ...)",
      "",
      "lib/c.js: 5 fixes (lint/style/useConst, lint/style/noVar)",
      "src/a.js: 1 fix (eqeqeq)",
      "src/b.js: 3 fixes (lint/style/useConst, a, b, ...)",
      "",
    ].join("\n");
    const scoped = scopeProposals([{ message, patch: all() }], rules(["src/a.js"], SENT));
    expect(scoped.commits.map((commit) => commit.message)).toEqual([
      `biome: 1 fix (eqeqeq)\n\nsrc/a.js: 1 fix (eqeqeq)\n\n${NOTE}`,
    ]);
    expect(scoped.leftOut).toEqual({ fixes: 8, files: 2 });
    const two = scopeProposals([{ message, patch: all() }], rules(["src/a.js", "src/b.js"], SENT));
    expect(two.commits[0]?.message.split("\n")[0]).toBe(
      "biome: 4 fixes (eqeqeq, lint/style/useConst, a, ...)",
    );
  });

  it("names a built-in reviewer commit after its kept files when a file has no fixes line", () => {
    const changed = "prettier --write: 3 files changed (lib/c.js, src/a.js, src/b.js)";
    const scoped = scopeProposals([{ message: changed, patch: all() }], rules(["src/a.js"], SENT));
    expect(scoped.commits[0]?.message).toBe(
      `prettier --write: 1 file changed (src/a.js)\n\nsrc/a.js\n\n${NOTE}`,
    );
    expect(scoped.leftOut).toEqual({ fixes: 2, files: 2 });
  });

  it("keeps the sections of changed files, in order, and counts the hunks and files left out", () => {
    const patch = edit("lib/c.js", "a", "b") + edit("src/a.js", "a", "b") + edit("src/b.js", "a", "b");
    const scoped = scopeProposals([{ message: "fix", patch }], rules(["src/a.js"], SENT));
    expect(scoped.commits).toEqual([
      {
        // Another worker's words are kept; its subject says how much of the commit is left.
        message: `fix (kept to the change: 1 of 3 files)\n\n${NOTE}`,
        patch: edit("src/a.js", "a", "b"),
      },
    ]);
    expect(scoped.leftOut).toEqual({ fixes: 2, files: 2 });
    const prose = "Fix lint\n\nRan eslint --fix over the tree.\n";
    const kept = scopeProposals([{ message: prose, patch }], rules(["src/a.js"], SENT));
    expect(kept.commits[0]?.message).toBe(
      `Fix lint (kept to the change: 1 of 3 files)\n\nRan eslint --fix over the tree.\n\n${NOTE}`,
    );
  });

  it("drops a path from every commit, and a commit left empty", () => {
    const commits = [
      { message: "one", patch: edit("src/a.js", "a", "b") + edit("lib/c.js", "a", "b") },
      { message: "two", patch: edit("lib/c.js", "b", "c") },
      { message: "three", patch: edit("src/a.js", "b", "c") },
    ];
    const scoped = scopeProposals(commits, rules(["src/a.js"], SENT));
    expect(scoped.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "one (kept to the change: 1 of 2 files)",
      "three",
    ]);
    expect(scoped.commits[1]?.message).toBe("three");
    expect(scoped.commits[0]?.patch).toBe(edit("src/a.js", "a", "b"));
    expect(scoped.leftOut).toEqual({ fixes: 2, files: 1 });
  });

  it("joins a rename's paths: an edit after a rename out of the change stays with it", () => {
    const commits = [
      { message: "move", patch: rename("src/a.js", "lib/a.js") + rename("lib/c.js", "lib/d.js") },
      { message: "edit", patch: edit("lib/a.js", "a", "b") + edit("lib/d.js", "a", "b") },
    ];
    const scoped = scopeProposals(commits, rules(["src/a.js"], SENT));
    expect(scoped.commits.map((commit) => commit.patch)).toEqual([
      rename("src/a.js", "lib/a.js"),
      edit("lib/a.js", "a", "b"),
    ]);
    // The pure rename counts once; its two paths are two files.
    expect(scoped.leftOut).toEqual({ fixes: 2, files: 2 });
  });

  it("keeps a file the worker created, and the rename of one it created", () => {
    const commits = [
      { message: "add", patch: added("src/new.js") + edit("lib/c.js", "a", "b") },
      { message: "move", patch: rename("src/new.js", "src/newer.js") },
    ];
    const scoped = scopeProposals(commits, rules(["src/a.js"], SENT));
    expect(scoped.commits.map((commit) => commit.patch)).toEqual([
      added("src/new.js"),
      rename("src/new.js", "src/newer.js"),
    ]);
    expect(scoped.leftOut).toEqual({ fixes: 1, files: 1 });
  });

  it("hands back a chain the patch gate refuses whole, for the quarantine to reject", () => {
    const commits = [
      { message: "fine", patch: edit("src/a.js", "a", "b") + edit("lib/c.js", "a", "b") },
      { message: "bad", patch: "not a patch\n" },
    ];
    const scoped = scopeProposals(commits, rules(["src/a.js"], SENT));
    expect(scoped.commits).toEqual(commits);
    expect(scoped.leftOut).toEqual({ fixes: 0, files: 0 });
  });
});
