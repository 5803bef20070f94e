// Faults: concurrent runs on one repo, and a process killed at any moment during a review.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, createBaseRepo, FIXTURES, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { BIN, repoTracker, type TestRepo } from "../helpers/repo.js";

const BENIGN = join(FIXTURES, "results", "21-two-commits-sequence.json");

const repos = repoTracker();
function baseRepo(): TestRepo {
  const repo = createBaseRepo();
  repos.add(repo);
  configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
  configureWorker(repo, "b", `${shellWords("node", RESULT_WORKER, BENIGN)} # b`);
  return repo;
}

function start(repo: TestRepo, args: string[], input = "") {
  const child = spawn("node", [BIN, ...args], { cwd: repo.dir, env: repo.env });
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

function storeIsReadable(repo: TestRepo): void {
  const store = join(repo.dir, ".git", "review-remote");
  for (const id of readdirSync(join(store, "reviews"))) {
    JSON.parse(readFileSync(join(store, "reviews", id, "state.json"), "utf8"));
  }
  for (const line of readFileSync(join(store, "audit.jsonl"), "utf8").split("\n").filter(Boolean))
    JSON.parse(line);
}

describe("concurrent runs", () => {
  it("two reviews of one snapshot started together both import, on different branches", async () => {
    const repo = baseRepo();
    const runs = [start(repo, ["--worker", "a", "--json"]), start(repo, ["--worker", "b", "--json"])];
    const results = await Promise.all(runs.map((run) => run.done));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const [first, second] = results.map((result) => JSON.parse(result.stdout));
    expect(first.branch).not.toBe(second.branch);
    for (const review of [first, second])
      expect(repo.git("rev-list", "--count", `HEAD..${review.branch}`).trim()).toBe("2");
    expect(repo.git("notes", "--ref=review-remote", "show", "HEAD")).toBeDefined();
    storeIsReadable(repo);
    expect(repo.git("fsck", "--no-dangling").trim()).toBe("");
  });

  it("two pre-push hook runs at once leave a readable store", async () => {
    const repo = baseRepo();
    repo.git("config", "review-remote.worker", "a");
    const head = repo.git("rev-parse", "HEAD").trim();
    const line = `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n`;
    const runs = [0, 1, 2].map(() => start(repo, ["hook", "pre-push", "origin", "url"], line));
    for (const result of await Promise.all(runs.map((run) => run.done)))
      expect(result.code, result.stderr).toBe(0);
    storeIsReadable(repo);
  });
});

describe("a review killed at any moment", () => {
  it("leaves no branch or a complete one, and git fsck clean", async () => {
    const repo = baseRepo();
    for (const delay of [150, 300, 450, 600, 750, 900, 1050, 1200]) {
      const run = start(repo, ["--worker", "a", "--no-cache"]);
      await new Promise((resolve) => setTimeout(resolve, delay));
      run.child.kill("SIGKILL");
      await run.done;
      const branches = repo
        .git("for-each-ref", "--format=%(refname)", "refs/heads/review/")
        .split("\n")
        .filter(Boolean);
      for (const branch of branches) {
        expect(repo.git("rev-list", "--count", `HEAD..${branch}`).trim(), `${branch} after ${delay} ms`).toBe(
          "2",
        );
      }
      expect(repo.git("fsck", "--no-dangling").trim(), `after ${delay} ms`).toBe("");
    }
    // The store still works after all that.
    const after = start(repo, ["--worker", "a", "--no-cache", "--json"]);
    expect((await after.done).code).toBe(0);
  });
});
