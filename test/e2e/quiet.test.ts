// -q as git's own: advice, progress and what a changing command did go; errors, warnings, the result
// a command is run for and --json stay.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createTrailingSpaceRepo,
  repoState,
  repoTracker,
  runUnchanged,
  type TestRepo,
} from "../helpers/repo.js";

const repos = repoTracker();

/** A repository with one imported review of its last commit; its id. */
function reviewed(): { repo: TestRepo; id: string } {
  const repo = createTrailingSpaceRepo(repos);
  const review = repo.run(["--json"]);
  expect(review.status, review.stderr).toBe(0);
  return { repo, id: (JSON.parse(review.stdout) as { id: string }).id };
}

describe("-q", () => {
  it("keeps the review's report and drops its advice", () => {
    const repo = createTrailingSpaceRepo(repos);
    repo.write("src/app.ts", "export const a = 2;\n");
    const loud = repo.run([]);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/^hint: /m);
    const quiet = repo.run(["-q", "--no-cache"]);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toMatch(/^Review [0-9a-f]{12} by local .*: 0 comments, 1 proposed commit$/m);
  });

  it("merges saying nothing, where a merge says what it did and how to undo it", () => {
    const { repo, id } = reviewed();
    const head = repo.git("rev-parse", "HEAD").trim();
    const result = repo.run(["merge", "-q", id]);
    expect(result).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(repo.git("rev-parse", "HEAD").trim()).not.toBe(head);
    expect(repo.git("branch", "--list", `review/${id}`)).toBe("");
    const other = reviewed();
    const loud = other.repo.run(["merge", other.id]);
    expect(loud.stdout).toContain(`Merged review ${other.id} into HEAD`);
    expect(loud.stderr).toMatch(/^hint: to undo: git reset --keep [0-9a-f]{40}$/m);
  });

  it("drops saying nothing, and an error still prints", () => {
    const { repo, id } = reviewed();
    expect(repo.run(["drop", "-q", id])).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(repo.git("branch", "--list", `review/${id}`)).toBe("");
    const missing = runUnchanged(repo, ["drop", "-q", "0123456789ab"], 1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/^git-review-remote: .*0123456789ab/);
  });

  it("prunes saying nothing, -n too as git clean -n -q, but --json prints its document", () => {
    const { repo, id } = reviewed();
    repo.run(["drop", id]);
    const dryRun = runUnchanged(repo, ["prune", "-nq", "--expire=now"], 0);
    expect(dryRun).toEqual({ status: 0, stdout: "", stderr: "" });
    const json = runUnchanged(repo, ["prune", "-n", "-q", "--json", "--expire=now"], 0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, reviews: [{ id }] });
    expect(repo.run(["prune", "-q", "--expire=now"])).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(repo.run(["prune", "--expire=now"]).stdout).toBe("Nothing to prune.\n");
  });

  it("installs the hook saying nothing", () => {
    const repo = createTrailingSpaceRepo(repos);
    expect(repo.run(["install-hook", "-q"])).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(join(repo.dir, ".git", "hooks", "pre-push"))).toBe(true);
    expect(repo.run(["install-hook"]).stdout).toMatch(/^The pre-push hook in .* is up to date$/m);
  });

  it("leaves export its sha256 and path alone", () => {
    const repo = createTrailingSpaceRepo(repos);
    const before = repoState(repo);
    const result = repo.run(["export", "-q"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^[0-9a-f]{64}\n\/.*\.tar\.gz\n$/);
    expect(result.stderr).toBe("");
    expect(repoState(repo)).toEqual(before);
  });

  it("is an option as parsed: a pathspec -q after -- is no -q", () => {
    const repo = createTrailingSpaceRepo(repos);
    repo.write("-q", "a file named -q\n");
    repo.commit("a file named -q");
    const result = repo.run(["export", "--", "-q"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^Exported 1 file /);
  });
});
