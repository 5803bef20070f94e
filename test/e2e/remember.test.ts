// Deterministic failures are remembered: a refused export is not scanned again for the same snapshot
// and policy, a rejected result is not fetched again for the same request; transient failures are
// asked again, and --no-cache always asks again.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, createBaseRepo, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, PROJECT_ROOT, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

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

/**
 * This package installed again at the same version but from another build (a fix, other rules, other
 * words): a copy of it whose dist/build.json names another build, and whose words, if given, read
 * otherwise.
 */
function otherBuild(words?: { from: string; to: string }): string {
  const root = mkdtempSync(join(tmpdir(), "rr-build-"));
  builds.push(root);
  for (const part of ["bin", "dist", "hooks", "man", "package.json"]) {
    cpSync(join(PROJECT_ROOT, part), join(root, part), { recursive: true });
  }
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "dist", "build.json"), `${JSON.stringify({ build: "another" })}\n`);
  if (words) {
    let replaced = 0;
    for (const name of readdirSync(join(root, "dist")).filter((file) => file.endsWith(".js"))) {
      const file = join(root, "dist", name);
      const text = readFileSync(file, "utf8");
      if (!text.includes(words.from)) continue;
      replaced++;
      writeFileSync(file, text.replaceAll(words.from, words.to));
    }
    expect(replaced).toBeGreaterThan(0);
  }
  return join(root, "bin", "git-review-remote.js");
}

const builds: string[] = [];
afterAll(() => {
  for (const root of builds) rmSync(root, { recursive: true, force: true });
});

describe("another build of the same version", () => {
  it("scans a refused export again, so that its hints are the new build's", () => {
    const repo = repos.add(createTestRepo());
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}";\n`);
    repo.commit("settings");
    const first = repo.run([]);
    expect(first.status, first.stderr).toBe(6);
    const hint = /^hint: ([a-z ]+)/m.exec(first.stderr)?.[1] as string;
    expect(hint.length).toBeGreaterThan(8);
    const upgraded = otherBuild({ from: hint, to: `UPGRADED ${hint}` });
    const run = (bin: string) =>
      spawnSync(process.execPath, [bin], { cwd: repo.dir, env: repo.env, encoding: "utf8" });
    const again = run(upgraded);
    expect(again.status, again.stderr).toBe(6);
    expect(again.stderr).toContain(`hint: UPGRADED ${hint}`);
    expect(again.stderr).not.toContain("answered from the store");
    // Each build remembers its own verdict.
    expect(run(upgraded).stderr).toContain("answered from the store");
    expect(repo.run([]).stderr).toContain("answered from the store");
  });

  it("asks the worker again rather than answer from a review the old build accepted", () => {
    const repo = repos.add(createBaseRepo());
    const counter = countingWorker(repo, BENIGN);
    expect(repo.run([]).status).toBe(0);
    expect(repo.run([]).stdout).toContain("(cached: the worker was not contacted)");
    expect(calls(counter)).toBe(1);
    const upgraded = otherBuild();
    const again = spawnSync(process.execPath, [upgraded], { cwd: repo.dir, env: repo.env, encoding: "utf8" });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toContain("cached");
    expect(calls(counter)).toBe(2);
  });
});

describe("a stored bundle and another build of the same version", () => {
  it("is scanned again by the new build's code, not sent as the old build passed it", () => {
    const repo = repos.add(createBaseRepo());
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}"; // review-remote:allow\n`);
    repo.commit("settings");
    const counter = countingWorker(repo, BENIGN);
    const first = repo.run(["-m", "first question"]);
    expect(first.status, first.stderr).toBe(0);
    // A build whose scan no longer takes that marker (a fix in the scanner's code, not its rules).
    const stricter = otherBuild({ from: "review-remote:allow", to: "review-remote:permit" });
    const again = spawnSync(process.execPath, [stricter, "-m", "second question"], {
      cwd: repo.dir,
      env: { ...repo.env, REVIEW_REMOTE_DEBUG: "1" },
      encoding: "utf8",
    });
    expect(again.status, again.stderr).toBe(6);
    expect(again.stderr).not.toContain("export: reused the stored bundle");
    expect(again.stderr).toContain("src/settings.ts:1: aws-access-token");
    expect(calls(counter)).toBe(1);
  });
});
