// What a killed run left in the store, noticed by the next command: reviews it left in `sent`
// (now `failed`, interrupted), and a work-tree merge or undo it did not finish.
import { hasEnded } from "../os/process.js";
import { type MergeJournal, readPendingJournal } from "./journal.js";
import type { StorePaths } from "./layout.js";
import { recoverInterrupted } from "./running.js";

export interface Recovered {
  /** Reviews whose process ended while they were waiting for their worker. */
  interrupted: string[];
  /** A merge or undo whose process ended before it finished: to be finished or rolled back. */
  pendingMerge: MergeJournal | undefined;
}

export async function recoverStore(store: StorePaths): Promise<Recovered> {
  const interrupted = await recoverInterrupted(store);
  const journal = await readPendingJournal(store);
  // A journal whose process is alive belongs to a merge running right now.
  const pendingMerge = journal && hasEnded(journal.owner) !== false ? journal : undefined;
  return { interrupted, pendingMerge };
}
