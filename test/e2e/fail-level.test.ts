// `--fail-level`: a review exits 7 when a finding it reported (after the filter) is at or above the
// level; everything is imported as usual, and the findings the filter hid never count.
import { describe, expect, it } from "vitest";
import { okResult, useResultWorker } from "../helpers/fixtures.js";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/** A repo whose last commit changes a.txt, and a worker commenting on a.txt and on the unchanged b.txt. */
function reviewedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("a.txt", "one\n");
  repo.write("b.txt", "two\n");
  repo.commit("base");
  repo.write("a.txt", "one\nadded\n");
  repo.commit("change");
  useResultWorker(
    repo,
    okResult("Two findings.", [
      { path: "a.txt", line: 2, severity: "warning", message: "On the added line." },
      { path: "b.txt", line: 1, severity: "error", message: "Outside the change." },
    ]),
  );
  return repo;
}

describe("--fail-level", () => {
  it("exits 7 on a reported finding at or above the level, 0 below it or with none", () => {
    const repo = reviewedRepo();
    expect(repo.run([]).status).toBe(0);
    const warned = repo.run(["--fail-level", "warning"]);
    expect(warned.status, warned.stderr).toBe(7);
    expect(warned.stdout).toContain("a.txt:2 warning On the added line.");
    expect(warned.stderr).toContain("git-review-remote: 1 finding at or above warning (fail level warning)");
    expect(repo.run(["--fail-level", "info"]).status).toBe(7);
    // The error on b.txt is outside the change: the filter hides it, so it does not count...
    expect(repo.run(["--fail-level", "error"]).status).toBe(0);
    // ...until the filter shows it.
    const all = repo.run(["--fail-level", "error", "--filter-mode", "nofilter", "--json"]);
    expect(all.status).toBe(7);
    expect(JSON.parse(all.stdout).comments).toHaveLength(2);
    expect(repo.run(["--fail-level", "none", "--filter-mode", "nofilter"]).status).toBe(0);
  });

  it("takes review-remote.failLevel from git config, the flag winning", () => {
    const repo = reviewedRepo();
    repo.git("config", "review-remote.failLevel", "warning");
    expect(repo.run([]).status).toBe(7);
    expect(repo.run(["--fail-level", "none"]).status).toBe(0);
    repo.git("config", "review-remote.failLevel", "loud");
    const bad = repo.run([]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      "bad config value 'loud' for review-remote.failLevel: expected none, error, warning or info",
    );
  });

  it("refuses an unknown level before anything runs (exit 2, repo unchanged)", () => {
    const repo = reviewedRepo();
    const result = runUnchanged(repo, ["--fail-level", "critical"], 2);
    expect(result.stderr).toContain("--fail-level must be none, error, warning or info, not 'critical'");
  });
});
