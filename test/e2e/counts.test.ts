// One review, one set of counts: the worker's stderr, the review's lines, `show` and the summary say
// the same numbers with the same words, and the client states the counts it validated once.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  configureWorker,
  createBaseRepo,
  FIXTURES,
  RESULT_WORKER,
  shellWords,
  useReviewerWorker,
} from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
const MANY = join(FIXTURES, "reviewers", "many-comments.sh");
const TREE_LINTER = join(FIXTURES, "reviewers", "tree-linter.sh");
const LEFT_OUT =
  "3 comments over the limit of 3 left out; those on the change are kept first, then the most severe.";
/** The line older built-in workers began their summary with. */
const WORKER_COUNTS = /\d+ proposed commits?, \d+ comments?\./;

/** A repo whose last commit changes one line of src/app.ts, its worker set up by `configure`. */
function changeUnderLimit(configure: (repo: TestRepo) => void): TestRepo {
  const repo = repos.add(createTestRepo());
  configure(repo);
  repo.git("config", "review-remote.maxComments", "3");
  repo.write("README.md", "# Title\n");
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", "export const a = 2;\n");
  repo.commit("the change");
  return repo;
}

function manyCommentsRepo(): TestRepo {
  return changeUnderLimit((repo) => useReviewerWorker(repo, "many", MANY));
}

/** Commits a change to line 2 alone: every comment of the many-comments reviewer (all on line 1) is outside it. */
function commitOutsideComments(repo: TestRepo): void {
  repo.write("src/app.ts", "export const a = 2;\nexport const b = 1;\n");
  repo.commit("a second line");
}

describe("a reviewer over the comments' limit", () => {
  it("is counted once: the same sentence on stderr, under the review's line and in show", () => {
    const repo = manyCommentsRepo();
    const run = repo.run([]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.match(/over the limit/g)).toHaveLength(1);
    expect(run.stderr).toContain(`remote: git-review-remote worker: ${LEFT_OUT}\n`);
    const header = run.stdout.match(
      /^Review ([0-9a-f]{12}) by many(?: \[sandbox: [^\]]+\])?: (.*)\n {2}(.*)$/m,
    );
    expect(header?.[2]).toBe("3 comments, 1 proposed commit");
    expect(header?.[3]).toBe(LEFT_OUT);
    // The most severe of all six are kept, the last one among them.
    expect(run.stdout).toContain("  src/app.ts:1 error The one that matters.\n");
    expect(run.stdout).not.toMatch(WORKER_COUNTS);
    const id = header?.[1] ?? "";
    const shown = repo.run(["show", id]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("\nresult   3 comments, 1 proposed commit\n");
    expect(shown.stdout).not.toMatch(WORKER_COUNTS);
    // The reviewer's line counts all it made: made less left out is what came back.
    expect(shown.stdout).toMatch(
      new RegExp(
        `\\n\\n${LEFT_OUT}\\n\\nRan many-comments\\.sh\\.\\n- many-comments\\.sh \\(\`[^\`]+\`, comments, exit 0, \\d+\\.\\d s\\): 6 comments, 1 file changed\\n`,
      ),
    );
  });
});

