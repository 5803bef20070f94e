// The version check against the git on PATH: it passes there, and a git that failed of an option it
// does not know is still said as it failed.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { git, verifyGitVersion } from "../../src/git/run.js";
import { isSupportedGit, parseGitVersion } from "../../src/git/version.js";
import { createTestRepo, repoState, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();

describe("the git on PATH", () => {
  it("names a version at or above the floor", () => {
    const version = parseGitVersion(execFileSync("git", ["version"], { encoding: "utf8" }));
    expect(version).toBeDefined();
    expect(isSupportedGit(version as NonNullable<typeof version>)).toBe(true);
  });

  it("passes the check", async () => {
    const repo = repos.add(createTestRepo());
    await expect(verifyGitVersion({ cwd: repo.dir, env: repo.env })).resolves.toBeUndefined();
  });

  it("refusing an option it does not know is its own failure, not the version's", async () => {
    const repo = repos.add(createTestRepo());
    const before = repoState(repo);
    const run = { cwd: repo.dir, env: repo.env, allowFailure: true };
    const result = await git(["worktree", "list", "--no-such-option"], run);
    expect(result.exitCode).toBe(129);
    expect(result.stderr).toContain("unknown option `no-such-option'");
    await expect(
      git(["worktree", "list", "--no-such-option"], { ...run, allowFailure: false }),
    ).rejects.toThrow("git worktree failed: error: unknown option `no-such-option'");
    expect(repoState(repo)).toEqual(before);
  });
});
