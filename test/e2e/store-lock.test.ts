// One writer at a time: concurrent merges, merges racing drops, a lock held by a stopped process,
// a stale lock, and a review killed while it waited for its worker.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { configureWorker, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { mergeStoppedByCtrlC, startZombie, stopped } from "../helpers/processes.js";
import { BIN, createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

function lines(replaced: Record<number, string> = {}): string {
  return Array.from({ length: 10 }, (_, i) => `${replaced[i + 1] ?? `l${i + 1}`}\n`).join("");
}

function changeLine9(path: string, to: string): string {
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -6,5 +6,5 @@\n l6\n l7\n l8\n-l9\n+${to}\n l10\n`;
}

/** A committed a.txt and b.txt, and workers "a" and "b" that each propose a change to one of them. */
function twoWorkerRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("a.txt", lines());
  repo.write("b.txt", lines());
  repo.commit("base");
  for (const name of ["a", "b"]) {
    const file = join(repo.home, `${name}.diff`);
    writeFileSync(file, changeLine9(`${name}.txt`, `l9 by ${name}`));
    configureWorker(repo, name, shellWords("node", RESULT_WORKER, "--diff", file));
  }
  return repo;
}

function review(repo: TestRepo, worker: string, extra: string[] = []): { id: string; branch: string } {
  const run = repo.run(["--all", "--worker", worker, "--no-cache", "--json", ...extra]);
  expect(run.status, run.stderr).toBe(0);
  const { id, branch } = JSON.parse(run.stdout);
  return { id, branch };
}

interface Started {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function start(repo: TestRepo, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn("node", [BIN, ...args], { cwd: repo.dir, env: { ...repo.env, ...env } });
  child.stdin?.end();
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

const BUSY =
  /^git-review-remote: another git-review-remote is running \(pid \d+: (merge|drop) [0-9a-f]{12}\)$/m;

/** The index and the work tree agree with HEAD: nothing half-applied. */
function expectNothingHalfApplied(repo: TestRepo, label: string): void {
  expect(repo.git("status", "--porcelain=v1", "--untracked-files=no"), label).toBe("");
  expect(repo.git("diff-index", "--cached", "HEAD"), label).toBe("");
}

function isAncestor(repo: TestRepo, commit: string): boolean {
  try {
    repo.git("merge-base", "--is-ancestor", commit, "HEAD");
    return true;
  } catch {
    return false;
  }
}

describe("one writer at a time", () => {
  it("30 pairs of concurrent merges: one waits for the other, never a half-applied index", async () => {
    const repo = twoWorkerRepo();
    const base = repo.git("rev-parse", "HEAD").trim();
    const a = review(repo, "a");
    const b = review(repo, "b");
    const tips = {
      [a.id]: repo.git("rev-parse", a.branch).trim(),
      [b.id]: repo.git("rev-parse", b.branch).trim(),
    };
    for (let pair = 0; pair < 30; pair++) {
      repo.git("reset", "-q", "--hard", base);
      const runs = [start(repo, ["merge", a.id]), start(repo, ["merge", b.id])];
      const results = await Promise.all(runs.map((run) => run.done));
      expectNothingHalfApplied(repo, `pair ${pair}`);
      for (const [i, id] of [a.id, b.id].entries()) {
        const result = results[i] as Awaited<Started["done"]>;
        if (result.code === 0) expect(isAncestor(repo, tips[id] as string), `pair ${pair}: ${id}`).toBe(true);
        else {
          expect(result.code, result.stderr).toBe(1);
          expect(result.stderr).toMatch(BUSY);
          expect(isAncestor(repo, tips[id] as string)).toBe(false);
        }
      }
      expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(
        isAncestor(repo, tips[a.id] as string) ? lines({ 9: "l9 by a" }) : lines(),
      );
    }
  });

  it("10 pairs of concurrent work-tree merges: every file whole, no journal left pending", async () => {
    const repo = twoWorkerRepo();
    const local = lines({ 1: "l1 local" });
    repo.write("a.txt", local);
    repo.write("b.txt", local);
    const a = review(repo, "a", ["--worktree"]);
    const b = review(repo, "b", ["--worktree"]);
    const index = repoState(repo).index;
    for (let pair = 0; pair < 10; pair++) {
      repo.write("a.txt", local);
      repo.write("b.txt", local);
      const results = await Promise.all(
        [start(repo, ["merge", a.id]), start(repo, ["merge", b.id])].map((run) => run.done),
      );
      for (const [i, name] of ["a", "b"].entries()) {
        const result = results[i] as Awaited<Started["done"]>;
        const expected = result.code === 0 ? lines({ 1: "l1 local", 9: `l9 by ${name}` }) : local;
        if (result.code !== 0) expect(result.stderr, `pair ${pair}`).toMatch(BUSY);
        expect(readFileSync(join(repo.dir, `${name}.txt`), "utf8"), `pair ${pair}`).toBe(expected);
      }
      expect(readdirSync(repo.dir).filter((name) => name.startsWith(".rr-"))).toEqual([]);
      expect(existsSync(join(repo.dir, ".git", "review-remote", "merge-journal.json"))).toBe(false);
      expect(repoState(repo).index).toBe(index);
    }
  });

  it("merge racing drop: the merge is whole or absent, and the drop happens or says why", async () => {
    const repo = twoWorkerRepo();
    const base = repo.git("rev-parse", "HEAD").trim();
    for (let race = 0; race < 8; race++) {
      repo.git("reset", "-q", "--hard", base);
      const { id, branch } = review(repo, "a");
      const tip = repo.git("rev-parse", branch).trim();
      const runs =
        race % 2
          ? [start(repo, ["merge", id]), start(repo, ["drop", id])]
          : [start(repo, ["drop", id]), start(repo, ["merge", id])];
      const [merge, drop] = await Promise.all((race % 2 ? runs : [...runs].reverse()).map((run) => run.done));
      expectNothingHalfApplied(repo, `race ${race}`);
      if (merge?.code === 0) expect(isAncestor(repo, tip)).toBe(true);
      else {
        expect(merge?.stderr).toMatch(
          new RegExp(`${BUSY.source}|review ${id} has no proposals to merge \\(dropped\\)`, "m"),
        );
        expect(repo.git("rev-parse", "HEAD").trim()).toBe(base);
      }
      if (drop?.code === 0) expect(repo.git("for-each-ref", `refs/heads/${branch}`)).toBe("");
      else expect(drop?.stderr).toMatch(BUSY);
    }
  });

  it("refuses after a short wait while another holds the lock, then works once it is gone", async () => {
    const repo = twoWorkerRepo();
    repo.write("a.txt", lines({ 1: "l1 local" }));
    const { id } = review(repo, "a", ["--worktree"]);
    const paused = start(repo, ["merge", id], { REVIEW_REMOTE_TEST_MERGE_SIGNAL: "1:STOP" });
    await stopped(paused.child.pid as number);
    const before = repoState(repo);
    const refused = repo.run(["drop", id]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `git-review-remote: another git-review-remote is running (pid ${paused.child.pid}: merge ${id})`,
    );
    expect(refused.stderr).toContain(
      "hint: try again when it has finished; if no git-review-remote is running, remove ",
    );
    expect(repoState(repo)).toEqual(before);
    // SIGKILL: the lock's process is gone, so the next command takes it over at once.
    paused.child.kill("SIGKILL");
    await paused.done;
    const listed = repo.run(["list"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stderr).toContain(`warning: the merge of review ${id} into ${repo.dir} was interrupted`);
    expect(repo.run(["merge", "--continue", id]).status).toBe(0);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines({ 1: "l1 local", 9: "l9 by a" }));
  });

  it("takes over a lock left before a reboot or by a dead process, and honours a fresh one", () => {
    const repo = twoWorkerRepo();
    const { id } = review(repo, "a");
    const lock = join(repo.dir, ".git", "review-remote", "lock");
    const host = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
    const since = new Date().toISOString();
    // pid 1 is alive, but the lock was taken in another boot.
    writeFileSync(lock, JSON.stringify({ pid: 1, host, boot: "another-boot", command: "merge x", since }));
    expect(repo.run(["drop", id]).status).toBe(0);
    expect(existsSync(lock)).toBe(false);
    const { id: second } = review(repo, "b");
    writeFileSync(
      lock,
      JSON.stringify({
        pid: 999_999_999,
        host,
        boot: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
        command: "drop y",
        since,
      }),
    );
    expect(repo.run(["drop", second]).status).toBe(0);
    // pid 1 on this boot, but it started at another time than the lock's process: a reused pid.
    const { id: third } = review(repo, "a");
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    writeFileSync(lock, JSON.stringify({ pid: 1, host, boot, start: "-1", command: "drop w", since }));
    expect(repo.run(["drop", third]).status).toBe(0);
    // Another host, just now: it cannot be checked, so it is waited for, then refused.
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere", boot: "b", command: "merge z", since }));
    const refused = repo.run(["merge", second]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("another git-review-remote is running (pid 1 on elsewhere: merge z)");
    expect(existsSync(lock)).toBe(true);
  });
});

describe("an owner that has ended but is not reaped (a zombie)", () => {
  it("has its lock taken over, its review marked interrupted and its merge reported interrupted", async () => {
    const repo = twoWorkerRepo();
    repo.write("a.txt", lines({ 1: "l1 local" }));
    const { id } = review(repo, "a", ["--worktree"]);
    const { id: sent } = review(repo, "b");
    const store = join(repo.dir, ".git", "review-remote");
    // A merge killed after its first file: its journal is pending, its lock left behind.
    const killed = start(repo, ["merge", id], { REVIEW_REMOTE_TEST_MERGE_SIGNAL: "1:STOP" });
    await stopped(killed.child.pid as number);
    killed.child.kill("SIGKILL");
    await killed.done;
    const zombie = await startZombie();
    try {
      // The lock, the journal and a review's running marker all name the zombie.
      const lock = join(store, "lock");
      const journal = join(store, "merge-journal.json");
      const since = new Date().toISOString();
      writeFileSync(lock, JSON.stringify({ ...zombie.owner, command: "merge x", since }));
      writeFileSync(
        journal,
        JSON.stringify({ ...JSON.parse(readFileSync(journal, "utf8")), owner: zombie.owner }),
      );
      const state = join(store, "reviews", sent, "state.json");
      writeFileSync(state, JSON.stringify({ ...JSON.parse(readFileSync(state, "utf8")), state: "sent" }));
      mkdirSync(join(store, "running"), { recursive: true });
      writeFileSync(join(store, "running", sent), JSON.stringify(zombie.owner));
      const listed = repo.run(["list", "--json"]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stderr).toContain(`warning: the merge of review ${id} into ${repo.dir} was interrupted`);
      expect(listed.stderr).toContain(`warning: review ${sent} was interrupted`);
      expect(JSON.parse(listed.stdout)).toContainEqual(
        expect.objectContaining({ id: sent, state: "failed" }),
      );
      expect(readdirSync(join(store, "running"))).toEqual([]);
      // The recovery took the lock over to mark the review: the zombie's again, merge --continue does.
      expect(existsSync(lock)).toBe(false);
      writeFileSync(lock, JSON.stringify({ ...zombie.owner, command: "merge x", since }));
      const continued = repo.run(["merge", "--continue", id]);
      expect(continued.status, continued.stderr).toBe(0);
      expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines({ 1: "l1 local", 9: "l9 by a" }));
      expect(existsSync(lock)).toBe(false);
    } finally {
      zombie.release();
    }
  });
});

describe("a review killed while it waits for its worker", () => {
  it("stays sent while its process lives, and becomes failed (interrupted) on the next command", async () => {
    const repo = twoWorkerRepo();
    const pidFile = join(repo.home, "worker.pid");
    configureWorker(repo, "slow", `echo $$ > ${shellWords(pidFile)}; exec sleep 60`);
    const running = start(repo, ["--worker", "slow"]);
    const store = join(repo.dir, ".git", "review-remote");
    while (!existsSync(pidFile)) await sleep(20);
    const [id] = readdirSync(join(store, "running"));
    const waiting = JSON.parse(repo.run(["list", "--json"]).stdout);
    expect(waiting).toMatchObject([{ id, state: "sent" }]);
    const refused = repo.run(["import", join(repo.home, "none.json"), "--request", id as string]);
    expect(refused.stderr).toContain(
      `review ${id} is still waiting for its worker (pid ${running.child.pid})`,
    );
    running.child.kill("SIGKILL");
    await running.done;
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    const listed = repo.run(["list", "--json"]);
    expect(listed.stderr).toBe(
      `warning: review ${id} was interrupted (its git-review-remote process ended); marked failed\n`,
    );
    expect(JSON.parse(listed.stdout)).toMatchObject([
      {
        id,
        state: "failed",
        problems: [
          `interrupted: the git-review-remote process (pid ${running.child.pid}) that sent it ended before the answer`,
        ],
      },
    ]);
    expect(readdirSync(join(store, "running"))).toEqual([]);
    expect(repo.run(["list"]).stderr).toBe("");
  });
});

describe("a commit-snapshot merge git fails half way", () => {
  it("rolls the index and the work tree back when the branch is locked by another git", () => {
    const repo = twoWorkerRepo();
    const { id } = review(repo, "a");
    const lock = join(repo.dir, ".git", "refs", "heads", "main.lock");
    writeFileSync(lock, "");
    const failed = runUnchanged(repo, ["merge", id], 1);
    expect(failed.stderr).toMatch(
      /^git-review-remote: git merge failed: .*main\.lock.*; nothing was changed$/m,
    );
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe(lines());
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "imported"');
  });

  it("says interrupted (exit 130) when Ctrl-C stops git merge, and rolls it back", async () => {
    const repo = twoWorkerRepo();
    const { id } = review(repo, "a");
    repo.write("c.txt", "c\n");
    repo.commit("not a fast-forward");
    const { head, refs, index, status } = repoState(repo);
    const { code, stderr } = await mergeStoppedByCtrlC(repo, BIN, id, "merging");
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/^git-review-remote: interrupted; nothing was changed$/m);
    expect(stderr).not.toContain("merging");
    expect(repoState(repo)).toMatchObject({ head, refs, index, status });
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "imported"');
  });
});
