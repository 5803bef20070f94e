// Process control: whether a process still exists, and signalling a whole process group.
import { readFileSync } from "node:fs";
import { hostname, uptime } from "node:os";

/**
 * Signal a whole process group (a child spawned with `detached: true` leads its own): `sh -c 'ssh
 * ...'` and reviewers have children of their own. A group that is already gone is fine.
 */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {}
}

/** A process that exists (EPERM: it exists, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Who a lock or an in-flight marker belongs to. A pid names a process only on its own host and
 * boot: after a reboot (another boot id) or on another host the same number means nothing.
 */
export interface ProcessOwner {
  pid: number;
  host: string;
  /** The kernel's boot id where there is one (Linux), else `t<boot time in seconds>`. */
  boot: string;
}

let ownBoot: string | undefined;

function readBoot(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return `t${Math.round(Date.now() / 1000 - uptime())}`;
  }
}

/** Boot times computed from the uptime drift by a second or so between processes. */
function isSameBoot(a: string, b: string): boolean {
  if (a.startsWith("t") && b.startsWith("t")) return Math.abs(Number(a.slice(1)) - Number(b.slice(1))) < 60;
  return a === b;
}

export function currentOwner(): ProcessOwner {
  ownBoot ??= readBoot();
  return { pid: process.pid, host: hostname(), boot: ownBoot };
}

/**
 * Whether the owner's process has ended: on this host and boot, when its pid is gone; after a
 * reboot, always. On another host it cannot be checked: undefined.
 */
export function hasEnded(owner: ProcessOwner): boolean | undefined {
  const self = currentOwner();
  if (owner.host !== self.host) return undefined;
  if (!isSameBoot(owner.boot, self.boot)) return true;
  return !isAlive(owner.pid);
}

export function isProcessOwner(value: unknown): value is ProcessOwner {
  const owner = value as Partial<ProcessOwner> | null;
  return (
    typeof owner === "object" &&
    owner !== null &&
    Number.isInteger(owner.pid) &&
    typeof owner.host === "string" &&
    typeof owner.boot === "string"
  );
}
