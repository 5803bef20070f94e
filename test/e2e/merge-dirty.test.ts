import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { mergeStoppedByCtrlC } from "../helpers/processes.js";
import { BIN, createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

function lines(replaced: Record<number, string> = {}): string {
  return Array.from({ length: 10 }, (_, i) => `${replaced[i + 1] ?? `l${i + 1}`}\n`).join("");
}

function changeLine9(path: string, to: string): string {
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -6,5 +6,5 @@\n l6\n l7\n l8\n-l9\n+${to}\n l10\n`;
}

/** a.txt, b.txt and c.txt committed; review `id` proposes a change to a.txt's line 9 only. */
function reviewedRepo(): { repo: TestRepo; id: string; branch: string } {
  const repo = repos.add(createTestRepo());
  for (const name of ["a", "b", "c"]) repo.write(`${name}.txt`, lines());
  repo.commit("base");
  const file = join(repo.home, "a.diff");
  writeFileSync(file, changeLine9("a.txt", "l9 proposed"));
  configureWorker(repo, "box", shellWords("node", RESULT_WORKER, "--diff", file));
  const run = repo.run(["--all", "--worker", "box", "--no-cache", "--json"]);
  expect(run.status, run.stderr).toBe(0);
  const { id, branch } = JSON.parse(run.stdout);
  return { repo, id, branch };
}

/** Uncommitted edits to b.txt and a deleted c.txt: files the proposals do not touch. */
function editUntouched(repo: TestRepo): () => Record<string, string> {
  repo.write("b.txt", lines({ 2: "l2 uncommitted" }));
  rmSync(join(repo.dir, "c.txt"));
  return () => ({
    b: readFileSync(join(repo.dir, "b.txt"), "utf8"),
    entries: repo.git("ls-files", "-s", "--", "b.txt", "c.txt"),
    status: repo.git("status", "--porcelain=v1", "--untracked-files=no"),
  });
}

describe("a commit-snapshot merge beside uncommitted changes", () => {
  it("leaves the changes to files the proposals do not touch as they are, and its undo too", () => {
    const { repo, id } = reviewedRepo();
    const untouched = editUntouched(repo);
    const before = untouched();
    expect(before.status).toBe(" M b.txt\n D c.txt\n");
    const head = repo.git("rev-parse", "HEAD").trim();
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`hint: to undo: git reset --keep ${head}`);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines({ 9: "l9 proposed" }));
    expect(repo.git("rev-parse", "HEAD").trim()).not.toBe(head);
    expect(untouched()).toEqual(before);
    // The undo it prints keeps them too.
    repo.git("reset", "--keep", head);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(untouched()).toEqual(before);
  });

  it("makes a merge commit beside them when HEAD moved on", () => {
    const { repo, id } = reviewedRepo();
    repo.write("d.txt", "meanwhile\n");
    repo.commit("meanwhile");
    const untouched = editUntouched(repo);
    const before = untouched();
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(repo.git("rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines({ 9: "l9 proposed" }));
    expect(untouched()).toEqual(before);
  });

  it("refuses uncommitted changes to a file the proposals touch, naming those alone", () => {
    const { repo, id } = reviewedRepo();
    editUntouched(repo);
    repo.write("a.txt", lines({ 2: "l2 uncommitted" }));
    const before = readFileSync(join(repo.dir, "a.txt"), "utf8");
    const refused = runUnchanged(repo, ["merge", id], 1);
    expect(refused.stderr).toBe(
      "git-review-remote: your work tree has uncommitted changes to files the merge writes; it would mix them in\n" +
        "   M a.txt\n" +
        "hint: commit or stash them first (git stash), then run the merge again\n",
    );
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(before);
    // A deleted file is a change to it too.
    rmSync(join(repo.dir, "a.txt"));
    expect(runUnchanged(repo, ["merge", id], 1).stderr).toContain("   D a.txt\n");
    repo.git("checkout", "--", "a.txt");
    expect(repo.run(["merge", id]).status).toBe(0);
  });

  it("refuses staged changes anywhere: the merge commit would take them in", () => {
    const { repo, id } = reviewedRepo();
    repo.write("b.txt", lines({ 2: "l2 staged" }));
    repo.git("add", "b.txt");
    repo.write("b.txt", lines({ 2: "l2 staged, then edited" }));
    const refused = runUnchanged(repo, ["merge", id], 1);
    expect(refused.stderr).toBe(
      "git-review-remote: your index has staged changes; the merge commit would take them in, and its undo unstage them\n" +
        "  MM b.txt\n" +
        "hint: commit or stash them first (git stash), then run the merge again\n",
    );
    expect(repo.git("diff", "--cached", "--name-only")).toBe("b.txt\n");
    expect(readFileSync(join(repo.dir, "b.txt"), "utf8")).toBe(lines({ 2: "l2 staged, then edited" }));
  });

  it("names an intent-to-add rename in the work tree as git status --short does", () => {
    const { repo, id } = reviewedRepo();
    renameSync(join(repo.dir, "b.txt"), join(repo.dir, "b-renamed.txt"));
    repo.git("add", "-N", "b-renamed.txt");
    expect(repo.git("status", "--short", "--untracked-files=no")).toBe(" R b.txt -> b-renamed.txt\n");
    const refused = runUnchanged(repo, ["merge", id], 1);
    expect(refused.stderr).toBe(
      "git-review-remote: your index has staged changes; the merge commit would take them in, and its undo unstage them\n" +
        "   R b.txt -> b-renamed.txt\n" +
        "hint: commit or stash them first (git stash), then run the merge again\n",
    );
  });

  it("rolls a merge git fails half way back to exactly the uncommitted changes it had", () => {
    const { repo, id } = reviewedRepo();
    const untouched = editUntouched(repo);
    const before = untouched();
    writeFileSync(join(repo.dir, ".git", "refs", "heads", "main.lock"), "");
    const failed = runUnchanged(repo, ["merge", id], 1);
    expect(failed.stderr).toMatch(
      /^git-review-remote: git merge failed: .*main\.lock.*; nothing was changed$/m,
    );
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(untouched()).toEqual(before);
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "imported"');
  });

  it("leaves them out of git's autostash when a hook fails the merge commit", () => {
    const { repo, id } = reviewedRepo();
    repo.write("d.txt", "meanwhile\n");
    repo.commit("not a fast-forward");
    // merge.autostash would move them into MERGE_AUTOSTASH, then the failed merge keep them there.
    repo.git("config", "merge.autostash", "true");
    const untouched = editUntouched(repo);
    const before = untouched();
    const hooks = join(repo.dir, repo.git("rev-parse", "--git-path", "hooks").trim());
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, "pre-merge-commit"), "#!/bin/sh\necho no >&2\nexit 1\n", { mode: 0o755 });
    const { head, refs, index, status } = repoState(repo);
    const failed = repo.run(["merge", id]);
    expect(failed.status, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/^git-review-remote: git merge failed: .*; nothing was changed$/m);
    // git merge's objects aside, as after git merge --abort.
    expect(repoState(repo)).toMatchObject({ head, refs, index, status });
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(untouched()).toEqual(before);
    const gitDir = join(repo.dir, ".git");
    expect(existsSync(join(gitDir, "MERGE_AUTOSTASH"))).toBe(false);
    // Nor a merge in progress, which the next git commit would conclude with them in it.
    expect(existsSync(join(gitDir, "MERGE_HEAD"))).toBe(false);
    expect(existsSync(join(gitDir, "MERGE_MSG"))).toBe(false);
    // The undo runs: git refuses a keep reset in the middle of a merge.
    repo.git("reset", "--keep", "HEAD");
  });

  it("refuses to write over an ignored file of the user's that the proposals add", () => {
    const repo = repos.add(createTestRepo());
    repo.write(".gitignore", "notes.local\n");
    repo.write("a.txt", lines());
    repo.commit("base");
    const file = join(repo.home, "add.diff");
    writeFileSync(
      file,
      "diff --git a/notes.local b/notes.local\nnew file mode 100644\n--- /dev/null\n+++ b/notes.local\n@@ -0,0 +1 @@\n+proposed\n",
    );
    configureWorker(repo, "box", shellWords("node", RESULT_WORKER, "--diff", file));
    const run = repo.run(["--all", "--worker", "box", "--no-cache", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const { id } = JSON.parse(run.stdout);
    expect(repo.git("ls-tree", "-r", "--name-only", `review/${id}`)).toContain("notes.local");
    // The user's own, ignored: no status line names it.
    writeFileSync(join(repo.dir, "notes.local"), "mine\n");
    const failed = runUnchanged(repo, ["merge", id], 1);
    expect(failed.stderr).toMatch(/^git-review-remote: git merge failed: .*; nothing was changed$/m);
    expect(readFileSync(join(repo.dir, "notes.local"), "utf8")).toBe("mine\n");
  });

  it("says interrupted, nothing changed, when Ctrl-C stops git merge beside them", async () => {
    const { repo, id } = reviewedRepo();
    repo.write("d.txt", "meanwhile\n");
    repo.commit("not a fast-forward");
    const untouched = editUntouched(repo);
    const before = untouched();
    const { head, refs, index, status } = repoState(repo);
    const { code, stderr } = await mergeStoppedByCtrlC(repo, BIN, id);
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/^git-review-remote: interrupted; nothing was changed$/m);
    // git merge's objects aside: what it wrote before the stop is unreachable, as after git merge --abort.
    expect(repoState(repo)).toMatchObject({ head, refs, index, status });
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(untouched()).toEqual(before);
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "imported"');
  });
});

describe("a git merge stopped after it wrote files of the work tree but before the index", () => {
  it("puts those files back to HEAD's, beside the user's changes, and says nothing was changed", () => {
    const repo = repos.add(createTestRepo());
    for (const name of ["a", "b", "c"]) repo.write(`${name}.txt`, lines());
    repo.commit("base");
    const file = join(repo.home, "ac.diff");
    writeFileSync(file, changeLine9("a.txt", "l9 proposed") + changeLine9("c.txt", "l9 proposed"));
    configureWorker(repo, "box", shellWords("node", RESULT_WORKER, "--diff", file));
    const run = repo.run(["--all", "--worker", "box", "--no-cache", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const { id } = JSON.parse(run.stdout);
    repo.write("b.txt", lines({ 2: "l2 uncommitted" }));
    // c.txt's smudge filter stops git merge (SIGINT, once) after it wrote a.txt, before the index.
    const stopped = join(repo.home, "stopped");
    const filter = join(repo.home, "stop-merge.sh");
    writeFileSync(
      filter,
      `#!/bin/sh\nif [ ! -e '${stopped}' ]; then : > '${stopped}'; kill -INT $PPID; sleep 1; fi\nexec cat\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(repo.dir, ".git", "info", "attributes"), "c.txt filter=stop\n");
    repo.git("config", "filter.stop.smudge", filter);
    const before = repoState(repo);
    const merged = repo.run(["merge", id]);
    expect(existsSync(stopped)).toBe(true);
    expect(merged.status, merged.stderr).toBe(1);
    expect(merged.stderr).toContain(
      "git-review-remote: git merge failed: it stopped with no message (exit code 128); nothing was changed\n",
    );
    expect(merged.stderr).not.toContain("hint: to restore them");
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(readFileSync(join(repo.dir, "b.txt"), "utf8")).toBe(lines({ 2: "l2 uncommitted" }));
    expect(repoState(repo)).toEqual(before);
  });
});
