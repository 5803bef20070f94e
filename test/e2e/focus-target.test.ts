// What a review with no revision reviews, as users run it: the request's range, read back from
// the store, in each shape a repository can be in.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const ECHO = join(FIXTURES, "workers", "echo-worker.mjs");
const repos = repoTracker();

function newRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  configureWorker(repo, "echo", shellWords("node", ECHO));
  repo.git("config", "review-remote.worker", "echo");
  return repo;
}

interface Stored {
  snapshot: { commit: string; kind: string };
  range: { base: string; head: string; paths: string[]; patch: string } | null;
}

/** Runs a review and reads back the request it sent, from the store. */
function review(repo: TestRepo, args: string[] = []): { request: Stored; stdout: string; stderr: string } {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  const { id } = JSON.parse(result.stdout);
  const gitDir = repo.git("rev-parse", "--absolute-git-dir").trim();
  const request = JSON.parse(
    readFileSync(join(gitDir, "review-remote", "reviews", id, "request.json"), "utf8"),
  );
  return { request, stdout: result.stdout, stderr: result.stderr };
}

const rev = (repo: TestRepo, name: string) => repo.git("rev-parse", name).trim();

/** Three commits on main, the first pushed to a bare `origin` and tracked as upstream. */
function repoWithUpstream(): TestRepo {
  const repo = newRepo();
  const bare = join(repo.home, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", bare], { env: repo.env });
  repo.git("remote", "add", "origin", bare);
  repo.write("a.txt", "a\n");
  repo.commit("pushed");
  repo.git("push", "-q", "-u", "origin", "main");
  repo.write("b.txt", "b\n");
  repo.commit("ahead 1");
  repo.write("c.txt", "c\n");
  repo.commit("ahead 2");
  return repo;
}

describe("the default target", () => {
  it("is every commit ahead of the upstream when HEAD is ahead of it", () => {
    const repo = repoWithUpstream();
    const { request, stdout } = review(repo);
    expect(request.range).toMatchObject({ base: rev(repo, "origin/main"), head: rev(repo, "HEAD") });
    expect(request.range?.paths).toEqual(["b.txt", "c.txt"]);
    expect(JSON.parse(stdout).target).toEqual({
      kind: "upstream",
      base: rev(repo, "origin/main"),
      head: rev(repo, "HEAD"),
      upstream: "origin/main",
      ahead: 2,
    });
    const text = repo.run(["--no-cache"]);
    expect(text.stdout).toMatch(
      /^Reviewing the 2 commits ahead of origin\/main \([0-9a-f]{10}\.\.[0-9a-f]{10}\)$/m,
    );
  });

  it("is the last commit when HEAD is level with its upstream, has none, or is detached", () => {
    const repo = repoWithUpstream();
    repo.git("push", "-q", "origin", "main");
    expect(review(repo).request.range).toMatchObject({ base: rev(repo, "HEAD^"), paths: ["c.txt"] });
    repo.git("branch", "--unset-upstream");
    expect(review(repo, ["--no-cache"]).request.range).toMatchObject({ base: rev(repo, "HEAD^") });
    repo.git("branch", "--set-upstream-to=origin/main");
    repo.git("checkout", "-q", "--detach", "HEAD^");
    const detached = review(repo).request;
    expect(detached.range).toMatchObject({
      base: rev(repo, "HEAD^"),
      head: rev(repo, "HEAD"),
      paths: ["b.txt"],
    });
  });

  it("is the change of a named commit; the whole tree with --all or for a root commit", () => {
    const repo = repoWithUpstream();
    expect(review(repo, ["HEAD~1"]).request.range).toMatchObject({
      base: rev(repo, "HEAD~2"),
      head: rev(repo, "HEAD~1"),
      paths: ["b.txt"],
    });
    const all = review(repo, ["--all"]);
    expect(all.request.range).toBeNull();
    expect(all.request.snapshot.commit).toBe(rev(repo, "HEAD"));
    expect(JSON.parse(all.stdout).target).toMatchObject({ kind: "all", base: null });
    expect(review(repo, ["--all", "HEAD~1"]).request.snapshot.commit).toBe(rev(repo, "HEAD~1"));
    const root = newRepo();
    root.write("a.txt", "a\n");
    root.commit("root");
    const rootReview = review(root);
    expect(rootReview.request.range).toBeNull();
    expect(root.run([]).stdout).toContain("Reviewing the whole tree of");
  });

  it("is the uncommitted changes against HEAD with --worktree, and the whole work tree with --all", () => {
    const repo = repoWithUpstream();
    repo.write("a.txt", "a changed\n");
    repo.write("new.txt", "new\n");
    const { request } = review(repo, ["--worktree"]);
    expect(request.snapshot.kind).toBe("worktree");
    expect(request.range).toMatchObject({ base: rev(repo, "HEAD"), head: request.snapshot.commit });
    expect(request.range?.paths).toEqual(["a.txt", "new.txt"]);
    expect(request.range?.patch).toContain("+a changed");
    expect(review(repo, ["--worktree", "--all"]).request.range).toBeNull();
  });

  it("refuses --all with a range and --worktree with a revision, changing nothing", () => {
    const repo = repoWithUpstream();
    const before = repoState(repo);
    const range = repo.run(["--all", "HEAD~2..HEAD"]);
    expect(range.status).toBe(2);
    expect(range.stderr).toContain("--all reviews the whole tree of one commit, not a range");
    const worktree = repo.run(["--worktree", "HEAD"]);
    expect(worktree.status).toBe(2);
    expect(worktree.stderr).toContain("--worktree snapshots the work tree; it takes no revision: HEAD\n");
    expect(repoState(repo)).toEqual(before);
  });
});

describe("a shallow clone", () => {
  /** A depth-1 clone of a three-commit repository, tracking its main. */
  function shallowClone(): { origin: TestRepo; clone: TestRepo } {
    const origin = repos.add(createTestRepo());
    for (const name of ["a", "b", "c"]) {
      origin.write(`${name}.txt`, `${name}\n`);
      origin.commit(name);
    }
    const clone = repos.add(createTestRepo({ init: false }));
    execFileSync("git", ["clone", "-q", "--depth=1", `file://${origin.dir}`, clone.dir], { env: clone.env });
    configureWorker(clone, "echo", shellWords("node", ECHO));
    clone.git("config", "review-remote.worker", "echo");
    return { origin, clone };
  }

  it("reviews the whole tree when HEAD's parent is missing, and says how to fetch it", () => {
    const { clone } = shallowClone();
    const { request, stderr } = review(clone);
    expect(request.range).toBeNull();
    expect(stderr).toMatch(/warning: the parent of [0-9a-f]{12} is not in this shallow clone/);
    expect(stderr).toContain("hint: fetch the missing history, then review again: git fetch --deepen=<n>");
    clone.git("fetch", "-q", "--deepen=1");
    expect(review(clone, ["--no-cache"]).request.range).toMatchObject({ paths: ["c.txt"] });
  });

  it("reviews the last commit when the history shared with the upstream is missing", () => {
    const { origin, clone } = shallowClone();
    origin.write("d.txt", "d\n");
    origin.commit("d");
    clone.write("local.txt", "mine\n");
    clone.commit("local");
    clone.git("fetch", "-q", "--depth=1", "origin", "main");
    const { request, stderr } = review(clone);
    expect(stderr).toContain("the history shared with origin/main is not in this shallow clone");
    expect(request.range).toMatchObject({ base: rev(clone, "HEAD^"), paths: ["local.txt"] });
  });

  it("answers a revision older than its history with a hint that the clone is shallow", () => {
    const { clone } = shallowClone();
    const refused = runUnchanged(clone, ["HEAD~2..HEAD"], 2);
    expect(refused.stderr).toContain("git-review-remote: unknown revision: HEAD~2");
    expect(refused.stderr).toContain(
      "hint: this clone is shallow: an older commit may be missing (git fetch --deepen=<n> fetches more)",
    );
    const full = repos.add(createTestRepo());
    full.write("a.txt", "a\n");
    full.commit("a");
    expect(runUnchanged(full, ["HEAD~2..HEAD"], 2).stderr).not.toContain("shallow");
  });
});
