// A focused review's proposals kept to its change, as users meet it: a reviewer run over the whole
// tree (as `eslint --fix .` is) rewrites files the change never touched, and the review branch holds
// only the fixes to the files the change did. Workers are the built-in one with a reviewer script in
// its --tools directory, or a fixture printing a result, configured as users configure them.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { okResult, useResultWorker, useReviewerWorker } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
// The reviewer scripts, where the worker's sandbox (another user, maybe) can read them.
const tools = mkdtempSync(join(tmpdir(), "rr-scope-tools-"));
chmodSync(tools, 0o755);
afterAll(() => rmSync(tools, { recursive: true, force: true }));
let scripts = 0;

/** Rewrites every .js file of the tree, as a whole-tree linter's --fix does. */
const FIX_ALL = `#!/bin/sh
set -e
find . -name '*.js' -not -path './.git/*' | while read -r f; do sed -i 's/var /let /g' "$f"; done
`;

/** Three commits of its own: both files, both again, then the untouched one alone. */
const THREE_COMMITS = `#!/bin/sh
set -e
sed -i 's/var /let /g' src/a.js lib/c.js
git commit -q -am "let, not var"
sed -i 's/let x/const x/' src/a.js lib/c.js
git commit -q -am "const where nothing reassigns"
printf '// reviewed\\n' >> lib/c.js
git commit -q -am "mark the library reviewed"
`;

/** Renames one file of the change and one the change did not touch. */
const RENAMES = `#!/bin/sh
set -e
git mv src/a.js src/renamed.js
git mv lib/c.js lib/moved.js
git commit -q -m "better names"
`;

/** src/a.js, src/b.js and lib/c.js, each with a `var`; the last commit changes src/a.js only. */
function changedRepo(reviewer: string): TestRepo {
  const repo = repos.add(createTestRepo());
  const script = `reviewer-${++scripts}.sh`;
  writeFileSync(join(tools, script), reviewer, { mode: 0o755 });
  useReviewerWorker(repo, "lint", join(tools, script));
  repo.write("src/a.js", "var x = 1;\n");
  repo.write("src/b.js", "var y = 2;\n");
  repo.write("lib/c.js", "var x = 3;\n");
  repo.commit("base");
  repo.write("src/a.js", "var x = 1;\nvar z = x + 1;\n");
  repo.commit("the change");
  return repo;
}

interface Reviewed {
  stdout: string;
  review: {
    id: string;
    branch: string | null;
    commits: number;
    status: string;
    leftOutFixes: number;
    leftOutFiles: number;
    cached: boolean;
  };
}

function reviewed(repo: TestRepo, ...args: string[]): Reviewed {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  const json = JSON.parse(result.stdout);
  return { stdout: result.stdout, review: json.reviews[0] };
}

/** The paths the review branch changes against the reviewed commit, and how many commits it has. */
function proposedFiles(repo: TestRepo, branch: string | null): string[] {
  expect(branch).not.toBeNull();
  return repo
    .git("diff", "--name-status", "-M", `HEAD...${branch}`)
    .trim()
    .split("\n")
    .filter((line) => line !== "");
}

function commitsOn(repo: TestRepo, branch: string): string[] {
  return repo.git("log", "--format=%s", `HEAD..${branch}`).trim().split("\n").reverse();
}

