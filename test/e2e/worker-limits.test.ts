// A worker bounded in every dimension (design §8), driven as an attacker drives it: reviewers that
// fill their disk, fork without end, leave 300,000 files, or make collecting their work outlast the
// request. The built CLI runs as root and as an unprivileged user; each case is judged by the result's
// reason, by what the reviewer itself measured, and by what is left afterwards (no process, no file).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import {
  envelope,
  makeRequest,
  parseResult,
  processesWith,
  REVIEWERS,
  startWorker,
  TARS,
} from "../integration/worker-helpers.js";

const MiB = 1024 * 1024;
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn("worker limits as root skipped: the tests are not running as root");

const bundle = readFileSync(join(TARS, "00-benign-git-archive.tar.gz"));

/** The workspace root: world-writable with the sticky bit, as /tmp is, for the unprivileged worker. */
const root = mkdtempSync(join("/dev/shm", "rr-limits-test-"));
chmodSync(root, 0o1777);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let marker = 918_273_645;
/** A number no other process on the machine has in its command line: `sleep <marker>`. */
function nextMarker(): string {
  marker += 1 + (process.pid % 1000);
  return String(marker);
}

/** The numbers a reviewer reported on stderr in a line `pattern` matches. */
function reported(stderr: string, pattern: RegExp): number[] {
  const match = pattern.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return (match as RegExpExecArray).slice(1).map(Number);
}

