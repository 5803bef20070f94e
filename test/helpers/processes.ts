// Processes in the states the store must judge: stopped (SIGSTOP), and ended but not reaped.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
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
