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
  /** When the process started, in clock ticks since boot (Linux): a reused pid starts later. */
  start?: string | undefined;
}

/** Field 22 of /proc/<pid>/stat, after the command name (which may hold spaces and parentheses). */
function readStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
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

/** This host and boot: what a pid is only meaningful within. */
function currentMachine(): Pick<ProcessOwner, "host" | "boot"> {
  ownBoot ??= readBoot();
  return { host: hostname(), boot: ownBoot };
}

export function currentOwner(): ProcessOwner {
  return { pid: process.pid, ...currentMachine(), start: readStart(process.pid) };
}

/**
 * Whether the owner's process has ended: on this host and boot, when its pid is gone or now names
 * a process started at another time; after a reboot, always. On another host it cannot be
 * checked: undefined.
 */
export function hasEnded(owner: ProcessOwner): boolean | undefined {
  const self = currentMachine();
  if (owner.host !== self.host) return undefined;
  if (!isSameBoot(owner.boot, self.boot)) return true;
  if (!isAlive(owner.pid)) return true;
  const start = owner.start === undefined ? undefined : readStart(owner.pid);
  return start !== undefined && start !== owner.start;
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
