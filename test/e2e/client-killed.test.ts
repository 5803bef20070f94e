// The client killed outright (SIGKILL: no handler runs) while a configured worker command reviews:
// the command runs through `sh -c`, and a shell that stays its parent (dash does not exec the last
// command) would keep the worker from ever seeing its client gone.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configureWorker, shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";
import { processesWith } from "../integration/worker-helpers.js";

const repos = repoTracker();
let token = "";
afterEach(() => {
  // A failed run must not leave its reviewer sleeping for the hour.
  if (token) spawnSync("pkill", ["-KILL", "-f", token]);
});

async function waitUntil(condition: () => boolean, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 5 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 200));
}

/** A directory of its own for the workers' workspaces, as a host with a scratch disk sets it. */
function workspaceDir(repo: TestRepo): string {
  const dir = join(repo.home, "workspaces");
  mkdirSync(dir);
  return dir;
}

describe("a client killed with SIGKILL", () => {
  it("takes its configured worker's reviewer with it, and the workspace's mount point", async () => {
    const repo = repos.add(createTestRepo());
    repo.write("a.txt", "a\n");
    repo.commit();
    const workspaces = workspaceDir(repo);
    // A sleep no other process has on its command line, to find the reviewer by.
    token = `3599.${process.pid}${Date.now() % 100000}`;
    const worker = shellWords(process.execPath, BIN, "worker", "--reviewer-command", `exec sleep ${token}`);
    configureWorker(repo, "box", `REVIEW_REMOTE_WORKER_TMPDIR=${shellWords(workspaces)} ${worker}`);
    const client = spawn(process.execPath, [BIN, "--worker", "box", "-q"], {
      cwd: repo.dir,
      env: repo.env,
      stdio: "ignore",
    });
    const closed = new Promise((resolve) => client.on("close", (_code, signal) => resolve(signal)));
    await waitUntil(() => processesWith(`sleep\0${token}`).length > 0, 60);
    expect(processesWith(`sleep\0${token}`)).toHaveLength(1);
    expect(readdirSync(workspaces)).toHaveLength(1);
    client.kill("SIGKILL");
    expect(await closed).toBe("SIGKILL");
    // The worker sees its parent gone (it looks once a second) and stops its reviewer.
    await waitUntil(() => processesWith(`sleep\0${token}`).length === 0, 30);
    expect(processesWith(`sleep\0${token}`)).toEqual([]);
    // Killed with its group by the client's guard, the worker leaves its empty mount point to the
    // guard of its namespaces, which removes it.
    await waitUntil(() => readdirSync(workspaces).length === 0, 30);
    expect(readdirSync(workspaces)).toEqual([]);
  });

  it("leaves no workspace of the built-in worker it started", async () => {
    const repo = repos.add(createTestRepo());
    token = `3599.${process.pid}${Date.now() % 100000}`;
    // A clean filter as slow as a large-file one: the snapshot of the work tree waits on it, with
    // the built-in worker already started.
    repo.write(".gitattributes", "*.dat filter=slow\n");
    repo.write("a.dat", "a\n");
    repo.commit();
    repo.git("config", "filter.slow.clean", `sleep ${token}; cat`);
    repo.write("a.dat", "b\n");
    const workspaces = workspaceDir(repo);
    const client = spawn(process.execPath, [BIN, "--worktree", "-q"], {
      cwd: repo.dir,
      env: { ...repo.env, REVIEW_REMOTE_WORKER_TMPDIR: workspaces },
      stdio: "ignore",
    });
    const closed = new Promise((resolve) => client.on("close", (_code, signal) => resolve(signal)));
    await waitUntil(() => processesWith(`sleep ${token}`).length > 0, 60);
    expect(readdirSync(workspaces)).toHaveLength(1);
    client.kill("SIGKILL");
    expect(await closed).toBe("SIGKILL");
    await waitUntil(() => readdirSync(workspaces).length === 0, 30);
    expect(readdirSync(workspaces)).toEqual([]);
  });
});
