// `import <result> --request <id>` judges a result by the request as it was sent, not by the policy
// file as it is now, and a review whose worker answered takes no second answer.

import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeRequestId } from "../../src/protocol/request-line.js";
import { configureWorker, createBaseRepo, FIXTURES, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
const BENIGN = join(FIXTURES, "results", "01-benign-result.json");
const TWO_COMMITS = join(FIXTURES, "results", "21-two-commits-sequence.json");
const DOWN = shellWords(join(FIXTURES, "workers", "fail-worker.sh"));

/** The base repo with a committed policy file and a worker that cannot be reached. */
function repoWithPolicy(policy: object): TestRepo {
  const repo = repos.add(createBaseRepo());
  repo.write(".review-remote.json", JSON.stringify(policy));
  repo.commit("policy");
  configureWorker(repo, "down", DOWN);
  return repo;
}

/** Runs a review whose worker is not reached; returns its id. */
function failedReview(repo: TestRepo): string {
  const known = new Set(reviewIds(repo));
  expect(repo.run(["--worker", "down"]).status).toBe(3);
  const id = reviewIds(repo).find((each) => !known.has(each));
  if (id === undefined) throw new Error("no review was recorded");
  return id;
}

function reviewIds(repo: TestRepo): string[] {
  try {
    return readdirSync(join(repo.dir, ".git", "review-remote", "reviews"));
  } catch {
    return [];
  }
}

/** A result file for review `id` from a template (placeholders filled from its stored request). */
function resultFor(repo: TestRepo, id: string, template: string): string {
  const stored = join(repo.dir, ".git", "review-remote", "reviews", id, "request.json");
  const request = JSON.parse(readFileSync(stored, "utf8"));
  const file = join(repo.home, `result-${id}.json`);
  writeFileSync(
    file,
    template.replaceAll("@REQUEST_ID@", request.id).replaceAll("@BUNDLE_SHA256@", request.bundle.sha256),
  );
  return file;
}

/** `import <the benign result> --request <id>`, out of band, as a user runs it. */
function importBenign(repo: TestRepo, id: string) {
  return repo.run(["import", resultFor(repo, id, readFileSync(BENIGN, "utf8")), "--request", id]);
}

/** `import <result> --request <id>` refused with `status`, the repository as it was: its stderr. */
function refusedImport(repo: TestRepo, id: string, result: string, status: number): string {
  return runUnchanged(repo, ["import", resultFor(repo, id, result), "--request", id], status).stderr;
}

/** The benign result's proposal, moved to `path` (a new file). */
function newFileResult(path: string): string {
  const result = JSON.parse(readFileSync(BENIGN, "utf8"));
  result.commits = [
    {
      message: "Add notes",
      patch: `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+notes\n`,
    },
  ];
  return JSON.stringify(result);
}

/** Every file of the store's directory for review `id`, by name, with its bytes' sha256. */
function reviewFiles(repo: TestRepo, id: string): Record<string, string> {
  const dir = join(repo.dir, ".git", "review-remote", "reviews", id);
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      createHash("sha256")
        .update(readFileSync(join(dir, name)))
        .digest("hex"),
    ]),
  );
}

describe("a review whose worker failed", () => {
  it("is listed with what went wrong, as show says it, not with counts of nothing", () => {
    const repo = repoWithPolicy({});
    const id = failedReview(repo);
    const problem = /^problem {2}(.+)$/m.exec(repo.run(["show", id]).stdout)?.[1];
    expect(problem).toMatch(/^worker 'down' /);
    const line = repo
      .run(["list"])
      .stdout.split("\n")
      .find((each) => each.startsWith(id));
    expect(line).toMatch(/^[0-9a-f]{12} {2}failed {4}down {8}/);
    expect(line?.endsWith(`  ${problem}`)).toBe(true);
    expect(line).not.toContain("0 comments");
  });
});

