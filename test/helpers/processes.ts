// Processes in the states the store must judge: stopped (SIGSTOP), and ended but not reaped.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { isZombie, readStart } from "../../src/os/process.js";

export interface Zombie {
  pid: number;
  /** Its owner record, as a lock, a running marker or a merge journal names the process it belongs to. */
  owner: { pid: number; host: string; boot: string; start: string | undefined };
  /** Ends the shell that never reaps it, and with it the zombie. */
  release(): void;
}

/**
 * A process that has ended but is not reaped (a zombie): kill(pid, 0) still finds it. A short sleep
 * that ends once its shell has become a long one, which never reaps it.
 */
export async function startZombie(): Promise<Zombie> {
  const holder = spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 120"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const pid = Number(
    await new Promise<string>((resolve) => holder.stdout.once("data", (d) => resolve(String(d)))),
  );
  for (let i = 0; i < 300 && !isZombie(pid); i++) await sleep(20);
  expect(isZombie(pid)).toBe(true);
  const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  return {
    pid,
    owner: { pid, host: hostname(), boot, start: readStart(pid) },
    release: () => holder.kill("SIGKILL"),
  };
}

/** Waits until the process has stopped itself (state T in /proc/<pid>/stat). */
export async function stopped(pid: number): Promise<void> {
  for (;;) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (/^\d+ \(.*\) T /.test(stat)) return;
    await sleep(20);
  }
}

/**
 * `git review-remote merge <id>` stopped as Ctrl-C in a terminal stops it: the whole foreground group
 * (this merge, git merge, its hook) gets SIGINT, from a pre-merge-commit hook, which runs once git
 * merge has written the index and the work tree. `say`, a line the hook prints first (an
 * interrupted merge must not show it). Its exit code and stderr.
 */
export async function mergeStoppedByCtrlC(
  repo: { dir: string; env: NodeJS.ProcessEnv; git: (...args: string[]) => string },
  bin: string,
  id: string,
  say = "",
): Promise<{ code: unknown; stderr: string }> {
  const hooks = join(repo.dir, repo.git("rev-parse", "--git-path", "hooks").trim());
  mkdirSync(hooks, { recursive: true });
  const hook = `#!/bin/sh\n${say ? `echo ${say} >&2\n` : ""}kill -s INT 0\nsleep 10\n`;
  writeFileSync(join(hooks, "pre-merge-commit"), hook, { mode: 0o755 });
  const child = spawn("node", [bin, "merge", id], { cwd: repo.dir, env: repo.env, detached: true });
  child.stdin.end();
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  return { code, stderr };
}