async function waitUntil(condition: () => boolean): Promise<void> {
  // The kernel tears down a pid namespace asynchronously; a loaded machine may take a moment.
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

const modes = [
  { name: "as root", runAs: undefined, available: isRoot },
  { name: "as an unprivileged user", runAs: isRoot ? NOBODY : undefined, available: true },
];

describe.each(modes)("a worker bounded in every dimension, $name", ({ runAs, available }) => {
  afterEach(() => expect(readdirSync(root)).toEqual([]));

  function start(reviewer: string, flags: string[], timeoutSeconds: number) {
    const request = makeRequest(bundle, { limits: { ...DEFAULT_LIMITS, timeoutSeconds } });
    const args = ["--sandbox=require", ...flags, "--tools", REVIEWERS, "--reviewer-command", reviewer];
    const worker = startWorker(args, { root, ...(runAs === undefined ? {} : { runAs }) });
    worker.child.stdin?.end(envelope(request, bundle));
    return worker;
  }

  async function review(reviewer: string, flags: string[], timeoutSeconds: number) {
    const run = await start(reviewer, flags, timeoutSeconds).done;
    expect(run.code, run.stderr).toBe(0);
    return { result: parseResult(run.stdout), stderr: run.stderr };
  }

  it.skipIf(!available)(
    "stops a reviewer that writes until the disk is full at --max-tree-bytes and --max-tmp-bytes",
    async () => {
      const { result, stderr } = await review(
        `sh ${REVIEWERS}/fill-disk.sh`,
        ["--max-tree-bytes", "32m", "--max-tmp-bytes", "8m"],
        120,
      );
      expect(result).toMatchObject({ status: "failed", commits: [] });
      expect(result.error).toBe(
        "the reviewer wrote all it may (--max-tree-bytes 32 MiB) and was stopped there",
      );
      const [tree, tmp, shm, top, dev] = reported(
        stderr,
        /fill tree=(\d+) tmp=(\d+) shm=(\d+) root=(\d+) dev=(\d+)/,
      ) as [number, number, number, number, number];
      expect(tree).toBeLessThanOrEqual(32 * MiB);
      expect(tree).toBeGreaterThan(31 * MiB);
      // /tmp is --max-tmp-bytes, /dev/shm a 64 MiB tmpfs of its own; the root and /dev take nothing.
      expect(tmp).toBeLessThanOrEqual(8 * MiB);
      expect(tmp).toBeGreaterThan(7 * MiB);
      expect(shm).toBeLessThanOrEqual(64 * MiB);
      expect(shm).toBeGreaterThan(63 * MiB);
      expect([top, dev]).toEqual([0, 0]);
      // Never root: the dedicated sandbox user as root, the user who started the worker otherwise.
      const [uid] = reported(stderr, /uid (\d+)/) as [number];
      if (runAs === undefined && isRoot) expect(uid).not.toBe(0);
      else expect(uid).toBe(runAs ?? process.getuid?.());
    },
  );

  it.skipIf(!available)(
    "holds a reviewer that forks without end to --max-processes; none of its processes survives",
    async () => {
      const sleeper = nextMarker();
      const { result, stderr } = await review(
        `node ${REVIEWERS}/fork-bomb.mjs ${sleeper}`,
        ["--max-processes", "40", "--max-seconds", "15"],
        900,
      );
      expect(result.status).toBe("failed");
      // The request asked for 900 s; the worker's --max-seconds cut it to 15 (room for a loaded machine
      // to start the worker and the bomb to reach its limit; the bomb then holds it until it is killed).
      expect(result.error).toMatch(
        /^the reviewer timed out after \d+ s and was killed \(the worker allows at most 15 s \(--max-seconds\)\)$/,
      );
      // Processes and their threads, as the kernel counts them against the limit.
      const [, tasks] = reported(stderr, /processes (\d+) tasks (\d+)/) as [number, number];
      expect(tasks).toBeLessThanOrEqual(40);
      expect(tasks).toBeGreaterThanOrEqual(36);
      await waitUntil(() => processesWith(sleeper).length === 0);
      expect(processesWith(sleeper)).toEqual([]);
    },
  );

  it.skipIf(!available)("gives two concurrent reviews a process budget each", async () => {
    const sleepers = [nextMarker(), nextMarker()];
    const runs = await Promise.all(
      sleepers.map(
        (sleeper) => start(`node ${REVIEWERS}/fork-bomb.mjs ${sleeper}`, ["--max-processes", "40"], 15).done,
      ),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      // Both reach the whole budget while both hold it: with one shared budget one of them would
      // get at most half of it.
      const [, tasks] = reported(run.stderr, /processes (\d+) tasks (\d+)/) as [number, number];
      expect(tasks).toBeGreaterThanOrEqual(36);
      expect(tasks).toBeLessThanOrEqual(40);
    }
    await waitUntil(() => sleepers.every((sleeper) => processesWith(sleeper).length === 0));
    for (const sleeper of sleepers) expect(processesWith(sleeper)).toEqual([]);
  });

  it.skipIf(!available)(
    "stops a reviewer that tries to leave 300,000 files at --max-files",
    async () => {
      const { result, stderr } = await review(`sh ${REVIEWERS}/many-files.sh`, ["--max-files", "10000"], 300);
      expect(result).toMatchObject({ status: "failed", commits: [] });
      expect(result.error).toBe(
        "the reviewer created all the files it may (--max-files 10000) and was stopped there",
      );
      const [files] = reported(stderr, /files (\d+)/) as [number];
      expect(files).toBeLessThanOrEqual(10_000);
      expect(files).toBeGreaterThan(9_900);
    },
    300_000,
  );

  it.skipIf(!available)(
    "answers with a failed result when collecting the reviewer's changes outlasts the request",
    async () => {
      // 1,000 sparse files of 60 MiB: no room used, 60 GiB for `git add` to hash.
      const { result } = await review(`sh ${REVIEWERS}/sparse-files.sh`, [], 15);
      expect(result).toMatchObject({
        status: "failed",
        summary: "The request ran out of time.",
        commits: [],
      });
      expect(result.error).toBe(
        "the request ran out of time while collecting the reviewer's changes (limits.timeoutSeconds is 15 s)",
      );
    },
  );

  it.skipIf(!available)(
    "leaves no process behind when the worker itself is killed with SIGKILL; the next run removes its workspace",
    async () => {
      const sleeper = nextMarker();
      const { child, done } = start(`sh ${REVIEWERS}/hang.sh ${sleeper}`, [], 300);
      await waitUntil(() => processesWith(sleeper).length >= 2);
      expect(processesWith(sleeper).length).toBeGreaterThanOrEqual(2);
      child.kill("SIGKILL");
      expect((await done).signal).toBe("SIGKILL");
      await waitUntil(() => processesWith(sleeper).length === 0);
      expect(processesWith(sleeper)).toEqual([]);
      // Only the empty mount point of the killed worker is left; the next worker removes it.
      const next = await start("true", [], 60).done;
      expect(next.code, next.stderr).toBe(0);
    },
  );
});
