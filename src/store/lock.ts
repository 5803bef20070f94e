// One writer at a time: `review-remote/lock`, created exclusively (O_EXCL) and naming its holder.
// merge, drop and import hold it for their whole run, the review pipeline for each record update. A
// lock whose holder has ended is taken over; one held by a live process is waited for, then refused.
import { open, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import { currentOwner, hasEnded, isProcessOwner, type ProcessOwner } from "../os/process.js";
import { ensureDir, type StorePaths, storeError } from "./layout.js";

/** How long a command waits for another one to finish before it refuses. */
const LOCK_WAIT_MS = 5_000;
/** A record update waits longer: the review it belongs to has already been answered. */
export const RECORD_LOCK_WAIT_MS = 60_000;
const POLL_MS = 50;
/** A lock of another host cannot be checked by pid; none of our commands holds it this long. */
const FOREIGN_STALE_MS = 10 * 60_000;
/** A lock file with no holder in it yet (a writer killed between create and write). */
const EMPTY_STALE_MS = 10_000;

interface Holder extends ProcessOwner {
  command: string;
  since: string;
}

/** The locks this process holds, and how deeply: a locked command's record updates nest. */
const held = new Map<string, number>();

function lockPath(store: StorePaths): string {
  return join(store.root, "lock");
}

async function tryCreate(path: string, command: string): Promise<boolean> {
  const holder: Holder = { ...currentOwner(), command, since: new Date().toISOString() };
  try {
    const handle = await open(path, "wx", 0o644);
    try {
      await handle.writeFile(`${JSON.stringify(holder)}\n`);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw storeError(path, error);
  }
}

type Seen = { kind: "gone" } | { kind: "held"; text: string; holder: Holder | undefined; stale: boolean };

/** Who holds the lock, and whether that holder has ended (then the lock is stale). */
async function readLock(path: string): Promise<Seen> {
  let text: string;
  let age: number;
  try {
    text = await readFile(path, "utf8");
    age = Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return { kind: "gone" };
  }
  let holder: Holder | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isProcessOwner(parsed)) holder = parsed as Holder;
  } catch {}
  if (holder === undefined) return { kind: "held", text, holder, stale: age > EMPTY_STALE_MS };
  const ended = hasEnded(holder);
  const stale = ended ?? Date.now() - Date.parse(holder.since) > FOREIGN_STALE_MS;
  return { kind: "held", text, holder, stale };
}

/**
 * Remove a stale lock, unless it changed since it was judged: two processes that both found it
 * stale must not remove the fresh lock one of them has just taken. `lock.break`, itself taken
 * exclusively, makes the check and the removal one step.
 */
async function breakStale(path: string, text: string): Promise<void> {
  const breaker = `${path}.break`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(breaker, "wx");
  } catch {
    const age = await stat(breaker).then(
      (stats) => Date.now() - stats.mtimeMs,
      () => 0,
    );
    if (age > EMPTY_STALE_MS) await rm(breaker, { force: true });
    return;
  }
  try {
    await handle.close();
    const now = await readFile(path, "utf8").catch(() => undefined);
    if (now === text) await rm(path, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

function busyError(path: string, holder: Holder | undefined): ReviewRemoteError {
  const self = currentOwner();
  const who =
    holder === undefined
      ? "pid unknown"
      : `pid ${holder.pid}${holder.host === self.host ? "" : ` on ${holder.host}`}: ${holder.command}`;
  return new ReviewRemoteError(messages.anotherRunning(who), {
    hints: [messages.hintAnotherRunning(path)],
  });
}

/** The lock is held by a live process, still after the wait. */
interface Busy {
  holder: Holder | undefined;
}

/**
 * This process's acquisitions in flight, by lock path: a second caller of the same process (another
 * worker's record, in a fan-out) waits for it and nests, instead of finding the lock file its own
 * process is creating and polling for it (50 ms a turn: the fourth worker of a fan-out was started
 * 150 ms after the first, and answers that came together waited the same way).
 */
const acquiring = new Map<string, Promise<string | Busy>>();

async function acquire(store: StorePaths, command: string, waitMs: number): Promise<string | Busy> {
  const path = lockPath(store);
  for (;;) {
    const depth = held.get(path) ?? 0;
    if (depth > 0) {
      held.set(path, depth + 1);
      return path;
    }
    const pending = acquiring.get(path);
    if (pending === undefined) break;
    // Held once it settles (then nested), or not (then tried again here, with this caller's wait).
    await pending.catch(() => undefined);
  }
  const attempt = acquireFile(store, path, command, waitMs);
  acquiring.set(path, attempt);
  try {
    return await attempt;
  } finally {
    if (acquiring.get(path) === attempt) acquiring.delete(path);
  }
}

/** The lock file taken for this process, waiting up to `waitMs` for another holder. */
async function acquireFile(
  store: StorePaths,
  path: string,
  command: string,
  waitMs: number,
): Promise<string | Busy> {
  await ensureDir(store.root);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await tryCreate(path, command)) break;
    const seen = await readLock(path);
    if (seen.kind === "gone") continue;
    if (seen.stale) {
      await breakStale(path, seen.text);
      continue;
    }
    if (Date.now() >= deadline) return { holder: seen.holder };
    await sleep(POLL_MS);
  }
  held.set(path, 1);
  return path;
}

async function release(path: string): Promise<void> {
  const depth = (held.get(path) ?? 1) - 1;
  if (depth > 0) {
    held.set(path, depth);
    return;
  }
  held.delete(path);
  await rm(path, { force: true });
}

/** Run `fn` as the one writer, waiting up to `waitMs` for a live holder; still held: `busy`. */
async function asWriter<T, B>(
  store: StorePaths,
  command: string,
  waitMs: number,
  fn: () => Promise<T>,
  busy: (path: string, holder: Holder | undefined) => B,
): Promise<T | B> {
  const path = await acquire(store, command, waitMs);
  if (typeof path !== "string") return busy(lockPath(store), path.holder);
  try {
    return await fn();
  } finally {
    await release(path);
  }
}

/**
 * Run `fn` as the store's one writer. Waits up to `waitMs` for a live holder (LOCK_WAIT_MS for a
 * command), then refuses with "another git-review-remote is running (pid N: <command>)".
 */
export function withStoreLock<T>(
  store: StorePaths,
  command: string,
  fn: () => Promise<T>,
  waitMs: number = LOCK_WAIT_MS,
): Promise<T> {
  return asWriter(store, command, waitMs, fn, (path, holder) => {
    throw busyError(path, holder);
  });
}

/** Run `fn` as the one writer if no one else is writing now; else nothing (undefined). */
export function tryStoreLock<T>(
  store: StorePaths,
  command: string,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  return asWriter(store, command, 0, fn, () => undefined);
}
