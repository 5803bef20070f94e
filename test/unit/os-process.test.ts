// Who reads a worker's answer: the readers of a pipe as /proc shows them (the session that started
// the worker's is tested end to end, in test/e2e/client-killed.test.ts).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasOtherPipeReader } from "../../src/os/process.js";

const isRoot = process.getuid?.() === 0;
let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

describe("hasOtherPipeReader", () => {
  it("finds the process that holds a FIFO's read end, and none once it is gone", async () => {
    dir = mkdtempSync(join(tmpdir(), "rr-pipe-"));
    const fifo = join(dir, "answer");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // `exec 3<>` opens it read-write without waiting for a writer: a reader, as O_RDWR counts.
    const reader = spawn("sh", ["-c", `exec 3<>"$0"; exec sleep 30`, fifo], { stdio: "ignore" });
    const { dev, ino } = statSync(fifo);
    for (let i = 0; i < 50 && hasOtherPipeReader({ dev, ino }) !== true; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(hasOtherPipeReader({ dev, ino })).toBe(true);
    reader.kill("SIGKILL");
    await new Promise((resolve) => reader.once("exit", resolve));
    // As root every process is looked into; as a user, root's may hide one, unless they are of
    // no session that could relay (an origin session no process has).
    expect(hasOtherPipeReader({ dev, ino }, isRoot ? undefined : -1)).toBe(false);
  });

  it("rules out a process that ended after /proc was listed: it holds no pipe", () => {
    // A /proc whose one process has no fd directory any more, as a process that ends between the
    // listing and the look has not. On a busy host that happens on most calls.
    dir = mkdtempSync(join(tmpdir(), "rr-proc-"));
    mkdirSync(join(dir, "4194303"));
    expect(hasOtherPipeReader({ dev: 1, ino: 1 }, undefined, dir)).toBe(false);
  });

  it("cannot rule a reader out without a /proc to look in, and does not throw", () => {
    expect(hasOtherPipeReader({ dev: 0, ino: 0 }, undefined, "/nonexistent/proc")).toBeUndefined();
  });
});