describe("a whole-tree reviewer over the comments' limit", () => {
  // Errors elsewhere in the tree outranked the change's warning in the worker's cut to maxComments,
  // and the review, which hides comments outside the change, showed none of the change's.
  for (const format of ["comments", "rdjsonl"]) {
    it(`keeps the change's comments before the most severe of the rest (${format})`, () => {
      const command = format === "comments" ? TREE_LINTER : `${TREE_LINTER} rdjsonl`;
      const worker = [
        process.execPath,
        BIN,
        "worker",
        "--tools",
        dirname(TREE_LINTER),
        "--reviewer-command",
        command,
      ];
      if (format !== "comments") worker.push("--reviewer-format", format);
      const repo = changeUnderLimit((each) => configureWorker(each, "lint", shellWords(...worker)));
      const run = repo.run(["--worker", "lint"]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("  src/app.ts:1 warning In the change.\n");
      expect(run.stdout).toContain("2 comments outside the change hidden");
    });
  }
});

describe("a reviewer over the comments' limit and the patch limit at once", () => {
  it("keeps the note that its proposals were left out, and says which limit to raise", () => {
    const repo = manyCommentsRepo();
    // One comment allowed: the reviewer's error outranked the worker's warning that the proposal
    // went over maxPatchBytes, and the review said only "Nothing to propose.", with no hint.
    repo.git("config", "review-remote.maxComments", "1");
    repo.git("config", "review-remote.maxPatchBytes", "10");
    const run = repo.run([]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/: 1 comment, 0 proposed commits\n/);
    expect(run.stdout).toContain(
      "  (general) warning The proposed changes were left out: the proposed patches are over the limit of 10 bytes.",
    );
    expect(run.stdout).toContain("No proposals: they went over a limit (see the warning).\n");
    expect(run.stderr).toContain("hint: or raise the limit: git config review-remote.maxPatchBytes <n>");
  });
});

describe("the pre-push hook's line", () => {
  it("counts the comments in the change as the review's line does, then says how many are hidden", () => {
    const repo = manyCommentsRepo();
    const remote = repos.add(createTestRepo({ bare: true, name: "origin.git" }));
    repo.git("remote", "add", "origin", remote.dir);
    const push = (env: Record<string, string> = {}) =>
      spawnSync("git", ["push", "origin", "main"], {
        cwd: repo.dir,
        env: { ...repo.env, ...env },
        encoding: "utf8",
      });
    expect(push({ REVIEW_REMOTE_SKIP: "1" }).status).toBe(0);
    expect(repo.run(["install-hook"]).status).toBe(0);
    commitOutsideComments(repo);
    const pushed = push();
    expect(pushed.status, pushed.stderr).toBe(0);
    const line = pushed.stderr.match(
      /^review-remote: refs\/heads\/main \(\w+\.\.\w+\): review ([0-9a-f]{12}): (.*)$/m,
    );
    const id = line?.[1] ?? "";
    // None of the three is in the change: none is counted as the review's, all three as hidden.
    expect(line?.[2]).toBe(`proposals on review/${id} (3 comments outside the change hidden)`);
    const shown = repo.run(["show", id]);
    expect(shown.stdout).toContain("\nresult   0 comments, 1 proposed commit\n");
    expect(shown.stdout).toContain(
      `\nComments:\n  3 comments outside the change hidden (--filter-mode=added); see git review-remote show ${id}`,
    );
    expect(repo.run(["list"]).stdout).toMatch(
      new RegExp(
        `^${id} .* 0 comments \\(0 errors\\), 1 proposed commit; 3 comments outside the change hidden$`,
        "m",
      ),
    );
  });
});

/** A focused review whose three comments are all outside its change; returns its id. */
function reviewOutsideComments(repo: TestRepo): string {
  commitOutsideComments(repo);
  const run = repo.run(["--json"]);
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { id: string }).id;
}

/** Rewrites a review's record as an older version wrote it: no count outside the change, no mode; returns what it had. */
function makeOlder(repo: TestRepo, id: string): { outsideComments: unknown; filterMode: unknown } {
  const state = join(repo.dir, ".git", "review-remote", "reviews", id, "state.json");
  const { outsideComments, filterMode, ...older } = JSON.parse(readFileSync(state, "utf8"));
  writeFileSync(state, JSON.stringify(older));
  return { outsideComments, filterMode };
}

/** `list`'s line of a review whose three comments are all outside its change. */
function focusedLine(id: string): RegExp {
  return new RegExp(
    `^${id} .* 0 comments \\(0 errors\\), 1 proposed commit; 3 comments outside the change hidden$`,
    "m",
  );
}

describe("list", () => {
  it("counts the comments in the change of a record an older version wrote, as show does", () => {
    const repo = manyCommentsRepo();
    const id = reviewOutsideComments(repo);
    expect(repo.run(["list"]).stdout).toMatch(focusedLine(id));
    expect(makeOlder(repo, id)).toEqual({ outsideComments: { comments: 3, errors: 1 }, filterMode: "added" });
    expect(repo.run(["list"]).stdout).toMatch(focusedLine(id));
    expect(repo.run(["show", id]).stdout).toContain("\nresult   0 comments, 1 proposed commit\n");
    // The configured mode stands in for the one it did not keep.
    repo.git("config", "review-remote.filterMode", "nofilter");
    expect(repo.run(["list"]).stdout).toMatch(
      new RegExp(`^${id} .* 3 comments \\(1 error\\), 1 proposed commit$`, "m"),
    );
  });
});

describe("prune", () => {
  it("counts an older record's comments outside the change before it removes the answer", () => {
    const repo = manyCommentsRepo();
    const id = reviewOutsideComments(repo);
    expect(repo.run(["drop", id]).status).toBe(0);
    makeOlder(repo, id);
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`Removed result.json, changes.json, request.json of review ${id}`);
    expect(repo.run(["list"]).stdout).toMatch(focusedLine(id));
  });
});

describe("a fan-out answered partly from the store", () => {
  it("filters every answer by the change this run sent, a stored one whose record kept none too", () => {
    const repo = manyCommentsRepo();
    useReviewerWorker(repo, "more", MANY);
    commitOutsideComments(repo);
    const first = repo.run(["--worker", "many", "--json"]);
    expect(first.status, first.stderr).toBe(0);
    const { id } = JSON.parse(first.stdout) as { id: string };
    // As a record an older version wrote: no change kept beside it.
    rmSync(join(repo.dir, ".git", "review-remote", "reviews", id, "changes.json"));
    const both = repo.run(["--worker", "many", "--worker", "more"]);
    expect(both.status, both.stderr).toBe(0);
    const counts = [
      ...both.stdout.matchAll(/^Review ([0-9a-f]{12}) by (many|more)(?: \[sandbox: [^\]]+\])?: (.*)$/gm),
    ].map((line) => [line[2], line[3]]);
    expect(counts.sort()).toEqual([
      ["many", "0 comments, 1 proposed commit (cached: the worker was not contacted)"],
      ["more", "0 comments, 1 proposed commit"],
    ]);
  });
});

