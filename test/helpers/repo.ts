// Real git repositories in temp dirs, with a clean, deterministic environment for every child git.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, afterEach, expect } from "vitest";

export const PROJECT_ROOT = resolve(import.meta.dirname, "..", "..");
export const BIN = join(PROJECT_ROOT, "bin", "git-review-remote.js");

/** The process env less every GIT_* variable (a test run from a hook must not write the dev's repo). */
export function testEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("GIT_") && key !== "NO_COLOR" && !key.startsWith("REVIEW_REMOTE_")) env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.invalid",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.invalid",
    GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
    ...extra,
  };
}

export interface TestRepo {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  git(...args: string[]): string;
  write(path: string, content: string | Buffer): void;
  commit(message?: string): string;
  /** Run the built CLI as `git review-remote ...` through git itself. */
  /** `env` is laid over the test's; a variable given as undefined is removed. */
  run(
    args: string[],
    options?: { cwd?: string; env?: Record<string, string | undefined>; input?: string },
  ): RunResult;
  cleanup(): void;
}

interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

let binDir: string | undefined;
// One per test file (each file has its own copy of this module), removed after its tests.
afterAll(() => {
  if (binDir) rmSync(binDir, { recursive: true, force: true });
  binDir = undefined;
});

/** A PATH entry holding `git-review-remote`, so `git review-remote` finds the built CLI. */
function binPath(): string {
  if (!binDir) {
    binDir = mkdtempSync(join(tmpdir(), "rr-bin-"));
    writeFileSync(join(binDir, "git-review-remote"), `#!/bin/sh\nexec "${BIN}" "$@"\n`, { mode: 0o755 });
  }
  return binDir;
}

export function createTestRepo(
  options: { bare?: boolean; init?: boolean; name?: string; objectFormat?: "sha1" | "sha256" } = {},
): TestRepo {
  const root = mkdtempSync(join(tmpdir(), "rr-test-"));
  const home = join(root, "home");
  const dir = join(root, options.name ?? "repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const env = testEnv(home, { PATH: `${binPath()}:${process.env.PATH}` });
  writeFileSync(
    join(home, ".gitconfig"),
    "[user]\n\tname = Test Author\n\temail = author@example.invalid\n[gc]\n\tauto = 0\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
  );
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8" });
  const format = options.objectFormat ? [`--object-format=${options.objectFormat}`] : [];
  if (options.init !== false) git("init", "-q", ...format, ...(options.bare ? ["--bare"] : []));
  return {
    dir,
    home,
    env,
    git,
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    commit(message = "commit") {
      git("add", "-A");
      git("commit", "-q", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    run(args, runOptions = {}) {
      const result = spawnSync("git", ["review-remote", ...args], {
        cwd: runOptions.cwd ?? dir,
        env: { ...env, ...runOptions.env },
        input: runOptions.input ?? "",
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function tryGit(repo: TestRepo, ...args: string[]): string {
  try {
    return repo.git(...args).trim();
  } catch {
    return "";
  }
}

/** Everything a failed command must leave as it was: HEAD, refs, index bytes, status, objects. */
export function repoState(repo: TestRepo): Record<string, string> {
  const indexPath = join(repo.git("rev-parse", "--git-dir").trim(), "index");
  let index = "none";
  try {
    index = createHash("sha256")
      .update(readFileSync(resolve(repo.dir, indexPath)))
      .digest("hex");
  } catch {}
  const objects = repo.git("count-objects", "-v");
  const count = (key: string) =>
    /^(\w[\w-]*): (\d+)$/m.exec(objects.split("\n").find((l) => l.startsWith(`${key}:`)) ?? "")?.[2];
  return {
    head: tryGit(repo, "rev-parse", "--verify", "--quiet", "HEAD") || "none",
    symbolicHead: readFileSync(
      join(resolve(repo.dir, repo.git("rev-parse", "--git-dir").trim()), "HEAD"),
      "utf8",
    ),
    refs: repo.git("for-each-ref", "--format=%(refname) %(objectname)"),
    index,
    status: repo.git(
      "--no-optional-locks",
      "status",
      "--porcelain=v1",
      "-z",
      "--untracked-files=all",
      "--ignored",
    ),
    objects: `${count("count")} loose, ${count("in-pack")} packed`,
  };
}

/**
 * Runs `git review-remote args`, which must exit with `status` and leave the repository as it was (a
 * refusal, a failure, a dry run).
 */
export function runUnchanged(
  repo: TestRepo,
  args: string[],
  status: number,
  options?: Parameters<TestRepo["run"]>[1],
): RunResult {
  const before = repoState(repo);
  const result = repo.run(args, options);
  expect(result.status, result.stderr).toBe(status);
  expect(repoState(repo)).toEqual(before);
  return result;
}

/** The repos a test file makes, removed after each test. */
export function repoTracker(): { add<R extends TestRepo>(repo: R): R } {
  let repos: TestRepo[] = [];
  afterEach(() => {
    for (const repo of repos) repo.cleanup();
    repos = [];
  });
  return {
    add(repo) {
      repos.push(repo);
      return repo;
    },
  };
}

/** Two commits, the second adding trailing spaces the built-in reviewer proposes to remove. */
export function createTrailingSpaceRepo(repos: ReturnType<typeof repoTracker>): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", "export const a = 1;   \n");
  repo.commit("trailing spaces");
  return repo;
}
