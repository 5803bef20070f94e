// `prune`'s third part: the stored answers of reviews that are done with. A merged or dropped review
// whose last state change is older than the expiry keeps its record (`state.json`: what `list`,
// `show` and the audit answer from), its receipt and its merge journal (`merge --abort`), and loses
// the files that carried the answer: `result.json` (summary, comments, each proposal's patch: the
// proposals are in git by now, merged or on their undo ref, or thrown away), `changes.json` (the
// change's lines its comments were filtered by) and, but for a signed review (its receipt is
// checked against it), `request.json` (the question and the change's patch). The record then says
// what went, and when; an older focused record, which did not count its comments outside the change,
// has them counted first, while the answer is there (list counts from the record).
import { lstat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { ReviewRemoteError } from "../errors.js";
import type { FilterMode } from "../pipeline/filter.js";
import { withOutsideCounted } from "../pipeline/focus.js";
import { type StorePaths, storeError } from "../store/layout.js";
import { readReceiptFiles } from "../store/receipts.js";
import { type ReviewRecord, ReviewState, readRecord, reviewDir, writeRecord } from "../store/records.js";

export interface ReviewFilesPrune {
  id: string;
  state: ReviewState;
  /** The files removed (or, with --dry-run, that would be), by name under reviews/<id>/. */
  files: string[];
  bytes: number;
  /** The review's last state change. */
  lastChanged: string;
}

const ANSWER_FILES = ["result.json", "changes.json"] as const;
const REQUEST_FILE = "request.json";

/** The merged and dropped reviews whose last change is at or before `cutoffMs`, and their answer files. */
export async function planReviewFiles(
  store: StorePaths,
  records: readonly ReviewRecord[],
  cutoffMs: number,
): Promise<ReviewFilesPrune[]> {
  const plans: ReviewFilesPrune[] = [];
  for (const record of records) {
    if (record.state !== ReviewState.merged && record.state !== ReviewState.dropped) continue;
    if (!(Date.parse(record.updatedAt) <= cutoffMs)) continue;
    const names: string[] = [...ANSWER_FILES];
    if ((await readReceiptFiles(store, record.id)) === undefined) names.push(REQUEST_FILE);
    const files: string[] = [];
    let bytes = 0;
    for (const name of names) {
      const stats = await lstat(join(reviewDir(store, record.id), name)).catch(() => undefined);
      if (!stats?.isFile()) continue;
      files.push(name);
      bytes += stats.size;
    }
    if (files.length > 0)
      plans.push({ id: record.id, state: record.state, files, bytes, lastChanged: record.updatedAt });
  }
  return plans;
}

export interface ReviewFilesPruned {
  pruned: ReviewFilesPrune[];
  /** Why prune stopped: the rest were left as they were. */
  error?: ReviewRemoteError;
}

/**
 * Removes each review's files, then writes in its record what went (`pruned`: when, which files,
 * their bytes), its last change kept (a bundle's age counts from it). A file that cannot be removed
 * stops prune: the record says only what was removed, the other reviews are untouched.
 */
export async function pruneReviewFiles(
  store: StorePaths,
  plans: readonly ReviewFilesPrune[],
  mode: FilterMode | undefined,
): Promise<ReviewFilesPruned> {
  const pruned: ReviewFilesPrune[] = [];
  for (const plan of plans) {
    // An older record's comments outside its change are counted while its answer is there to count.
    const stored = await readRecord(store, plan.id);
    const record = stored && (await withOutsideCounted(store, stored, mode));
    const removed: string[] = [];
    let bytes = 0;
    let failure: unknown;
    for (const name of plan.files) {
      const path = join(reviewDir(store, plan.id), name);
      try {
        const { size } = await lstat(path);
        await unlink(path);
        removed.push(name);
        bytes += size;
      } catch (error) {
        failure = storeError(reviewDir(store, plan.id), error);
        break;
      }
    }
    if (removed.length > 0) {
      const done = { ...plan, files: removed, bytes };
      try {
        if (record) await recordPruned(store, record, done);
      } catch (error) {
        failure ??= error;
      }
      pruned.push(done);
    }
    if (failure !== undefined) return { pruned, error: failure as ReviewRemoteError };
  }
  return { pruned };
}

async function recordPruned(store: StorePaths, record: ReviewRecord, done: ReviewFilesPrune): Promise<void> {
  const files = [...new Set([...(record.pruned?.files ?? []), ...done.files])];
  const bytes = (record.pruned?.bytes ?? 0) + done.bytes;
  await writeRecord(store, { ...record, pruned: { time: new Date().toISOString(), files, bytes } }, false);
}