describe("a whole-tree reviewer on a focused review", () => {
  it("imports only the fixes to the files the change touched, and says what it left out", () => {
    const repo = changedRepo(FIX_ALL);
    const text = repo.run([]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      "  2 fixes in 2 files outside the change left out (--filter-mode=nofilter keeps them)",
    );
    const id = /^Review ([0-9a-f]{12}) by lint/m.exec(text.stdout)?.[1] as string;
    const branch = `review/${id}`;
    expect(proposedFiles(repo, branch)).toEqual(["M\tsrc/a.js"]);
    expect(repo.git("show", `${branch}:src/a.js`)).toBe("let x = 1;\nlet z = x + 1;\n");
    expect(repo.git("log", "-1", "--format=%B", branch)).toContain(
      "Kept to the reviewed change: 1 of the 3 files this commit changed (--filter-mode=nofilter keeps them all).",
    );

    const shown = repo.run(["show", id]);
    expect(shown.stdout).toContain(
      "scope    2 fixes in 2 files outside the change left out (--filter-mode=nofilter keeps them)",
    );
    // The stored result is the worker's, whole; the branch is what was kept of it.
    const json = JSON.parse(repo.run(["show", id, "--format=json"]).stdout);
    expect(json.filter.leftOutFixes).toBe(2);
    expect(json.filter.leftOutFiles).toBe(2);
    expect(json.result.commits[0].patch).toContain("diff --git a/lib/c.js b/lib/c.js");
    expect(json.review.outsideChange).toEqual({ fixes: 2, files: 2, kept: false });
  });

  it("counts the kept fixes in --json, and the hook line says what it left out", () => {
    const repo = changedRepo(FIX_ALL);
    const { review } = reviewed(repo);
    expect(review).toMatchObject({ commits: 1, leftOutFixes: 2, leftOutFiles: 2 });
    // The cached answer says it again, as the pre-push hook shows it.
    const remote = join(repo.home, "remote.git");
    execFileSync("git", ["init", "-q", "--bare", remote], { env: repo.env });
    repo.git("remote", "add", "origin", remote);
    repo.git("push", "-q", "origin", "HEAD^:refs/heads/main");
    expect(repo.run(["install-hook"]).status).toBe(0);
    const pushed = spawnSync("git", ["push", "origin", "HEAD:main"], {
      cwd: repo.dir,
      env: repo.env,
      encoding: "utf8",
    });
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(
      new RegExp(
        `review-remote: refs/heads/main \\([0-9a-f]{7}\\.\\.[0-9a-f]{7}\\): review ${review.id} \\(cached\\): proposals on review/${review.id} \\(2 fixes outside the change left out\\)`,
      ),
    );
  });

  it("keeps every fix under --filter-mode=nofilter or review-remote.filterMode, asking again", () => {
    const repo = changedRepo(FIX_ALL);
    const scoped = reviewed(repo).review;
    // The cached answer left fixes out: a run that keeps them all asks the worker again.
    const all = reviewed(repo, "--filter-mode=nofilter");
    expect(all.review.id).not.toBe(scoped.id);
    expect(all.review).toMatchObject({ leftOutFixes: 0, leftOutFiles: 0 });
    expect(all.stdout).not.toContain("outside the change left out");
    expect(proposedFiles(repo, all.review.branch)).toEqual(["M\tlib/c.js", "M\tsrc/a.js", "M\tsrc/b.js"]);
    repo.git("config", "review-remote.filterMode", "nofilter");
    const config = reviewed(repo);
    expect(config.stdout).toContain('"cached": true');
    expect(config.review.id).toBe(all.review.id);
    const shown = repo.run(["show", all.review.id]);
    expect(shown.stdout).not.toContain("scope ");
    // And back: the answer that kept them all is not served to a run that leaves them out.
    repo.git("config", "--unset", "review-remote.filterMode");
    const again = reviewed(repo).review;
    expect(again.id).not.toBe(all.review.id);
    expect(again).toMatchObject({ leftOutFixes: 2, cached: false });
    expect(proposedFiles(repo, again.branch)).toEqual(["M\tsrc/a.js"]);
  });

  it("keeps every fix of a whole-tree review (--all)", () => {
    const repo = changedRepo(FIX_ALL);
    const { review } = reviewed(repo, "--all");
    expect(review.leftOutFixes).toBe(0);
    expect(proposedFiles(repo, review.branch)).toEqual(["M\tlib/c.js", "M\tsrc/a.js", "M\tsrc/b.js"]);
  });

  it("drops every commit's diff of an untouched file, so the chain still applies, and an emptied commit", () => {
    const repo = changedRepo(THREE_COMMITS);
    const { review } = reviewed(repo);
    expect(review).toMatchObject({ commits: 2, leftOutFixes: 3, leftOutFiles: 1 });
    const branch = review.branch as string;
    // The reviewer's own words, each subject marked with what is left of its commit.
    expect(commitsOn(repo, branch)).toEqual([
      "let, not var (kept to the change: 1 of 2 files)",
      "const where nothing reassigns (kept to the change: 1 of 2 files)",
    ]);
    expect(proposedFiles(repo, branch)).toEqual(["M\tsrc/a.js"]);
    expect(repo.git("show", `${branch}:src/a.js`)).toBe("const x = 1;\nlet z = x + 1;\n");
    expect(repo.git("show", `${branch}:lib/c.js`)).toBe("var x = 3;\n");
  });

  it("keeps a rename out of the change, leaves out the rename of an untouched file", () => {
    const repo = changedRepo(RENAMES);
    const { review } = reviewed(repo);
    expect(review).toMatchObject({ commits: 1, leftOutFixes: 1, leftOutFiles: 2 });
    expect(proposedFiles(repo, review.branch)).toEqual(["R100\tsrc/a.js\tsrc/renamed.js"]);
  });

  it("keeps a rename into the change: a file moved onto a path the change removed", () => {
    const repo = changedRepo("#!/bin/sh\nset -e\ngit mv lib/c.js src/gone.js\ngit commit -q -m move\n");
    repo.write("src/gone.js", "var gone = 1;\n");
    repo.commit("add gone");
    repo.git("rm", "-q", "src/gone.js");
    repo.commit("remove gone");
    const { review } = reviewed(repo);
    expect(review.leftOutFixes).toBe(0);
    expect(proposedFiles(repo, review.branch)).toEqual(["R100\tlib/c.js\tsrc/gone.js"]);
  });

  it("keeps a file the reviewer created beside a fix to the change", () => {
    const repo = changedRepo(`${FIX_ALL}printf 'test\\n' > src/a.test.js\n`);
    const { review } = reviewed(repo);
    expect(review.leftOutFixes).toBe(2);
    expect(proposedFiles(repo, review.branch)).toEqual(["M\tsrc/a.js", "A\tsrc/a.test.js"]);
  });
});

