// Process control: whether a process still exists, and signalling a whole process group.
import { readdirSync, readFileSync, statSync } from "node:fs";
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
function isAlive(pid: number): boolean {
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

/** A process as /proc/<pid>/stat shows it: its parent, its session and when it started. */
interface ProcessStat {
  /** Field 3: `Z` for a zombie, a process that has ended and waits for its parent to reap it. */
  state: string;
  ppid: number;
  session: number;
  /** Field 22, in clock ticks since boot: a reused pid starts later. */
  start: string;
}

/** /proc/<pid>/stat, fields after the command name (which may hold spaces and parentheses). */
function readStat(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state = "", ppid, , session] = fields;
    return { state, ppid: Number(ppid), session: Number(session), start: fields[19] as string };
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` has ended though its entry stays (a zombie: its parent has not reaped it yet, as a
 * killed client's may not have). kill(pid, 0) still finds it.
 */
export function isZombie(pid: number): boolean {
  return readStat(pid)?.state === "Z";
}

/**
 * Whether `pid` runs (a zombie does not) and, when `start` is given, is the process that started
 * then: a pid the kernel has given to another process since starts later. One read of its stat;
 * without /proc, alive is all that is known.
 */
export function isRunningAs(pid: number, start: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  const stat = readStat(pid);
  if (stat === undefined) return true;
  return stat.state !== "Z" && (start === undefined || stat.start === start);
}

/** When `pid` started, in clock ticks since boot (Linux): a reused pid starts later. */
export function readStart(pid: number): string | undefined {
  return readStat(pid)?.start;
}

/** One process of a chain of ancestors, and the parent it had. */
interface Link {
  pid: number;
  ppid: number;
  start: string;
}

/** How deep the chain is followed: a session's leader is a few shells and a git above a worker. */
const MAX_ANCESTRY = 16;

/**
 * This process and its ancestors up to its session's leader, each with its parent: what started
 * this session and what ran it within. Where /proc cannot tell, this process's parent alone.
 */
export function readSessionAncestry(): Link[] {
  const own = readStat(process.pid);
  if (own === undefined) return [{ pid: process.pid, ppid: process.ppid, start: "" }];
  const links: Link[] = [];
  for (let pid = process.pid, stat: ProcessStat | undefined = own; stat; stat = readStat(pid)) {
    links.push({ pid, ppid: stat.ppid, start: stat.start });
    // The leader's parent started the session (sshd for a remote command, the client for its
    // worker command); pid 1 and a parent outside this pid namespace (0) never change.
    if (pid === own.session || stat.session !== own.session || stat.ppid <= 1) break;
    if (links.length >= MAX_ANCESTRY) break;
    pid = stat.ppid;
  }
  return links;
}

/**
 * Whether a process of the chain is gone or has another parent: the process that started the
 * session (or one between it and us) has ended, and its children were handed to a reaper.
 */
export function hasAncestryChanged(links: readonly Link[]): boolean {
  return links.some((link) => {
    if (link.pid === process.pid) return process.ppid !== link.ppid;
    const stat = readStat(link.pid);
    return stat === undefined || stat.ppid !== link.ppid || stat.start !== link.start;
  });
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
 * Whether the owner's process has ended: on this host and boot, when it no longer runs as the
 * process that started then (see isRunningAs: gone, a zombie, or its pid reused); after a reboot,
 * always. On another host it cannot be checked: undefined. The one test of an owner that the store
 * lock, the running markers and the merge journal share.
 */
export function hasEnded(owner: ProcessOwner): boolean | undefined {
  const self = currentMachine();
  if (owner.host !== self.host) return undefined;
  if (!isSameBoot(owner.boot, self.boot)) return true;
  return !isRunningAs(owner.pid, owner.start);
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

/**
 * The session of the process that started this one's session (the parent of its leader: sshd's
 * process for a remote command, the client's shell for its worker command), as the ancestry read at
 * start names it: what a relay of this process's answer belongs to. Undefined where it cannot be
 * told (the parent is outside this pid namespace, or gone).
 */
export function originSession(links: readonly Link[]): number | undefined {
  const origin = links.at(-1)?.ppid;
  if (origin === undefined || origin <= 1) return undefined;
  const session = readStat(origin)?.session;
  return session !== undefined && session > 0 ? session : undefined;
}

/**
 * Whether a process other than this one holds `pipe` open for reading (its fds and their open
 * flags, as /proc shows them): undefined when some process could not be looked at (another
 * user's, or one that forbids it, as sshd does) and none that could holds it. Given `origin` (see
 * originSession), a process it cannot look into counts only if it is of that session: a relay of
 * the answer is of the client's side; a host's own daemons, run as root, never are, and once the
 * client's side is gone they would otherwise keep a worker running to its deadline.
 */
export function hasOtherPipeReader(
  pipe: { dev: number; ino: number },
  origin?: number,
  proc = "/proc",
): boolean | undefined {
  let pids: string[];
  try {
    pids = readdirSync(proc);
  } catch {
    // No /proc to look in (a jail without it): nothing rules a reader out.
    return undefined;
  }
  let unseen = false;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`${proc}/${pid}/fd`);
    } catch (error) {
      // Gone since /proc was listed (a busy host starts and ends processes all the time), or a
      // zombie: it holds no pipe.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      const stat = readStat(Number(pid));
      if (stat === undefined || stat.state === "Z") continue;
      if (origin === undefined || stat.session === origin) unseen = true;
      continue;
    }
    for (const entry of fds) {
      try {
        const stat = statSync(`${proc}/${pid}/fd/${entry}`);
        if (stat.ino !== pipe.ino || stat.dev !== pipe.dev) continue;
        const flags = /^flags:\s+([0-7]+)/m.exec(readFileSync(`${proc}/${pid}/fdinfo/${entry}`, "utf8"))?.[1];
        // O_ACCMODE: 0 read-only, 2 read-write; 1 (write-only) is another writer, as this one is.
        if (flags !== undefined && (Number.parseInt(flags, 8) & 3) !== 1) return true;
      } catch {}
    }
  }
  return unseen ? undefined : false;
}