describe("the bundle a review sent", () => {
  it("is counted in audit with the words and numbers export gives it", () => {
    const repo = repos.add(createTestRepo());
    repo.write("README.md", "# Title\n");
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.commit("base");
    expect(repo.run(["--all"]).status).toBe(0);
    const exported = repo.run(["export"]);
    expect(exported.status, exported.stderr).toBe(0);
    const sent = exported.stderr.match(/^Exported (2 files \(\d+ B compressed\));/m)?.[1];
    expect(sent).toBeDefined();
    const audit = repo.run(["audit"]).stdout;
    expect(audit).toContain(`  ${exported.stdout.slice(0, 16)}  ${sent}  review `);
  });
});

describe("a worker's summary", () => {
  const BENIGN = JSON.parse(readFileSync(join(FIXTURES, "results", "01-benign-result.json"), "utf8"));

  function served(summary: string, name: string): TestRepo {
    const repo = repos.add(createBaseRepo());
    const file = join(repo.home, "result.json");
    writeFileSync(file, JSON.stringify({ ...BENIGN, summary, worker: { ...BENIGN.worker, name } }));
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, file));
    return repo;
  }

  function reviewAndShow(repo: TestRepo): { review: string; show: string } {
    const run = repo.run(["--worker", "fake"]);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.match(/^Review ([0-9a-f]{12}) /m)?.[1] ?? "";
    const shown = repo.run(["show", id]);
    expect(shown.status, shown.stderr).toBe(0);
    return { review: run.stdout, show: shown.stdout };
  }

  it("from an older built-in worker loses the counts it began with, keeping its prose", () => {
    const repo = served(
      "3 proposed commits, 7 comments.\n\nHygiene: fixed whitespace in 1 file.",
      "git-review-remote",
    );
    const { review, show } = reviewAndShow(repo);
    expect(review).toMatch(/: 1 comment, 1 proposed commit\n {2}Hygiene: fixed whitespace in 1 file\.\n/);
    expect(show).toContain("\nresult   1 comment, 1 proposed commit\n");
    expect(show).toContain("\n\nHygiene: fixed whitespace in 1 file.\n");
    expect(review + show).not.toMatch(WORKER_COUNTS);
  });

  it("from an older built-in worker's reviewer commands names them on its first line, as today's does", () => {
    const older =
      "1 proposed commit, 2 comments.\n\nReviewers:\n" +
      "- eslint 9.1.0 (`eslint --fix .`, rdjson, exit 1, 0.8 s): 2 comments, 1 fix applied, 1 file changed\n" +
      "- shellcheck (`shellcheck *.sh`, json, 0.1 s): failed: not found";
    const { review, show } = reviewAndShow(served(older, "git-review-remote"));
    expect(review).toMatch(
      /: 1 comment, 1 proposed commit\n {2}Ran eslint 9\.1\.0, shellcheck \(failed\)\.\n/,
    );
    expect(show).toContain("\n\nRan eslint 9.1.0, shellcheck (failed).\n- eslint 9.1.0 (`eslint --fix .`");
    expect(review + show).not.toContain("Reviewers:");
  });

  it("of several workers with nothing to propose: each longer one says where it is whole", () => {
    const repo = repos.add(createBaseRepo());
    const serve = (worker: string, summary: string) => {
      const file = join(repo.home, `${worker}.json`);
      writeFileSync(file, JSON.stringify({ ...BENIGN, summary, commits: [], worker: { ...BENIGN.worker } }));
      configureWorker(repo, worker, shellWords("node", RESULT_WORKER, file));
    };
    serve("asked", "Answered the question.\n\nThe guard is right: totals are never negative.");
    serve("terse", "Looked at the change.");
    const run = repo.run(["--worker", "asked", "--worker", "terse"]);
    expect(run.status, run.stderr).toBe(0);
    const id = run.stdout.match(/^Review ([0-9a-f]{12}) by asked/m)?.[1] ?? "";
    expect(run.stdout).toMatch(/^Review [0-9a-f]{12} by terse/m);
    // The one-line summary is whole on the review's line; only the longer one is pointed to.
    expect(run.stdout).toMatch(
      new RegExp(
        `\\nNothing to propose\\.\\nThe whole summary of worker 'asked': git review-remote show ${id}\\n$`,
      ),
    );
    expect(repo.run(["show", id]).stdout).toContain("The guard is right: totals are never negative.");
  });

  it("from a third-party worker is shown as sent", () => {
    const repo = served("3 proposed commits, 7 comments.\n\nMine.", "acme-reviewer");
    const { review, show } = reviewAndShow(repo);
    expect(review).toMatch(/: 1 comment, 1 proposed commit\n {2}3 proposed commits, 7 comments\.\n/);
    expect(show).toContain("\n\n3 proposed commits, 7 comments.\n\nMine.\n");
  });
});
