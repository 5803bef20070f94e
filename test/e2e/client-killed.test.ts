// The client killed outright (SIGKILL: no handler runs) while a configured worker command reviews:
// the command runs through `sh -c`, and a shell that stays its parent (dash does not exec the last
// command) would keep the worker from ever seeing its client gone.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
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
/** The client reviewing on worker "box", once its reviewer (the sleep of `token`) runs; its close's signal. */
async function startUntilReviewer(repo: TestRepo) {
  const client = spawn(process.execPath, [BIN, "--worker", "box", "-q"], {
    cwd: repo.dir,
    env: repo.env,
    stdio: "ignore",
  });
  const closed = new Promise((resolve) => client.on("close", (_code, signal) => resolve(signal)));
  await waitUntil(() => processesWith(`sleep\0${token}`).length > 0, 60);
  expect(processesWith(`sleep\0${token}`)).toHaveLength(1);
  return { client, closed };
}

/** Kills the client; then its reviewer (the sleep of `token`) ends and no workspace is left. */
async function killAndExpectNothingLeft(client: ChildProcess, closed: Promise<unknown>, workspaces: string) {
  client.kill("SIGKILL");
  expect(await closed).toBe("SIGKILL");
  await waitUntil(() => processesWith(`sleep\0${token}`).length === 0, 30);
  expect(processesWith(`sleep\0${token}`)).toEqual([]);
  await waitUntil(() => readdirSync(workspaces).length === 0, 30);
  expect(readdirSync(workspaces)).toEqual([]);
}

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
    const { client, closed } = await startUntilReviewer(repo);
    expect(readdirSync(workspaces)).toHaveLength(1);
    // The worker sees its parent gone (it looks once a second) and stops its reviewer. Killed with its
    // group by the client's guard, it leaves its empty mount point to the guard of its namespaces,
    // which removes it.
    await killAndExpectNothingLeft(client, closed, workspaces);
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

/** A wrapper that starts the worker in a session of its own and exits, as a runtime hands it on. */
const HANDOFF = join(FIXTURES, "workers", "handoff.sh");

// Its stdout the client's socket, or a pipe to a process that passes the answer on (as a
// runtime's relay does): a socket's other end closes with the client, a pipe's reader goes with
// the client's guard.
describe.each([
  ["a socket", ""],
  ["a pipe", " | cat"],
])("a worker command whose wrapper hands the worker on and exits, its stdout %s", (_kind, relay) => {
  /** The worker, under the wrapper, with `reviewer`; its workspaces in a directory of the repo's. */
  function handedOn(repo: TestRepo, reviewer: string): string {
    const workspaces = workspaceDir(repo);
    const worker = shellWords("sh", HANDOFF, process.execPath, BIN, "worker", "--reviewer-command", reviewer);
    configureWorker(repo, "box", `REVIEW_REMOTE_WORKER_TMPDIR=${shellWords(workspaces)} ${worker}${relay}`);
    return workspaces;
  }

  it("reviews on after its wrapper is gone: the client still reads its answer", () => {
    const repo = repos.add(createTestRepo());
    repo.write("a.txt", "a\n");
    repo.commit();
    // Longer than the worker takes to look at its ancestors again once the wrapper has exited.
    const comment = JSON.stringify({ severity: "info", message: "looked" });
    handedOn(repo, `sleep 4; printf '%s\\n' '${comment}' >> "$REVIEW_REMOTE_COMMENTS"`);
    const review = repo.run(["--worker", "box", "--json"]);
    expect(review.status, review.stderr).toBe(0);
    expect(JSON.parse(review.stdout).comments).toEqual([expect.objectContaining({ message: "looked" })]);
  });

  it("still stops when the client is killed: its answer's reader is gone", async () => {
    const repo = repos.add(createTestRepo());
    repo.write("a.txt", "a\n");
    repo.commit();
    token = `3599.${process.pid}${Date.now() % 100000}`;
    const workspaces = handedOn(repo, `exec sleep ${token}`);
    const { client, closed } = await startUntilReviewer(repo);
    // In a session of its own, the worker is out of the reach of the client's guard: it sees the
    // other end of its stdout closed, and stops its reviewer and removes its workspace.
    await killAndExpectNothingLeft(client, closed, workspaces);
  });
});

// The worker under another uid than its relay's (a runtime's relay as root, the worker as nobody):
// /proc hides the relay's fds from it, so after the hand-off it cannot see who reads its answer.
// Nor can it look into the host's daemons (root's), which must not count as that reader: over ssh,
// a worker run as a user could then never see its client gone.
describe("a handed-on worker that cannot see its stdout's reader (another user's)", () => {
  const nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
  let scratch = "";
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = "";
  });

  /** The worker as nobody, handed on, behind a root `cat`; its workspaces' directory. */
  function handedOnAsNobody(repo: TestRepo, reviewer: string): string {
    // Its own scratch space, home and workspaces, which the unprivileged uid can write.
    scratch = mkdtempSync(join(tmpdir(), "rr-nobody-"));
    const workspaces = join(scratch, "workspaces");
    mkdirSync(workspaces);
    chmodSync(scratch, 0o1777);
    chmodSync(workspaces, 0o1777);
    const worker = shellWords(
      ...nobody,
      "sh",
      HANDOFF,
      process.execPath,
      BIN,
      "worker",
      "--reviewer-command",
      reviewer,
    );
    const env = `HOME=${shellWords(scratch)} REVIEW_REMOTE_WORKER_TMPDIR=${shellWords(workspaces)}`;
    configureWorker(repo, "box", `${env} ${worker} | cat`);
    return workspaces;
  }

  it("reviews on: not seeing the reader is no sign that the client is gone", () => {
    const repo = repos.add(createTestRepo());
    repo.write("a.txt", "a\n");
    repo.commit();
    const comment = JSON.stringify({ severity: "info", message: "looked" });
    handedOnAsNobody(repo, `sleep 4; printf '%s\\n' '${comment}' >> "$REVIEW_REMOTE_COMMENTS"`);
    const review = repo.run(["--worker", "box", "--json"]);
    expect(review.status, review.stderr).toBe(0);
    expect(JSON.parse(review.stdout).comments).toEqual([expect.objectContaining({ message: "looked" })]);
  });

  it("still stops when the client is killed: root's other processes are no reader of its answer", async () => {
    const repo = repos.add(createTestRepo());
    repo.write("a.txt", "a\n");
    repo.commit();
    token = `3599.${process.pid}${Date.now() % 100000}`;
    const workspaces = handedOnAsNobody(repo, `exec sleep ${token}`);
    const { client, closed } = await startUntilReviewer(repo);
    // The client's guard kills its group, the relay with it: what is left of the client's side is
    // nothing, and the worker stops though it still cannot look into init's or any root daemon's fds.
    await killAndExpectNothingLeft(client, closed, workspaces);
  });
});
