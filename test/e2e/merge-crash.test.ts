// A work-tree merge stopped at any point: SIGKILL, Ctrl-C (SIGINT) or SIGTERM after its nth write,
// chosen with the testing aid REVIEW_REMOTE_TEST_MERGE_SIGNAL. Every file is then either as it was
// or as merged, the next command says so, and `merge --abort` gives back the original tree exactly.
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { configureWorker, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, type TestRepo } from "../helpers/repo.js";

const MODIFIED = 24;
const ADDED = 6;
const DELETED = 6;
/** The journal, then a temp file and a rename per written file, and an unlink per deleted one. */
const WRITES = 1 + 2 * (MODIFIED + ADDED) + DELETED;

function lines(replaced: Record<number, string> = {}): string {
  return Array.from({ length: 10 }, (_, i) => `${replaced[i + 1] ?? `l${i + 1}`}\n`).join("");
}

function changeLine9(path: string, to: string): string {
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -6,5 +6,5 @@\n l6\n l7\n l8\n-l9\n+${to}\n l10\n`;
}

function addFile(path: string, line: string): string {
  return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${line}\n`;
}

function deleteFile(path: string, content: string): string {
  const removed = content
    .split("\n")
    .slice(0, -1)
    .map((line) => `-${line}\n`)
    .join("");
  return `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n@@ -1,10 +0,0 @@\n${removed}`;
}

const pad = (n: number) => String(n).padStart(2, "0");
/** A 4 MiB file whose first ten lines are `lines()`: the proposals change its line 9. */
const BIG_TAIL = `${"x".repeat(1023)}\n`.repeat(4096);

/**
 * Every file and directory under the work tree (not .git), with the bytes' hash and the mode: the
 * whole tree as a user would compare it. Temp files the merge left behind show up here too.
 */
