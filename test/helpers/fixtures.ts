// Paths of the project's own fixtures, and the base repository the diff and result corpora target.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, createTestRepo, PROJECT_ROOT, type TestRepo } from "./repo.js";

export const FIXTURES = join(PROJECT_ROOT, "test", "fixtures");
export const RESULT_WORKER = join(FIXTURES, "workers", "result-worker.mjs");

/** The deterministic repo of fixtures/diffs/make-base-repo.sh (its HEAD is always the same commit). */
export function createBaseRepo(): TestRepo {
  const repo = createTestRepo({ init: false });
  execFileSync("bash", [join(FIXTURES, "diffs", "make-base-repo.sh"), repo.dir], {
    env: repo.env,
    stdio: "ignore",
  });
  return repo;
}

/** Configure a worker the way users do: a command in git config. */
export function configureWorker(repo: TestRepo, name: string, command: string): void {
  repo.git("config", `review-remote.${name}.command`, command);
}

/**
 * The built-in worker (this package's, a local subprocess) running `reviewer` as its reviewer command,
 * configured as worker `name` and made the default, as a user would set it up.
 */
export function useReviewerWorker(repo: TestRepo, name: string, reviewer: string): void {
  const worker = shellWords(
    process.execPath,
    BIN,
    "worker",
    "--tools",
    dirname(reviewer),
    "--reviewer-command",
    reviewer,
  );
  configureWorker(repo, name, worker);
  repo.git("config", "review-remote.worker", name);
}

export function shellWords(...words: string[]): string {
  return words.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
}

/**
 * A worker's "ok" result for any request: the result worker fills in the request's id and bundle hash
 * where the placeholders stand.
 */
export function okResult(summary: string, comments: object[] = [], commits: object[] = []): string {
  return JSON.stringify({
    schema: "git-review-remote/result@1",
    requestId: "@REQUEST_ID@",
    bundleSha256: "@BUNDLE_SHA256@",
    status: "ok",
    summary,
    worker: { name: "fixture", version: "1", sandbox: "none" },
    comments,
    commits,
  });
}

/** The repo's default worker, `fake`: the result worker answering every request with `result`. */
export function useResultWorker(repo: TestRepo, result: string): void {
  const file = join(repo.home, "result.json");
  writeFileSync(file, result);
  configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, file));
  repo.git("config", "review-remote.worker", "fake");
}

/**
 * A `mount` that refuses, written in `dir`: the PATH of a machine whose namespaces can be made but
 * not a tmpfs in them (mount's reason ends in "(fixture)"), before `base` (a test repo's PATH, which
 * holds the built CLI; this process's own PATH by default).
 */
export function refusingMountPath(dir: string, base = process.env.PATH): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mount"), "#!/bin/sh\necho 'mount: permission denied (fixture)' >&2\nexit 32\n", {
    mode: 0o755,
  });
  return `${dir}:${base}`;
}
