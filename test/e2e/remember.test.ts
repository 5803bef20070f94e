// Deterministic failures are remembered: a refused export is not scanned again for the same snapshot
// and policy, a rejected result is not fetched again for the same request; transient failures are
// asked again, and --no-cache always asks again.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, createBaseRepo, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const COUNTING = join(FIXTURES, "workers", "counting-worker.sh");
const BENIGN = join(FIXTURES, "results", "01-benign-result.json");
// A format-valid fake key, split so that no scanner flags this file.
const AWS_KEY = ["AK", "IA", "QYLPMN5HFIQR7XYZ"].join("");

const repos = repoTracker();

function calls(file: string): number {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Worker `fake` counts its calls, then answers with `template`. */
function countingWorker(repo: TestRepo, template: string): string {
  const counter = join(repo.home, "calls");
  configureWorker(repo, "fake", shellWords(COUNTING, counter, template));
  repo.git("config", "review-remote.worker", "fake");
  return counter;
}

const DEBUG = { env: { REVIEW_REMOTE_DEBUG: "1" } };
const scanned = (stderr: string) => /^debug: .* export: /m.test(stderr);

describe("a refused export", () => {
  it("is answered from the store for the same snapshot and policy, without scanning again", () => {
    const repo = repos.add(createTestRepo());
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}";\n`);
    repo.commit("settings");
    const counter = countingWorker(repo, BENIGN);
    const before = repoState(repo);
    const first = repo.run([], DEBUG);
    expect(first.status, first.stderr).toBe(6);
    expect(scanned(first.stderr)).toBe(true);
    const second = repo.run([], DEBUG);
    expect(second.status).toBe(6);
    expect(scanned(second.stderr)).toBe(false);
    const said = (stderr: string) => stderr.split("\n").filter((line) => !line.startsWith("debug:"));
    // The same message and findings (redacted), one hint more saying where the answer came from.
    expect(said(second.stderr)).toEqual([
      ...said(first.stderr).filter((line) => line !== ""),
      "hint: answered from the store: this snapshot and policy were refused before (git review-remote --no-cache scans again)",
      "",
    ]);
    expect(second.stderr).not.toContain(AWS_KEY.slice(4));
    const again = repo.run(["--no-cache"], DEBUG);
    expect(again.status).toBe(6);
    expect(scanned(again.stderr)).toBe(true);
    expect(calls(counter)).toBe(0);
    expect(repoState(repo)).toEqual(before);

    // Another policy is another verdict: the false positive allowed, the review goes ahead.
    const fingerprint = JSON.parse(repo.run(["export", "--json"]).stdout).findings[0].fingerprint;
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ fingerprint }] } }));
    const allowed = repo.run([]);
    expect(allowed.status, allowed.stderr).not.toBe(6);
    expect(calls(counter)).toBe(1);
  });
});

describe("a rejected result", () => {
  it("is not fetched again for the same request: the same message and exit 4 from the store", () => {
    const repo = repos.add(createBaseRepo());
    const counter = countingWorker(repo, join(FIXTURES, "results", "05-request-id-mismatch.json"));
    const before = repoState(repo);
    const first = repo.run([]);
    expect(first.status).toBe(4);
    expect(first.stderr).toContain("git-review-remote: rejected the result of worker 'fake'");
    const second = repo.run([]);
    expect(second.status).toBe(4);
    expect(calls(counter)).toBe(1);
    const lines = (stderr: string) => stderr.split("\n").filter((line) => !line.startsWith("remote:"));
    expect(lines(second.stderr)).toEqual([
      ...lines(first.stderr).filter((line) => line !== ""),
      "hint: answered from the store: this worker's result for the same request was rejected before (--no-cache asks again)",
      "",
    ]);
    expect(repo.run(["--no-cache"]).status).toBe(4);
    expect(calls(counter)).toBe(2);
    // Another question is another request.
    expect(repo.run(["-m", "Another question?"]).status).toBe(4);
    expect(calls(counter)).toBe(3);
    expect(repoState(repo)).toEqual(before);
  });

  it("is asked again after a transient failure: a worker's failed result, a failing command", () => {
    const repo = repos.add(createBaseRepo());
    const failed = join(repo.home, "failed.json");
    const benign = JSON.parse(readFileSync(BENIGN, "utf8"));
    writeFileSync(
      failed,
      JSON.stringify({ ...benign, status: "failed", error: "out of memory", comments: [], commits: [] }),
    );
    const counter = countingWorker(repo, failed);
    expect(repo.run([]).status).toBe(3);
    expect(repo.run([]).status).toBe(3);
    expect(calls(counter)).toBe(2);
    configureWorker(repo, "fake", "exit 1");
    expect(repo.run([]).status).toBe(3);
    expect(repo.run([]).status).toBe(3);
    // The worker now answers: nothing of the failures stands in its way.
    configureWorker(repo, "fake", shellWords(COUNTING, counter, BENIGN));
    expect(repo.run([]).status).toBe(0);
    expect(calls(counter)).toBe(3);
  });
});