function treeSnapshot(repo: TestRepo): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (prefix === "" && name === ".git") continue;
      const path = join(dir, name);
      const stats = lstatSync(path);
      const key = `${prefix}${name}`;
      if (stats.isDirectory()) {
        state[`${key}/`] = (stats.mode & 0o7777).toString(8);
        walk(path, `${key}/`);
      } else if (stats.isSymbolicLink()) state[key] = `-> ${readlinkSync(path)}`;
      else
        state[key] =
          `${(stats.mode & 0o7777).toString(8)} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    }
  };
  walk(repo.dir, "");
  return state;
}

function fullState(repo: TestRepo) {
  const { head, symbolicHead, index } = repoState(repo);
  return { tree: treeSnapshot(repo), head, symbolicHead, index };
}

/**
 * 36 committed files and a 4 MiB one, uncommitted edits in some (the merge keeps them, 3-way), an
 * executable one; the proposals change 24 files (the big one too), add 6 in new directories and
 * delete 6.
 */
function largeMergeRepo(): { repo: TestRepo; id: string } {
  const repo = createTestRepo();
  for (let i = 0; i < 36; i++) repo.write(`src/m${pad(i)}.ts`, lines());
  repo.write("big.txt", lines() + BIG_TAIL);
  chmodSync(join(repo.dir, "src/m01.ts"), 0o755);
  repo.commit("base");
  for (let i = 0; i < 8; i++) repo.write(`src/m${pad(i)}.ts`, lines({ 2: `l2 local ${i}` }));
  const diff = [
    ...Array.from({ length: MODIFIED - 1 }, (_, i) => changeLine9(`src/m${pad(i)}.ts`, `l9 proposed ${i}`)),
    changeLine9("big.txt", "l9 proposed big"),
    ...Array.from({ length: ADDED }, (_, i) => addFile(`gen/deep/n${pad(i)}.ts`, `export const n = ${i};`)),
    ...Array.from({ length: DELETED }, (_, i) => deleteFile(`src/m${pad(30 + i)}.ts`, lines())),
  ].join("");
  const file = join(repo.home, "proposal.diff");
  writeFileSync(file, diff);
  configureWorker(repo, "fixture", shellWords("node", RESULT_WORKER, "--diff", file));
  // The proposals touch files the uncommitted change did not: nofilter keeps them all.
  const review = repo.run(["--worktree", "--worker", "fixture", "--json", "--filter-mode=nofilter"]);
  expect(review.status, review.stderr).toBe(0);
  return { repo, id: JSON.parse(review.stdout).id };
}

function stopAt(n: number, signal: "KILL" | "INT" | "TERM"): Record<string, string> {
  return { REVIEW_REMOTE_TEST_MERGE_SIGNAL: `${n}:${signal}` };
}

/** Each path of either tree holds what it held before, or what the merge writes (temp files aside). */
function expectEachBeforeOrAfter(
  now: Record<string, string>,
  before: Record<string, string>,
  after: Record<string, string>,
  label: string,
) {
  for (const [path, value] of Object.entries(now)) {
    if (/(^|\/)\.rr-[0-9a-f]{12}-\d+$/.test(path)) continue;
    expect([before[path], after[path]], `${label}: ${path}`).toContain(value);
  }
  for (const path of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (path.endsWith("/")) continue;
    expect([before[path], after[path]], `${label}: ${path}`).toContain(now[path]);
  }
}

describe("a work-tree merge stopped at any point", () => {
  let repo: TestRepo;
  let id: string;
  let original: ReturnType<typeof fullState>;
  let merged: ReturnType<typeof fullState>;

  beforeAll(() => {
    ({ repo, id } = largeMergeRepo());
    original = fullState(repo);
    const whole = repo.run(["merge", id]);
    expect(whole.status, whole.stderr).toBe(0);
    merged = fullState(repo);
    const undone = repo.run(["merge", "--abort", id]);
    expect(undone.status, undone.stderr).toBe(0);
    expect(fullState(repo)).toEqual(original);
    return () => repo.cleanup();
  });

  it("merges the planned files: the counts the stop points are chosen from", () => {
    const changed = Object.keys(merged.tree).filter((path) => merged.tree[path] !== original.tree[path]);
    expect(changed.filter((path) => !path.endsWith("/")).length).toBe(MODIFIED + ADDED);
    expect(Object.keys(original.tree).filter((path) => !(path in merged.tree))).toHaveLength(DELETED);
    expect(merged.tree["src/m01.ts"]?.startsWith("755 ")).toBe(true);
    expect(merged.index).toBe(original.index);
  });

  it("SIGKILL: each file is before or after, the next command says so, and --abort restores all", () => {
    for (const n of [1, 2, 3, 4, 17, 40, 61, WRITES - 1, WRITES]) {
      const killed = repo.run(["merge", id], { env: stopAt(n, "KILL") });
      expect(killed.status, `${n}: ${killed.stderr}`).toBe(137);
      expect(killed.stderr, `${n}`).toContain(`hint: to undo: git review-remote merge --abort ${id}`);
      expectEachBeforeOrAfter(treeSnapshot(repo), original.tree, merged.tree, `killed after write ${n}`);
      const listed = repo.run(["list"]);
      expect(listed.stderr, `${n}`).toContain(
        `warning: the merge of review ${id} into ${repo.dir} was interrupted`,
      );
      expect(listed.stderr).toContain(`hint: to roll back: git review-remote merge --abort ${id}`);
      expect(listed.stderr).toContain(`hint: to finish: git review-remote merge --continue ${id}`);
      const again = repo.run(["merge", id]);
      expect(again.status, `${n}`).toBe(1);
      expect(again.stderr).toContain("was interrupted; each file is either as it was or as merged");
      const undone = repo.run(["merge", "--abort", id]);
      expect(undone.status, `${n}: ${undone.stderr}`).toBe(0);
      expect(fullState(repo), `aborted after write ${n}`).toEqual(original);
    }
  });

  it("SIGKILL, then --continue: the merge finishes as if it had never stopped", () => {
    for (const n of [2, 33, WRITES - 2]) {
      expect(repo.run(["merge", id], { env: stopAt(n, "KILL") }).status).toBe(137);
      const finished = repo.run(["merge", "--continue", id]);
      expect(finished.status, `${n}: ${finished.stderr}`).toBe(0);
      expect(finished.stdout).toContain(
        `Finished applying review ${id} to the work tree; review and commit the changes.\n`,
      );
      expect(fullState(repo), `continued after write ${n}`).toEqual(merged);
      expect(repo.run(["list", "--json"]).stdout).toContain('"state": "merged"');
      expect(repo.run(["merge", "--abort", id]).status).toBe(0);
      expect(fullState(repo)).toEqual(original);
    }
  });

  it("Ctrl-C or SIGTERM: stops between two files, exits 130 with both ways out", () => {
    for (const [n, signal] of [
      [1, "INT"],
      [2, "INT"],
      [9, "INT"],
      [44, "TERM"],
      [WRITES - 1, "INT"],
    ] as const) {
      const stopped = repo.run(["merge", id], { env: stopAt(n, signal) });
      expect(stopped.status, `${n}: ${stopped.stderr}`).toBe(130);
      expect(stopped.stderr).toMatch(/^hint: to undo: git review-remote merge --abort [0-9a-f]{12}\n/);
      expect(stopped.stderr).toMatch(
        new RegExp(
          `interrupted: the merge of review ${id} stopped after \\d+ of ${MODIFIED + ADDED + DELETED} files`,
        ),
      );
      expect(stopped.stderr).toContain(`hint: to roll back: git review-remote merge --abort ${id}`);
      const now = treeSnapshot(repo);
      // A held signal stops between files: no temp file is left behind.
      expect(Object.keys(now).filter((path) => path.includes(".rr-"))).toEqual([]);
      expectEachBeforeOrAfter(now, original.tree, merged.tree, `${signal} after write ${n}`);
      const undone = repo.run(["merge", "--abort", id]);
      expect(undone.status, `${n}: ${undone.stderr}`).toBe(0);
      expect(fullState(repo)).toEqual(original);
    }
  });

  it("a file that cannot be written stops the merge there, with both ways out", () => {
    // The 11th file of the journal (in path order: big.txt, 6 new files, src/m00..m02, src/m03)
    // cannot have its temp file: something is in the way.
    const blocker = join(repo.dir, "src", `.rr-${id}-10`);
    mkdirSync(blocker);
    const failed = repo.run(["merge", id]);
    expect(failed.status, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(
      new RegExp(
        `cannot write the work tree: .*; the merge of review ${id} stopped after 10 of ${MODIFIED + ADDED + DELETED} files`,
      ),
    );
    expect(failed.stderr).toContain(`hint: to finish: git review-remote merge --continue ${id}`);
    const now = treeSnapshot(repo);
    delete now[`src/.rr-${id}-10/`];
    expectEachBeforeOrAfter(now, original.tree, merged.tree, "unwritable");
    expect(now["src/m02.ts"]).toBe(merged.tree["src/m02.ts"]);
    expect(now["src/m03.ts"]).toBe(original.tree["src/m03.ts"]);
    rmdirSync(blocker);
    expect(repo.run(["merge", "--continue", id]).status).toBe(0);
    expect(fullState(repo)).toEqual(merged);
    expect(repo.run(["merge", "--abort", id]).status).toBe(0);
    expect(fullState(repo)).toEqual(original);
  });

  it("an undo killed half way is noticed, and run again to its end", () => {
    expect(repo.run(["merge", id]).status).toBe(0);
    for (const n of [1, 6, 30]) {
      const killed = repo.run(["merge", "--abort", id], { env: stopAt(n, "KILL") });
      expect(killed.status).toBe(137);
      expectEachBeforeOrAfter(treeSnapshot(repo), original.tree, merged.tree, `undo killed after write ${n}`);
      const shown = repo.run(["show", id]);
      expect(shown.stderr).toContain(`warning: the undo of the merge of review ${id}`);
      expect(shown.stderr).not.toContain("--continue");
      expect(repo.run(["merge", "--continue", id]).status).toBe(1);
      expect(repo.run(["drop", id]).status).toBe(1);
    }
    const undone = repo.run(["merge", "--abort", id]);
    expect(undone.status, undone.stderr).toBe(0);
    expect(fullState(repo)).toEqual(original);
  });

  it("--abort refuses, changing nothing, when a merged file was edited since", () => {
    expect(repo.run(["merge", id]).status).toBe(0);
    repo.write("src/m05.ts", "edited after the merge\n");
    const edited = fullState(repo);
    const refused = repo.run(["merge", "--abort", id]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `files of review ${id} changed since its merge wrote them; nothing was changed`,
    );
    expect(refused.stderr).toContain('changed: "src/m05.ts"');
    expect(refused.stderr).toContain(
      "hint: make each of those files hold what the merge wrote (or what it held before)",
    );
    expect(fullState(repo)).toEqual(edited);
    // Refused before it began: no undo is left waiting, and the next command says nothing of one.
    const listed = repo.run(["list"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stderr).toBe("");
    repo.write("src/m05.ts", lines({ 2: "l2 local 5", 9: "l9 proposed 5" }));
    expect(repo.run(["merge", "--abort", id]).status).toBe(0);
    expect(fullState(repo)).toEqual(original);
  });
});
