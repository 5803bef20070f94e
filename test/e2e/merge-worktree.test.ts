// `git review-remote merge` for a work-tree snapshot: each file merged into the work tree, the index
// never touched, all files or none, and an undo command that really takes them back.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(): TestRepo {
  return repos.add(createTestRepo());
}

/** `l1\n`...`l10\n`, with some lines replaced. */
function lines(replaced: Record<number, string> = {}): string {
  return Array.from({ length: 10 }, (_, i) => `${replaced[i + 1] ?? `l${i + 1}`}\n`).join("");
}

/** A git diff section that changes line 9 of a `lines()` file (lines 6-10 as context). */
function changeLine9(path: string, to: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -6,5 +6,5 @@",
    " l6",
    " l7",
    " l8",
    "-l9",
    `+${to}`,
    " l10",
    "",
  ].join("\n");
}

function addFile(path: string, line: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    "new file mode 100644",
    "--- /dev/null",
    `+++ b/${path}`,
    "@@ -0,0 +1 @@",
    `+${line}`,
    "",
  ].join("\n");
}

function deleteFile(path: string, line: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    "deleted file mode 100644",
    `--- a/${path}`,
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    `-${line}`,
    "",
  ].join("\n");
}

/** Review the work tree with a fixture worker that proposes `diff` (relative to the snapshot). */
function reviewWorktree(repo: TestRepo, diff: string): string {
  const file = join(repo.home, "proposal.diff");
  writeFileSync(file, diff);
  configureWorker(repo, "fixture", shellWords("node", RESULT_WORKER, "--diff", file));
  // Some proposals touch files the uncommitted change did not: nofilter keeps them all.
  const result = repo.run(["--worktree", "--worker", "fixture", "--json", "--filter-mode=nofilter"]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout).id;
}

function read(repo: TestRepo, path: string): string {
  return readFileSync(join(repo.dir, path), "utf8");
}

/** The work tree as the user sees it: status (untracked too) and the bytes of the given files. */
function worktree(repo: TestRepo, paths: readonly string[]): Record<string, string> {
  const state: Record<string, string> = {
    status: repo.git("--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all"),
  };
  for (const path of paths) state[path] = existsSync(join(repo.dir, path)) ? read(repo, path) : "<absent>";
  return state;
}

/** A committed src/app.ts, then an uncommitted edit of line 2: the state the snapshot records. */
function repoWithLocalEdit(): TestRepo {
  const repo = newRepo();
  repo.write("src/app.ts", lines());
  repo.write("src/old.ts", "export const old = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", lines({ 2: "l2 local" }));
  return repo;
}