describe("a whole-tree reviewer over the patch limit", () => {
  it("has the worker propose the fixes to the change, saying how many files it left out", () => {
    const repo = changedRepo(FIX_ALL);
    for (let i = 0; i < 40; i++) repo.write(`lib/m${i}.js`, `var m${i} = ${i};\n`);
    repo.commit("forty more files");
    repo.write("src/a.js", "var x = 10;\nvar z = x + 1;\n");
    repo.commit("the change");
    // The fixes to all 43 files are some 7 KiB of patch; the one to src/a.js fits.
    repo.git("config", "review-remote.maxPatchBytes", "2000");
    const result = repo.run(["--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(proposedFiles(repo, json.branch)).toEqual(["M\tsrc/a.js"]);
    expect(json.comments).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        rule: "limits.maxPatchBytes",
        message:
          "The fixes to 42 files outside the change were left out: the proposed patches are over the limit of 2000 bytes. The fixes to the change's files are proposed; for the others, raise the limit and review with --filter-mode=nofilter (without it, fixes outside the change are left out anyway).",
      }),
    );
    expect(result.stderr).not.toContain("warning: dropped");
    // The note is about the review, not the code: no finding for --fail-level.
    expect(repo.run(["--fail-level", "warning"]).status).toBe(0);
  });

  it("keeps a rename of a file of the change whole, and leaves out one of an untouched file", () => {
    const repo = changedRepo(`${FIX_ALL}git mv src/a.js src/renamed.js\ngit mv lib/c.js lib/moved.js\n`);
    // Lines the fixer leaves alone, so that git pairs each rename (else: a deletion and a new file).
    const notes = Array.from({ length: 8 }, (_, i) => `// note ${i} about the module\n`).join("");
    for (let i = 0; i < 40; i++) repo.write(`lib/m${i}.js`, `var m${i} = ${i};\n`);
    repo.write("lib/c.js", `var x = 3;\n${notes}`);
    repo.commit("forty more files");
    repo.write("src/a.js", `var x = 10;\n${notes}`);
    repo.commit("the change");
    repo.git("config", "review-remote.maxPatchBytes", "2000");
    const { review } = reviewed(repo);
    const [renamed, ...rest] = proposedFiles(repo, review.branch);
    expect(rest).toEqual([]);
    expect(renamed).toMatch(/^R\d+\tsrc\/a\.js\tsrc\/renamed\.js$/);
    expect(repo.git("show", `${review.branch}:src/renamed.js`)).toBe(`let x = 10;\n${notes}`);
  });
});