describe("import --request", () => {
  it("keeps the forbidden paths the review was sent with when the policy is loosened", () => {
    const repo = repoWithPolicy({ forbiddenPaths: ["docs/**"] });
    const id = failedReview(repo);
    repo.write(".review-remote.json", "{}");
    const stderr = refusedImport(repo, id, newFileResult("docs/v2/notes.md"), 4);
    expect(stderr).toContain('path "docs/v2/notes.md" is a forbidden path (docs/**)');
  });

  it("imports what the review was sent to allow when the policy is tightened afterwards", () => {
    const repo = repoWithPolicy({});
    const id = failedReview(repo);
    repo.write(".review-remote.json", JSON.stringify({ forbiddenPaths: ["docs/**"] }));
    const file = resultFor(repo, id, newFileResult("docs/v2/notes.md"));
    const result = repo.run(["import", file, "--request", id]);
    expect(result.status, result.stderr).toBe(0);
    expect(repo.git("diff", "--name-only", "HEAD", `review/${id}`).trim()).toBe("docs/v2/notes.md");
  });

  it("refuses another review's result and leaves both reviews waiting: each right file still imports", () => {
    const repo = repoWithPolicy({});
    // The benign proposal is outside the last commit's change: kept, to have a branch to look for.
    repo.git("config", "review-remote.filterMode", "nofilter");
    const first = failedReview(repo);
    // Another question: another request, which the first review's file does not answer.
    expect(repo.run(["--worker", "down", "-m", "Is the total right?"]).status).toBe(3);
    const second = reviewIds(repo).find((each) => each !== first) as string;
    const secondsFile = resultFor(repo, second, readFileSync(BENIGN, "utf8"));
    const before = { first: reviewFiles(repo, first), second: reviewFiles(repo, second) };
    const stderr = runUnchanged(repo, ["import", secondsFile, "--request", first], 4).stderr;
    expect(stderr).toContain("requestId: answers request");
    expect(stderr).toContain(`hint: review ${first} still waits for its answer`);
    expect(stderr).toContain(
      `hint: this file answers review ${second}: git review-remote import ${secondsFile} --request ${second}\n`,
    );
    // Its record, and nothing stored beside it: the store as it was.
    expect({ first: reviewFiles(repo, first), second: reviewFiles(repo, second) }).toEqual(before);
    const states = JSON.parse(repo.run(["list", "--json"]).stdout).map((r: { state: string }) => r.state);
    expect(states).toEqual(["failed", "failed"]);
    for (const id of [first, second]) {
      const imported = importBenign(repo, id);
      expect(imported.status, imported.stderr).toBe(0);
      expect(repo.git("rev-parse", "--verify", `review/${id}`).trim()).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it("refuses a file that is no result, or one that breaks a rule, and the right one still imports", () => {
    const repo = repoWithPolicy({ forbiddenPaths: ["docs/**"] });
    repo.git("config", "review-remote.filterMode", "nofilter");
    const id = failedReview(repo);
    const before = reviewFiles(repo, id);
    const notes = join(repo.home, "notes.txt");
    writeFileSync(notes, "remember the milk\n");
    const notAResult = runUnchanged(repo, ["import", notes, "--request", id], 4).stderr;
    expect(notAResult).toContain("result: not valid JSON");
    expect(notAResult).toContain(`hint: review ${id} still waits for its answer`);
    expect(notAResult).not.toContain("this file answers review");
    expect(reviewFiles(repo, id)).toEqual(before);
    // Rejected in quarantine, after its result was stored: that goes too.
    const forbidden = refusedImport(repo, id, newFileResult("docs/notes.md"), 4);
    expect(forbidden).toContain('path "docs/notes.md" is a forbidden path (docs/**)');
    expect(reviewFiles(repo, id)).toEqual(before);
    const imported = importBenign(repo, id);
    expect(imported.status, imported.stderr).toBe(0);
    expect(repo.git("rev-parse", "--verify", `review/${id}`).trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it("refuses a result file over the review's maxResultBytes before reading the rest of it", () => {
    const repo = repoWithPolicy({ limits: { maxResultBytes: 4096 } });
    const id = failedReview(repo);
    const benign = readFileSync(BENIGN, "utf8");
    const stderr = refusedImport(repo, id, `${benign.trimEnd()}${" ".repeat(8192)}\n`, 4);
    expect(stderr).toMatch(
      /result-[0-9a-f]+\.json holds more than 4096 bytes, the review's limits\.maxResultBytes; nothing was imported/,
    );
    expect(repo.git("for-each-ref", "refs/heads/review/")).toBe("");
    // The same result within the limit imports.
    expect(importBenign(repo, id).status).toBe(0);
  });

  it("keeps the limits the review was sent with when the policy raises them", () => {
    const repo = repoWithPolicy({ limits: { maxCommits: 1 } });
    const id = failedReview(repo);
    repo.write(".review-remote.json", "{}");
    const file = resultFor(repo, id, readFileSync(TWO_COMMITS, "utf8"));
    const before = repoState(repo);
    const result = repo.run(["import", file, "--request", id]);
    // Over-limit proposals are dropped (their comments kept): by the limit the review was sent with.
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("commits: 2 commits, over the limit of 1");
    expect(repo.git("for-each-ref", "refs/heads/review/")).toBe("");
    const after = repoState(repo);
    expect({ ...after, refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
  });

  it("scopes the proposals by the filter mode the review was asked for, and says which applied", () => {
    const repo = repoWithPolicy({});
    // The benign proposal edits src/app.ts, which the reviewed commit (the policy file) did not touch.
    const known = new Set(reviewIds(repo));
    expect(repo.run(["--worker", "down", "--filter-mode=nofilter"]).status).toBe(3);
    const asked = reviewIds(repo).find((each) => !known.has(each)) as string;
    const kept = importBenign(repo, asked);
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.stdout.split("\n")[0]).toBe(
      "Filtered with --filter-mode=nofilter, as the review was asked for",
    );
    expect(repo.git("diff", "--name-only", "HEAD", `review/${asked}`).trim()).toBe("src/app.ts");
    expect(kept.stdout).toContain("  src/app.ts:4 info Consider validating the total.");

    // A record from before the mode was kept: the config's, said so.
    const older = failedReview(repo);
    const state = join(repo.dir, ".git", "review-remote", "reviews", older, "state.json");
    const { filterMode, ...record } = JSON.parse(readFileSync(state, "utf8"));
    expect(filterMode).toBe("added");
    writeFileSync(state, JSON.stringify(record));
    const scoped = importBenign(repo, older);
    expect(scoped.status, scoped.stderr).toBe(0);
    expect(scoped.stdout.split("\n")[0]).toBe(
      "Filtered with --filter-mode=added (review-remote.filterMode: this review's own mode was not recorded)",
    );
    expect(scoped.stdout).toContain("1 fix in 1 file outside the change left out");
    expect(repo.git("for-each-ref", `refs/heads/review/${older}`)).toBe("");
  });

  it("gates the imported findings with --fail-level as a review does (exit 7, imported as usual)", () => {
    const repo = repoWithPolicy({});
    // The benign proposal edits a file the reviewed commit did not touch: kept, not scoped away.
    repo.git("config", "review-remote.filterMode", "nofilter");
    const result = JSON.parse(readFileSync(BENIGN, "utf8"));
    // On the line the reviewed commit added: a finding the filter shows.
    result.comments = [
      { path: ".review-remote.json", line: 1, severity: "warning", message: "Empty policy." },
    ];
    const template = JSON.stringify(result);
    const importAt = (id: string, level: string) =>
      repo.run(["import", resultFor(repo, id, template), "--request", id, "--fail-level", level]);
    const gated = failedReview(repo);
    const found = importAt(gated, "warning");
    expect(found.status, found.stderr).toBe(7);
    expect(found.stderr).toContain("git-review-remote: 1 finding at or above warning (fail level warning)");
    expect(repo.git("for-each-ref", "--format=%(refname)", `refs/heads/review/${gated}`).trim()).toBe(
      `refs/heads/review/${gated}`,
    );
    const below = failedReview(repo);
    const passed = importAt(below, "error");
    expect(passed.status, passed.stderr).toBe(0);
    const bad = importAt(below, "high");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--fail-level");
  });

  it("refuses to import over a review whose result was rejected, leaving the repo unchanged", () => {
    const repo = repoWithPolicy({});
    const bad = join(repo.home, "bad.diff");
    writeFileSync(
      bad,
      "diff --git a/.gitattributes b/.gitattributes\n--- a/.gitattributes\n+++ b/.gitattributes\n@@ -1 +1 @@\n-* text=auto\n+* filter=pwn\n",
    );
    configureWorker(repo, "hostile", shellWords("node", RESULT_WORKER, "--diff", bad));
    expect(repo.run(["--worker", "hostile"]).status).toBe(4);
    const [id] = reviewIds(repo) as [string];
    const stderr = refusedImport(repo, id, readFileSync(BENIGN, "utf8"), 1);
    expect(stderr).toContain(`review ${id} is rejected: its worker answered`);
    expect(stderr).toContain("hint: ");
    expect(JSON.parse(repo.run(["list", "--json"]).stdout)).toEqual([
      expect.objectContaining({ id, state: "rejected" }),
    ]);
  });

  it("stores nothing of a result it cannot store: no branch, no quarantine left, the repo unchanged", () => {
    const repo = repoWithPolicy({});
    const id = failedReview(repo);
    // The result's file cannot be written (a directory stands where it goes): found while, or after,
    // the proposals were checked in quarantine.
    mkdirSync(join(repo.dir, ".git", "review-remote", "reviews", id, "result.json"));
    const temp = mkdtempSync(join(tmpdir(), "rr-import-temp-"));
    try {
      const result = runUnchanged(
        repo,
        ["import", resultFor(repo, id, readFileSync(BENIGN, "utf8")), "--request", id],
        1,
        {
          env: { TMPDIR: temp },
        },
      );
      expect(result.stderr).toContain("git-review-remote: cannot write to the store");
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
    expect(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/review/")).toBe("");
  });

  it("a review whose worker was not reached says how to import its result, and that works", () => {
    const repo = repoWithPolicy({});
    const down = repo.run(["--worker", "down"]);
    expect(down.status).toBe(3);
    const [id] = reviewIds(repo) as [string];
    expect(down.stderr).toContain(
      `hint: a result of this review that reaches you some other way can still be imported: git review-remote import <result.json> --request ${id}\n`,
    );
    const imported = importBenign(repo, id);
    expect(imported.status, imported.stderr).toBe(0);
    const [record] = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string; state: string }[];
    expect(record?.id).toBe(id);
    expect(record?.state).not.toBe("failed");
  });

  it("imports the answer of a review whose bundle prune --include-open removed: the manifest is enough", () => {
    const repo = repoWithPolicy({});
    expect(repo.run(["--worker", "down"]).status).toBe(3);
    const [id] = reviewIds(repo) as [string];
    expect(repo.run(["prune", "--expire=now"]).stdout).toBe("Nothing to prune.\n");
    const pruned = repo.run(["prune", "--expire=now", "--include-open"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`review ${id}`);
    const bundles = readdirSync(join(repo.dir, ".git", "review-remote", "bundles"));
    expect(bundles.filter((name) => name.endsWith(".tar.gz"))).toEqual([]);
    const imported = importBenign(repo, id);
    expect(imported.status, imported.stderr).toBe(0);
    const [record] = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string; state: string }[];
    expect(record?.state).not.toBe("failed");
  });

  it("refuses to import over a review whose worker answered that it failed", () => {
    const repo = repoWithPolicy({});
    const failed = { ...JSON.parse(readFileSync(BENIGN, "utf8")), status: "failed", error: "out of disk" };
    failed.commits = [];
    failed.comments = [];
    const template = join(repo.home, "failed.json");
    writeFileSync(template, JSON.stringify(failed));
    configureWorker(repo, "sad", shellWords("node", RESULT_WORKER, template));
    const answered = repo.run(["--worker", "sad"]);
    expect(answered.status).toBe(3);
    // Its worker answered: no hint to import another answer.
    expect(answered.stderr).not.toContain("review-remote import");
    const [id] = reviewIds(repo) as [string];
    const stderr = refusedImport(repo, id, readFileSync(BENIGN, "utf8"), 1);
    expect(stderr).toContain(`review ${id} is failed: its worker answered`);
  });
});

/**
 * What an older version stored, hand-written: its request asked past this version's limits (more
 * forbidden globs, a longer question, a NUL in it), under an id of its own, as that version sent it.
 */
function storeOlderRequest(repo: TestRepo, id: string): void {
  const dir = join(repo.dir, ".git", "review-remote", "reviews", id);
  const request = JSON.parse(readFileSync(join(dir, "request.json"), "utf8"));
  request.forbiddenPaths = Array.from({ length: 1100 }, (_, index) => `generated/${index}/**`);
  request.question = `Is this right?\0${"x".repeat(70 * 1024)}`;
  request.id = computeRequestId(request);
  writeFileSync(join(dir, "request.json"), `${JSON.stringify(request, null, 2)}\n`);
  const record = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  writeFileSync(
    join(dir, "state.json"),
    `${JSON.stringify({ ...record, requestId: request.id }, null, 2)}\n`,
  );
}

describe("a review an older version stored, its request past this version's limits", () => {
  it("still shows, imports, merges, drops and prunes: the limits are for the requests sent now", () => {
    const repo = repoWithPolicy({});
    // The benign proposal is outside the last commit's change: kept, to have a branch to merge.
    repo.git("config", "review-remote.filterMode", "nofilter");
    const merged = failedReview(repo);
    const dropped = failedReview(repo);
    for (const id of [merged, dropped]) storeOlderRequest(repo, id);
    const shown = repo.run(["show", merged]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`review ${merged} (failed) by down`);
    // Both imported: the stored request read was refused as past the limits ("has no stored request").
    for (const id of [merged, dropped]) {
      const imported = importBenign(repo, id);
      expect(imported.status, imported.stderr).toBe(0);
      expect(repo.git("for-each-ref", "--format=%(refname)", `refs/heads/review/${id}`).trim()).toBe(
        `refs/heads/review/${id}`,
      );
    }
    expect(repo.run(["show", merged]).stdout).toContain("result   1 comment, 1 proposed commit");
    // Its stored answer read back as stored, not against the bounds a worker's answer keeps now.
    const answer = join(repo.dir, ".git", "review-remote", "reviews", dropped, "result.json");
    const stored = JSON.parse(readFileSync(answer, "utf8"));
    stored.comments[0].message = `Long: ${"y".repeat(70_000)}`;
    writeFileSync(answer, `${JSON.stringify(stored, null, 2)}\n`);
    expect(repo.run(["show", dropped, "--all-comments"]).stdout).toContain(
      `info Long: ${"y".repeat(70_000)}`,
    );
    const merge = repo.run(["merge", merged]);
    expect(merge.status, merge.stderr).toBe(0);
    expect(readFileSync(join(repo.dir, "src", "app.ts"), "utf8")).toContain(
      'throw new Error("negative total")',
    );
    const drop = repo.run(["drop", dropped]);
    expect(drop.status, drop.stderr).toBe(0);
    expect(repo.git("for-each-ref", "refs/heads/review/")).toBe("");
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    for (const id of [merged, dropped]) {
      expect(existsSync(join(repo.dir, ".git", "review-remote", "reviews", id, "request.json"))).toBe(false);
      expect(repo.run(["show", id]).status).toBe(0);
    }
  });
});