describe("merge of a work-tree review", () => {
  it("merges a file edited elsewhere since the review 3-way, and leaves HEAD and the index alone", () => {
    const repo = repoWithLocalEdit();
    const id = reviewWorktree(repo, changeLine9("src/app.ts", "l9 proposed"));
    repo.write("src/app.ts", lines({ 1: "l1 later", 2: "l2 local" }));
    const before = repoState(repo);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(
      `Applied review ${id} to the work tree; review and commit the changes.\n` +
        `Deleted branch review/${id}; the record stays (git review-remote show ${id}).\n`,
    );
    expect(merged.stderr).toMatch(new RegExp(`^hint: to undo: git review-remote merge --abort ${id}$`, "m"));
    expect(merged.stderr).toMatch(
      new RegExp(
        `^hint: the commits stay reachable until git gc; to restore it: git branch review/${id} [0-9a-f]{40}$`,
        "m",
      ),
    );
    expect(read(repo, "src/app.ts")).toBe(lines({ 1: "l1 later", 2: "l2 local", 9: "l9 proposed" }));
    const after = repoState(repo);
    expect(after.head).toBe(before.head);
    expect(after.index).toBe(before.index);
    expect(repo.git("rev-parse", "--verify", `refs/review-remote/${id}/pre-merge`)).toMatch(
      /^[0-9a-f]{40}\n$/,
    );
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "merged"');
    const undo = repo.git("rev-parse", `refs/review-remote/${id}/pre-merge`);
    const again = repo.run(["merge", id]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`Review ${id} is already applied to the work tree.\n`);
    expect(repo.git("rev-parse", `refs/review-remote/${id}/pre-merge`)).toBe(undo);
  });

  it("exits 5 on a conflict, lists it, and writes no file at all (not even the ones that merge cleanly)", () => {
    const repo = repoWithLocalEdit();
    repo.write("src/other.ts", lines());
    const id = reviewWorktree(
      repo,
      changeLine9("src/app.ts", "l9 proposed") + changeLine9("src/other.ts", "l9 proposed"),
    );
    repo.write("src/app.ts", lines({ 2: "l2 local", 9: "l9 mine" }));
    const paths = ["src/app.ts", "src/other.ts", "src/old.ts"];
    const files = worktree(repo, paths);
    const before = repoState(repo);
    const conflict = repo.run(["merge", id]);
    expect(conflict.status).toBe(5);
    expect(conflict.stderr).toContain(`review ${id} conflict with your work tree; nothing was changed`);
    expect(conflict.stderr).toContain("conflict: src/app.ts");
    expect(conflict.stderr).not.toContain("src/other.ts");
    expect(conflict.stderr).toContain("hint: inspect them with: git diff ");
    expect(worktree(repo, paths)).toEqual(files);
    expect(repoState(repo)).toEqual(before);
    expect(repo.run(["list", "--json"]).stdout).not.toContain('"state": "merged"');
  });

  it("names a conflicting path as git quotes it, merging a commit or the work tree alike", () => {
    // Non-ASCII: git's default core.quotePath escapes it; so does every merge message.
    const odd = "src/\u00e9.ts";
    const quoted = 'conflict: "src/\\303\\251.ts"';
    const repo = newRepo();
    repo.write(odd, lines());
    repo.commit("base");
    const file = join(repo.home, "proposal.diff");
    writeFileSync(file, changeLine9(odd, "l9 proposed"));
    configureWorker(repo, "fixture", shellWords("node", RESULT_WORKER, "--diff", file));
    const reviewed = repo.run(["--all", "--worker", "fixture", "--json"]);
    expect(reviewed.status, reviewed.stderr).toBe(0);
    repo.write(odd, lines({ 9: "l9 mine" }));
    repo.commit("mine");
    const commit = runUnchanged(repo, ["merge", JSON.parse(reviewed.stdout).id], 5);
    expect(commit.stderr).toContain(`\n  ${quoted}\n`);

    repo.git("reset", "-q", "--hard", "HEAD~1");
    repo.write(odd, lines({ 2: "l2 local" }));
    const id = reviewWorktree(repo, changeLine9(odd, "l9 proposed"));
    repo.write(odd, lines({ 2: "l2 local", 9: "l9 mine too" }));
    const worktree = runUnchanged(repo, ["merge", id], 5);
    expect(worktree.stderr).toContain(`\n  ${quoted} (changed both in the work tree and by the proposals)\n`);
  });

  it("from another linked work tree: merges there when it applies, else names the one it was made in", () => {
    const repo = repoWithLocalEdit();
    const other = join(repo.home, "other tree");
    repo.git("worktree", "add", "-q", "-b", "other", other);
    // The proposal rewrites the line the uncommitted edit made, which the other work tree lacks.
    const fixL2 = [
      "diff --git a/src/app.ts b/src/app.ts",
      "--- a/src/app.ts",
      "+++ b/src/app.ts",
      "@@ -1,5 +1,5 @@",
      " l1",
      "-l2 local",
      "+l2 fixed",
      " l3",
      " l4",
      " l5",
      "",
    ].join("\n");
    const id = reviewWorktree(repo, fixL2);
    const before = repoState(repo);
    const refused = repo.run(["merge", id], { cwd: other });
    expect(refused.status).toBe(5);
    expect(refused.stderr).toBe(
      `git-review-remote: review ${id} is of the uncommitted changes in ${repo.dir}, which this work tree (${other}) does not hold, and its proposals conflict here; nothing was changed\n` +
        "  conflict: src/app.ts (changed both in the work tree and by the proposals)\n" +
        `hint: merge it where it was made: git -C ${repo.dir} review-remote merge ${id}\n` +
        `hint: inspect them with: git diff ${JSON.parse(repo.run(["list", "--json"]).stdout)[0].snapshot.commit} review/${id}\n`,
    );
    expect(readFileSync(join(other, "src/app.ts"), "utf8")).toBe(lines());
    expect(repoState(repo)).toEqual(before);
    // The hint, as printed, from the other work tree.
    const there = spawnSync("sh", ["-c", `git -C ${repo.dir} review-remote merge ${id}`], {
      cwd: other,
      env: repo.env,
      encoding: "utf8",
    });
    expect(there.status, there.stderr).toBe(0);
    expect(read(repo, "src/app.ts")).toBe(lines({ 2: "l2 fixed" }));
    expect(readFileSync(join(other, "src/app.ts"), "utf8")).toBe(lines());

    // One that applies cleanly to the other work tree's files is merged there: the proposals alone.
    repo.write("src/app.ts", lines({ 2: "l2 local" }));
    const clean = reviewWorktree(repo, changeLine9("src/app.ts", "l9 proposed"));
    const merged = repo.run(["merge", clean], { cwd: other });
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(other, "src/app.ts"), "utf8")).toBe(lines({ 9: "l9 proposed" }));
    expect(read(repo, "src/app.ts")).toBe(lines({ 2: "l2 local" }));
  });

  it("is not broken by the user's diff.noprefix, textconv or external diff", () => {
    const repo = repoWithLocalEdit();
    repo.git("config", "diff.noprefix", "true");
    repo.git("config", "diff.mnemonicPrefix", "true");
    repo.git("config", "diff.upper.textconv", "tr a-z A-Z");
    repo.git("config", "diff.external", "false");
    writeFileSync(join(repo.dir, ".git", "info", "attributes"), "* diff=upper\n");
    const id = reviewWorktree(repo, changeLine9("src/app.ts", "l9 proposed"));
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(read(repo, "src/app.ts")).toBe(lines({ 2: "l2 local", 9: "l9 proposed" }));
  });

  it("writes each file as a checkout would (eol=crlf, a smudge filter), and takes it back exactly", () => {
    const repo = newRepo();
    repo.write(".gitattributes", "*.bat text eol=crlf\n*.up filter=upper\n");
    repo.git("config", "filter.upper.smudge", "tr a-z A-Z");
    repo.git("config", "filter.upper.clean", "tr A-Z a-z");
    repo.write("run.bat", lines().replace(/\n/g, "\r\n"));
    repo.write("shout.up", lines().toUpperCase());
    repo.commit("base");
    repo.write("run.bat", lines({ 2: "l2 local" }).replace(/\n/g, "\r\n"));
    const id = reviewWorktree(
      repo,
      changeLine9("run.bat", "l9 proposed") + changeLine9("shout.up", "l9 proposed"),
    );
    const before = worktree(repo, ["run.bat", "shout.up"]);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(read(repo, "run.bat")).toBe(lines({ 2: "l2 local", 9: "l9 proposed" }).replace(/\n/g, "\r\n"));
    expect(read(repo, "shout.up")).toBe(lines({ 9: "l9 proposed" }).toUpperCase());
    expect(repo.run(["merge", "--abort", id]).status).toBe(0);
    expect(worktree(repo, ["run.bat", "shout.up"])).toEqual(before);
  });

  it("creates a new file (0644, in a new directory) and removes a deleted one", () => {
    const repo = repoWithLocalEdit();
    const id = reviewWorktree(
      repo,
      addFile("src/lib/new.ts", "export const n = 1;") + deleteFile("src/old.ts", "export const old = 1;"),
    );
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(read(repo, "src/lib/new.ts")).toBe("export const n = 1;\n");
    expect(statSync(join(repo.dir, "src/lib/new.ts")).mode & 0o111).toBe(0);
    expect(existsSync(join(repo.dir, "src/old.ts"))).toBe(false);
    expect(read(repo, "src/app.ts")).toBe(lines({ 2: "l2 local" }));
    expect(repo.git("status", "--porcelain=v1", "--untracked-files=all")).toBe(
      " M src/app.ts\n D src/old.ts\n?? src/lib/new.ts\n",
    );
  });

  it("refuses, changing nothing, a new file that already exists or a deleted file edited since", () => {
    const repo = repoWithLocalEdit();
    const id = reviewWorktree(
      repo,
      addFile("src/new.ts", "export const n = 1;") + deleteFile("src/old.ts", "export const old = 1;"),
    );
    repo.write("src/new.ts", "mine\n");
    repo.write("src/old.ts", "export const old = 2;\n");
    const conflict = runUnchanged(repo, ["merge", id], 5);
    expect(conflict.stderr).toContain("conflict: src/new.ts");
    expect(conflict.stderr).toContain("conflict: src/old.ts");
  });

  it("prints an undo command that, run from a subdirectory, restores every file it changed", () => {
    const repo = repoWithLocalEdit();
    repo.write("notes.txt", lines());
    mkdirSync(join(repo.dir, "sub"));
    const id = reviewWorktree(
      repo,
      changeLine9("src/app.ts", "l9 proposed") +
        changeLine9("notes.txt", "l9 proposed") +
        addFile("src/new.ts", "export const n = 1;") +
        deleteFile("src/old.ts", "export const old = 1;"),
    );
    // Since the review: an edit the merge keeps (3-way), in a file git does not track.
    repo.write("notes.txt", lines({ 1: "l1 later" }));
    const paths = ["src/app.ts", "notes.txt", "src/new.ts", "src/old.ts"];
    const before = worktree(repo, paths);
    const index = repoState(repo).index;
    const merged = repo.run(["merge", id], { cwd: join(repo.dir, "sub") });
    expect(merged.status, merged.stderr).toBe(0);
    expect(read(repo, "notes.txt")).toBe(lines({ 1: "l1 later", 9: "l9 proposed" }));
    expect(worktree(repo, paths)).not.toEqual(before);
    const undo = /^hint: to undo: (.*)$/m.exec(merged.stderr)?.[1] as string;
    expect(undo).toBe(`git review-remote merge --abort ${id}`);
    const undone = spawnSync("sh", ["-c", undo], {
      cwd: join(repo.dir, "sub"),
      env: repo.env,
      encoding: "utf8",
    });
    expect(undone.status, undone.stderr).toBe(0);
    expect(undone.stdout).toBe(
      `Rolled back review ${id}: every file it changed holds what it held before.\n`,
    );
    expect(worktree(repo, paths)).toEqual(before);
    expect(repoState(repo).index).toBe(index);
    expect(repo.git("for-each-ref", `refs/review-remote/${id}/pre-merge`)).toBe("");
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "imported"');
    expect(repo.git("for-each-ref", "--format=%(refname)", `refs/heads/review/${id}`)).toBe(
      `refs/heads/review/${id}\n`,
    );
    // Once undone, there is nothing left to undo; merging again works as the first time.
    expect(repo.run(["merge", "--abort", id]).stderr).toContain(
      `review ${id} has no work-tree merge to undo`,
    );
    expect(repo.run(["merge", id]).status).toBe(0);
    expect(read(repo, "notes.txt")).toBe(lines({ 1: "l1 later", 9: "l9 proposed" }));
  });
});
