// Review branches that are done with: merge deletes its own, prune the rest (merged, dropped,
// superseded), driven as a user drives them, with the local worker proposing whitespace fixes.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/** A repo whose last commit adds a line with trailing spaces: the local worker proposes a fix. */
function fixableRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", "export const a = 1;\nexport const b = 2;   \n");
  repo.commit("b, with trailing spaces");
  return repo;
}

interface Reviewed {
  id: string;
  branch: string;
  tip: string;
}

function review(repo: TestRepo, args: string[] = []): Reviewed {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  const { id, branch } = JSON.parse(result.stdout);
  expect(branch).toBe(`review/${id}`);
  return { id, branch, tip: repo.git("rev-parse", branch).trim() };
}

function record(repo: TestRepo, id: string) {
  const records = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string }[];
  return records.find((one) => one.id === id) as Record<string, unknown>;
}

function branches(repo: TestRepo): string {
  return repo.git("for-each-ref", "--format=%(refname)", "refs/heads/review/");
}

describe("merge and prune", () => {
  it("prunes merged and dropped reviews whose branches came back, and prints how to restore them", () => {
    const repo = fixableRepo();
    const merged = review(repo);
    expect(repo.run(["merge", merged.id]).status).toBe(0);
    expect(branches(repo)).toBe("");
    repo.git("branch", merged.branch, merged.tip);
    repo.write("src/c.ts", "export const c = 3; \n");
    repo.commit("c, with a trailing space");
    const dropped = review(repo);
    expect(repo.run(["drop", dropped.id]).status).toBe(0);
    repo.git("branch", dropped.branch, dropped.tip);
    const pruned = repo.run(["prune"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toBe(
      [
        `Deleted branch ${merged.branch} (merged); to restore it: git branch ${merged.branch} ${merged.tip}`,
        `Deleted branch ${dropped.branch} (dropped); the commits stay reachable until git gc; to restore it: git branch ${dropped.branch} ${dropped.tip}`,
        "",
      ].join("\n"),
    );
    expect(branches(repo)).toBe("");
    expect(record(repo, merged.id)).toMatchObject({
      state: "merged",
      branch: merged.branch,
      tip: merged.tip,
    });
    // The merge's undo point stays.
    expect(repo.git("for-each-ref", "--format=%(refname)", `refs/review-remote/${merged.id}/`)).toContain(
      "pre-merge",
    );
    expect(repo.run(["prune"]).stdout).toBe("Nothing to prune.\n");
  });

  it("prunes an older review of the same target once a newer one answered; --dry-run changes nothing", () => {
    const repo = fixableRepo();
    const older = review(repo);
    const newer = review(repo, ["--no-cache"]);
    const dry = runUnchanged(repo, ["prune", "--dry-run"], 0);
    expect(dry.stdout).toBe(`Would delete branch ${older.branch} (superseded by ${newer.id})\n`);
    const pruned = repo.run(["prune"]);
    expect(pruned.stdout).toContain(`Deleted branch ${older.branch} (superseded by ${newer.id})`);
    expect(branches(repo)).toBe(`refs/heads/${newer.branch}\n`);
    expect(record(repo, older.id)).toMatchObject({ state: "dropped", supersededBy: newer.id });
    expect(record(repo, newer.id)).toMatchObject({ state: "imported" });
  });

  it("says with --dry-run what it then does to a review it supersedes: its answer stays until the expiry", () => {
    const repo = fixableRepo();
    const older = review(repo);
    const newer = review(repo, ["--no-cache"]);
    // Past any expiry, but for this prune's own change: the superseded review is dropped just now.
    const dry = runUnchanged(repo, ["prune", "--dry-run", "--expire=now"], 0);
    expect(dry.stdout).toBe(`Would delete branch ${older.branch} (superseded by ${newer.id})\n`);
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(
      new RegExp(`^Deleted branch ${older.branch} \\(superseded by ${newer.id}\\)[^\n]*\n$`),
    );
    expect(record(repo, older.id)).toMatchObject({ state: "dropped", supersededBy: newer.id });
    expect(record(repo, older.id)).not.toHaveProperty("pruned");
  });

  it("keeps a branch someone committed on, and a review of another target", () => {
    const repo = fixableRepo();
    const whole = review(repo, ["--all"]);
    const older = review(repo);
    review(repo, ["--no-cache"]);
    repo.git("checkout", "-q", older.branch);
    repo.write("mine.txt", "my work\n");
    repo.commit("my work on the review branch");
    repo.git("checkout", "-q", "main");
    const mine = repo.git("rev-parse", older.branch).trim();
    const pruned = repo.run(["prune"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(
      new RegExp(
        `^Kept branch ${older.branch} \\(superseded by [0-9a-f]{12}\\): it has commits the review did not make\n$`,
      ),
    );
    expect(repo.git("rev-parse", older.branch).trim()).toBe(mine);
    expect(repo.git("rev-parse", whole.branch).trim()).toBe(whole.tip);
  });
});

describe("a review branch checked out in a work tree", () => {
  it("is not deleted by drop, prune or merge: HEAD would name a branch that is gone", () => {
    const repo = fixableRepo();
    const main = repo.git("rev-parse", "--abbrev-ref", "HEAD").trim();
    const checkedOut = review(repo);
    repo.git("switch", "-q", checkedOut.branch);
    const refused = runUnchanged(repo, ["drop", checkedOut.id], 1);
    expect(refused.stderr).toBe(
      `git-review-remote: branch ${checkedOut.branch} is checked out in ${repo.dir}; nothing was changed\n` +
        "hint: switch that work tree to another branch first (git switch -), then run the command again\n",
    );
    expect(record(repo, checkedOut.id).state).toBe("imported");
    // Merged from its own branch (HEAD has the proposals already): the branch stays checked out.
    const merged = repo.run(["merge", checkedOut.id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`hint: kept branch ${checkedOut.branch}: it is checked out`);
    expect(repo.git("symbolic-ref", "HEAD").trim()).toBe(`refs/heads/${checkedOut.branch}`);
    expect(repo.run(["prune"]).stdout).toBe("Nothing to prune.\n");
    expect(branches(repo).trim()).toBe(`refs/heads/${checkedOut.branch}`);
    repo.git("switch", "-q", main);
    expect(repo.run(["prune"]).stdout).toContain(`Deleted branch ${checkedOut.branch} (merged)`);
    expect(branches(repo)).toBe("");
  });

  it("names the other work tree in the hint when it is checked out there", () => {
    const repo = fixableRepo();
    const checkedOut = review(repo);
    const linked = join(repo.home, "linked tree");
    repo.git("worktree", "add", "-q", "--detach", linked);
    repo.git("-C", linked, "switch", "-q", "-c", "scratch");
    repo.git("-C", linked, "switch", "-q", checkedOut.branch);
    const refused = runUnchanged(repo, ["drop", checkedOut.id], 1);
    const hint = `git -C '${linked}' switch -`;
    expect(refused.stderr).toBe(
      `git-review-remote: branch ${checkedOut.branch} is checked out in ${linked}; nothing was changed\n` +
        `hint: switch that work tree to another branch first (${hint}), then run the command again\n`,
    );
    // As printed, from here.
    const switched = spawnSync("sh", ["-c", hint], { cwd: repo.dir, env: repo.env, encoding: "utf8" });
    expect(switched.status, switched.stderr).toBe(0);
    const dropped = repo.run(["drop", checkedOut.id]);
    expect(dropped.status, dropped.stderr).toBe(0);
    expect(branches(repo)).toBe("");
  });
});
