// Reviews in flight: `running/<id>` names the process waiting for the worker's answer, so that the
// next run tells a review still waiting from one whose process was killed and left it in `sent`.
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { messages } from "../messages.js";
import { currentOwner, hasEnded, isProcessOwner, type ProcessOwner } from "../os/process.js";
import { type StorePaths, writeFileAtomic } from "./layout.js";
import { tryStoreLock } from "./lock.js";
import { ReviewState, readRecord, writeRecord } from "./records.js";

function runningPath(store: StorePaths, id: string): string {
  return join(store.root, "running", id);
}

export async function markRunning(store: StorePaths, id: string): Promise<void> {
  await writeFileAtomic(runningPath(store, id), `${JSON.stringify(currentOwner())}\n`);
}

export async function clearRunning(store: StorePaths, id: string): Promise<void> {
  await rm(runningPath(store, id), { force: true });
}

/** Who a marker names; undefined when there is none or it is torn (killed while writing it). */
async function readMarker(store: StorePaths, id: string): Promise<ProcessOwner | undefined> {
  try {
    const owner: unknown = JSON.parse(await readFile(runningPath(store, id), "utf8"));
    return isProcessOwner(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** The process a review is waiting in, if it still waits. */
export async function readRunning(store: StorePaths, id: string): Promise<ProcessOwner | undefined> {
  const owner = await readMarker(store, id);
  return owner && hasEnded(owner) !== true ? owner : undefined;
}

/**
 * Every review whose process ended while it was `sent` becomes `failed` (interrupted). Returns
 * their ids. A marker of a live process, or of another host, is left alone; so is everything while
 * another git-review-remote writes the store (the next command will see to it).
 */
export async function recoverInterrupted(store: StorePaths): Promise<string[]> {
  const ids = await readdir(join(store.root, "running")).catch(() => [] as string[]);
  const recovered: string[] = [];
  for (const id of ids.filter((name) => /^[0-9a-f]{12}$/.test(name))) {
    // A torn marker (killed while writing it) has no live owner to wait for.
    const owner = await readMarker(store, id);
    if (owner && hasEnded(owner) !== true) continue;
    const pid = owner?.pid ?? 0;
    const done = await tryStoreLock(store, "recover", async () => {
      const record = await readRecord(store, id);
      if (record?.state === ReviewState.sent) {
        await writeRecord(store, {
          ...record,
          state: ReviewState.failed,
          problems: [messages.reviewInterrupted(pid)],
        });
        recovered.push(id);
      }
      await clearRunning(store, id);
      return true;
    });
    if (!done) break;
  }
  return recovered;
}
