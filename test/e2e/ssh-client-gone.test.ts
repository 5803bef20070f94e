// A client that goes away while a worker reviews over ssh: sshd ends the session without a signal to
// the command (no terminal to hang up), and a remote login shell that does not exec its command
// (dash) stays the worker's parent. The worker must stop its reviewer and leave no workspace behind,
// while a worker sent its request by hand (`< envelope`, stdin closed at once) still answers.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { WORKSPACE_ROOT_ENV } from "../../src/worker/workspace.js";
import { configureWorker, shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";
import { envelope, gzip, makeRequest, processesWith } from "../integration/worker-helpers.js";

const sshd = inject("sshd");
if (!sshd) console.warn(`ssh client tests skipped: ${inject("sshdReason")}`);

const repos = repoTracker();
// The remote worker's workspaces, to see that none is left.
const root = mkdtempSync(join("/dev/shm", "rr-ssh-gone-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let token = "";
afterEach(() => {
  // A failed run must not leave its reviewer sleeping for the hour, nor its ssh connected.
  if (token) spawnSync("pkill", ["-KILL", "-f", token]);
});

async function waitUntil(condition: () => boolean, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 5 && !condition(); i++)
    await new Promise((resolve) => setTimeout(resolve, 200));
}

// `git review-remote` as an installed one is found: a git-review-remote on PATH.
const installed = mkdtempSync(join(tmpdir(), "rr-ssh-bin-"));
writeFileSync(
  join(installed, "git-review-remote"),
  `#!/bin/sh\nexec ${shellWords(process.execPath, BIN)} "$@"\n`,
  { mode: 0o755 },
);
afterAll(() => rmSync(installed, { recursive: true, force: true }));

/**
 * `ssh host sh -c '<worker>'`: the remote login shell (bash) execs `sh`, which is dash here and stays
 * the worker's parent, as a dash login shell would. `viaGit`: the worker as the docs spell it,
 * `git review-remote worker`, with git in between too.
 */
function sshWorker(reviewer: string, viaGit = false): string {
  const command = viaGit
    ? `PATH=${installed}:$PATH git review-remote worker`
    : shellWords(process.execPath, BIN, "worker");
  const worker = `${WORKSPACE_ROOT_ENV}=${root} ${command} --reviewer-command ${shellWords(reviewer)}`;
  return shellWords("ssh", "-F", sshd?.config as string, "worker", "sh", "-c", shellWords(worker));
}

/** A repository with a commit to review, its worker reached over ssh, its reviewer asleep on `token`. */
function sleepingReview(viaGit = false): { repo: TestRepo; before: Record<string, string> } {
  token = `3599.${process.pid}${Date.now() % 100000}`;
  const repo = repos.add(createTestRepo());
  repo.write("a.txt", "a\n");
  repo.commit();
  configureWorker(repo, "box", sshWorker(`exec sleep ${token}`, viaGit));
  return { repo, before: repoState(repo) };
}

function startClient(
  repo: TestRepo,
  worker = "box",
): {
  client: ChildProcess;
  closed: Promise<[number | null, string | null]>;
} {
  const client = spawn(process.execPath, [BIN, "--worker", worker, "-q"], {
    cwd: repo.dir,
    env: repo.env,
    stdio: "ignore",
  });
  const closed = new Promise<[number | null, string | null]>((resolve) =>
    client.on("close", (code, signal) => resolve([code, signal])),
  );
  return { client, closed };
}

const reviewers = () => processesWith(`sleep\0${token}`);
/** The ssh client of this test's review, found by the reviewer's token on its command line. */
const sshClients = () => processesWith("ssh\0-F").filter((pid) => processesWith(token).includes(pid));

/** Nothing of the review is left: no reviewer, no ssh, no worker, no workspace. */
async function expectAllGone(): Promise<void> {
  await waitUntil(() => processesWith(token).length === 0 && readdirSync(root).length === 0);
  expect(processesWith(token)).toEqual([]);
  expect(readdirSync(root)).toEqual([]);
}

/** A request for one file with trailing whitespace, as an envelope file in `dir`. */
function envelopeFile(dir: string): string {
  const archive = spawnSync("sh", ["-c", "printf 'a  \\n' > a.txt && tar -cf - a.txt"], { cwd: dir });
  const bundle = gzip(archive.stdout);
  const file = join(dir, "envelope");
  writeFileSync(file, envelope(makeRequest(bundle), bundle));
  return file;
}

describe.skipIf(!sshd)("a worker over ssh whose client goes away", () => {
  it.each([
    ["stops its reviewer and removes its workspace when the ssh client is killed", false],
    ["stops when the ssh client is killed, run as `git review-remote worker` (git waits for it too)", true],
  ])("%s", async (_name, throughGit) => {
    const { repo, before } = sleepingReview(throughGit);
    const { closed } = startClient(repo);
    await waitUntil(() => reviewers().length > 0, 60);
    expect(reviewers()).toHaveLength(1);
    const [ssh] = sshClients();
    expect(ssh).toBeDefined();
    process.kill(Number(ssh), "SIGKILL");
    const [code] = await closed;
    expect(code).toBe(3);
    await expectAllGone();
    expect({ ...repoState(repo), refs: "" }).toEqual({ ...before, refs: "" });
  });

  it("stops when the user presses Ctrl-C, and the client exits 130 with the repository unchanged", async () => {
    const { repo, before } = sleepingReview();
    const { client, closed } = startClient(repo);
    await waitUntil(() => reviewers().length > 0, 60);
    expect(reviewers()).toHaveLength(1);
    client.kill("SIGINT");
    expect(await closed).toEqual([130, null]);
    await expectAllGone();
    expect({ ...repoState(repo), refs: "" }).toEqual({ ...before, refs: "" });
  });

  it("goes with a client killed outright, its ssh client too", async () => {
    const { repo, before } = sleepingReview();
    const { client, closed } = startClient(repo);
    await waitUntil(() => reviewers().length > 0, 60);
    expect(reviewers()).toHaveLength(1);
    expect(sshClients()).toHaveLength(1);
    client.kill("SIGKILL");
    expect(await closed).toEqual([null, "SIGKILL"]);
    await expectAllGone();
    expect(sshClients()).toEqual([]);
    expect({ ...repoState(repo), refs: "" }).toEqual({ ...before, refs: "" });
  });

  it("stops when review-remote.timeout runs out while the envelope is still on its way", async () => {
    const { repo, before } = sleepingReview();
    // A slow link: the envelope reaches ssh only after the whole limit.
    configureWorker(repo, "box", `{ sleep 5; cat; } | ${sshWorker(`exec sleep ${token}`)}`);
    repo.git("config", "review-remote.timeout", "2");
    const { closed } = startClient(repo);
    await waitUntil(() => processesWith(token).length > 0, 60);
    expect(await closed).toEqual([3, null]);
    await expectAllGone();
    expect({ ...repoState(repo), refs: "" }).toEqual({ ...before, refs: "" });
  });

  it("takes one of two reviews at once in a repository, and leaves the other to finish", async () => {
    const { repo, before } = sleepingReview();
    // The other review's reviewer sleeps long enough to be running when the first client dies.
    const other = `6.${process.pid}${Date.now() % 100000}`;
    configureWorker(repo, "other", sshWorker(`sleep ${other}`));
    const first = startClient(repo);
    const second = startClient(repo, "other");
    await waitUntil(() => reviewers().length > 0 && processesWith(`sleep\0${other}`).length > 0, 60);
    expect(processesWith(`sleep\0${other}`)).toHaveLength(1);
    first.client.kill("SIGKILL");
    expect(await first.closed).toEqual([null, "SIGKILL"]);
    await waitUntil(() => reviewers().length === 0);
    expect(reviewers()).toEqual([]);
    expect(processesWith(`sleep\0${other}`)).toHaveLength(1);
    expect(await second.closed).toEqual([0, null]);
    await expectAllGone();
    const reviews = JSON.parse(repo.run(["list", "--json"]).stdout) as {
      state: string;
      worker: { name: string };
    }[];
    expect(reviews.map((review) => [review.worker.name, review.state])).toContainEqual(["other", "empty"]);
    expect(repoState(repo).head).toBe(before.head);
  });

  it("answers into its file when detached by hand with nohup, the session that started it ended", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rr-ssh-nohup-"));
    try {
      const file = envelopeFile(dir);
      const out = join(dir, "result.json");
      token = `5.${process.pid}${Date.now() % 100000}`;
      // The login shell lives on for a while after the worker started, as a user who logs out
      // later would; the reviewer outlasts it, and a few of the worker's looks after it.
      const worker = `${WORKSPACE_ROOT_ENV}=${root} PATH=${installed}:$PATH nohup git review-remote worker --reviewer-command ${shellWords(`sleep ${token}`)}`;
      const detached = `${worker} < ${shellWords(file)} > ${shellWords(out)} 2>/dev/null & sleep 2`;
      const ssh = spawnSync(
        "ssh",
        ["-F", sshd?.config as string, "worker", "sh", "-c", shellWords(detached)],
        { encoding: "utf8" },
      );
      expect(ssh.status, ssh.stderr).toBe(0);
      const answered = () => {
        try {
          return JSON.parse(readFileSync(out, "utf8")) as { status: string };
        } catch {
          return undefined;
        }
      };
      await waitUntil(() => answered() !== undefined, 60);
      expect(answered()).toMatchObject({ status: "ok" });
      await expectAllGone();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still answers a request sent by hand, its stdin closed as soon as the envelope is in", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rr-ssh-envelope-"));
    try {
      const file = envelopeFile(dir);
      // The reviewer outlasts a few of the worker's looks at what started it.
      token = `3.${process.pid}${Date.now() % 100000}`;
      const command = `${sshWorker(`sleep ${token}`)} < ${shellWords(file)}`;
      const answered = spawnSync("sh", ["-c", command], { encoding: "utf8" });
      expect(answered.status, answered.stderr).toBe(0);
      expect(JSON.parse(answered.stdout)).toMatchObject({ status: "ok" });
      await expectAllGone();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
