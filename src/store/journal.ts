// The journal of a work-tree merge: what each changed file holds before and after (blobs of its exact
// bytes), written before the first file is. While a merge (or its undo) runs, it is
// `review-remote/merge-journal.json`, which the next command notices if the run was killed; a
// finished merge keeps it as `reviews/<id>/merge-journal.json`, for `merge --abort <id>`.
import { readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { isProcessOwner, type ProcessOwner } from "../os/process.js";
import { type StorePaths, storeError, writeFileAtomic } from "./layout.js";

/** One version of a file: the blob of its exact bytes (no filters), and its permission bits. */
export interface FileVersion {
  oid: string;
  perm: number;
}

/** null: the file is absent on that side. */
export interface JournalFile {
  path: string;
  before: FileVersion | null;
  after: FileVersion | null;
}

export interface MergeJournal {
  version: 1;
  review: string;
  /** What was running: the merge, or its undo. */
  action: "merge" | "abort";
  /** The work tree it writes (linked worktrees share the store). */
  top: string;
  /** The undo point, `refs/review-remote/<id>/pre-merge`. */
  undo: string;
  owner: ProcessOwner;
  startedAt: string;
  /** Directories the merge creates: absent before, removed again by the undo when left empty. */
  dirs: string[];
  files: JournalFile[];
}

function pendingPath(store: StorePaths): string {
  return join(store.root, "merge-journal.json");
}

function donePath(store: StorePaths, id: string): string {
  return join(store.reviews, id, "merge-journal.json");
}

function isJournal(value: unknown): value is MergeJournal {
  const journal = value as Partial<MergeJournal> | null;
  return (
    typeof journal === "object" &&
    journal !== null &&
    journal.version === 1 &&
    typeof journal.review === "string" &&
    typeof journal.top === "string" &&
    typeof journal.undo === "string" &&
    isProcessOwner(journal.owner) &&
    Array.isArray(journal.dirs) &&
    Array.isArray(journal.files)
  );
}

async function readJournal(path: string): Promise<MergeJournal | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  // Written atomically (temp file, fsync, rename): a journal that does not parse is not ours.
  const parsed: unknown = JSON.parse(text);
  return isJournal(parsed) ? parsed : undefined;
}

/** The journal of a merge or undo that has not finished: running now, or killed. */
export function readPendingJournal(store: StorePaths): Promise<MergeJournal | undefined> {
  return readJournal(pendingPath(store)).catch(() => undefined);
}

export function readDoneJournal(store: StorePaths, id: string): Promise<MergeJournal | undefined> {
  return readJournal(donePath(store, id)).catch(() => undefined);
}

export async function writePendingJournal(store: StorePaths, journal: MergeJournal): Promise<void> {
  await writeFileAtomic(pendingPath(store), `${JSON.stringify(journal, null, 1)}\n`, 0o600);
}

/** The merge finished: its journal moves beside the review, where `merge --abort` finds it. */
export async function finishJournal(store: StorePaths, journal: MergeJournal): Promise<void> {
  try {
    await rename(pendingPath(store), donePath(store, journal.review));
  } catch (error) {
    throw storeError(store.root, error);
  }
}

/** The undo finished: nothing is left to take back. */
export async function discardJournal(store: StorePaths, id: string): Promise<void> {
  await rm(donePath(store, id), { force: true });
  await rm(pendingPath(store), { force: true });
}