/** A repo whose change touches src/a.js, answered by a fixture result built from `edits` of lib/c.js. */
function resultRepo(patch: (repo: TestRepo) => string): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("src/a.js", "var x = 1;\n");
  repo.write("lib/c.js", "var x = 3;\n");
  repo.commit("base");
  repo.write("src/a.js", "var x = 2;\n");
  repo.commit("the change");
  const comment = { path: "src/a.js", line: 1, severity: "warning", message: "Prefer let." };
  useResultWorker(
    repo,
    okResult("One fix outside the change.", [comment], [{ message: "Fix c", patch: patch(repo) }]),
  );
  return repo;
}

/** The patch of an edit to the work tree, made by git, with the work tree put back after. */
function diffOf(repo: TestRepo, path: string, content: string): string {
  repo.write(path, content);
  const patch = repo.git("diff", "--full-index", "--", path);
  repo.git("checkout", "--", path);
  return patch;
}

describe("a proposal entirely outside the change", () => {
  it("leaves a review of comments only: no branch, nothing imported", () => {
    const repo = resultRepo((r) => diffOf(r, "lib/c.js", "let x = 3;\n"));
    const before = repoState(repo);
    const result = repo.run([]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("src/a.js:1 warning Prefer let.");
    expect(result.stdout).toContain("1 fix in 1 file outside the change left out");
    expect(result.stdout).toContain("Nothing to propose in the change.");
    // The comments are kept as a note on the reviewed commit, as for any review with comments; the
    // proposal's objects never reach the store.
    const after = repoState(repo);
    expect({ ...after, refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    expect(after.refs?.replace(/^refs\/notes\/.*\n/m, "")).toBe(before.refs);
    writeFileSync(join(repo.home, "fixed.js"), "let x = 3;\n");
    const fixed = repo.git("hash-object", join(repo.home, "fixed.js")).trim();
    expect(() => repo.git("cat-file", "-e", fixed)).toThrow();
    const json = JSON.parse(repo.run(["--json"]).stdout);
    expect(json).toMatchObject({ status: "empty", branch: null, commits: 0 });
    expect(json.reviews[0]).toMatchObject({ cached: true, leftOutFixes: 1, leftOutFiles: 1 });
  });

  it("says so with several workers too, where each left no branch", () => {
    const repo = resultRepo((r) => diffOf(r, "lib/c.js", "let x = 3;\n"));
    const before = repoState(repo);
    const result = repo.run(["--worker", "fake", "--worker", "local"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("1 fix in 1 file outside the change left out");
    // Not "Nothing to propose.": the line above counts a fix, kept out as outside the change.
    expect(result.stdout).toContain("Nothing to propose in the change.");
    expect(result.stdout).not.toContain("Nothing to propose.");
    expect(repoState(repo).refs?.replace(/^refs\/notes\/.*\n/m, "")).toBe(before.refs);
  });

  it("refuses a proposal whose part outside the change the patch gate refuses, changing nothing", () => {
    const repo = resultRepo((r) => {
      const inside = diffOf(r, "src/a.js", "let x = 2;\n");
      const outside = diffOf(r, "lib/c.js", "let x = 3;\n");
      // A line after the hunk that no hunk header counts: the whole patch is refused, not scoped.
      return `${inside}${outside.replace("+let x = 3;\n", "+let x = 3;\n+extra\n")}`;
    });
    const result = runUnchanged(repo, [], 4);
    expect(result.stderr).toContain("rejected the proposals of worker 'fake'; nothing was imported");
    expect(result.stderr).toContain("unexpected line after a hunk");
  });
});
