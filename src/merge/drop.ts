// Dropping a review: its branch and refs go in one transaction, as the store's one writer; the store
// keeps the record. A review whose work-tree merge was interrupted keeps its undo point until then; a
// merged review stays merged and keeps its undo point (as prune leaves it): only its branch goes.
import { ReviewRemoteError } from "../errors.js";
import { listRefs, type RefUpdate, updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import { readPendingJournal } from "../store/journal.js";
import type { StorePaths } from "../store/layout.js";
import { withStoreLock } from "../store/lock.js";
import { findRecord, type ReviewRecord, ReviewState, writeRecord } from "../store/records.js";
import { branchDeletion } from "./branch.js";
import { pendingMergeError } from "./undo.js";

export interface Dropped {
  /** The record as it was before the drop. */
  record: ReviewRecord;
  /** Whether the review's branch was there and is now deleted. */
  branchDeleted: boolean;
}

/** Drop review `id` (or a prefix of it). */
export function dropReview(repo: Repo, store: StorePaths, id: string): Promise<Dropped> {
  return withStoreLock(store, `drop ${id}`, async () => {
    const record = await findRecord(store, id);
    const pending = await readPendingJournal(store);
    if (pending?.review === record.id) throw pendingMergeError(pending, repo.top);
    return { record, branchDeleted: await deleteReviewRefs(repo, store, record) };
  });
}

async function deleteReviewRefs(repo: Repo, store: StorePaths, record: ReviewRecord): Promise<boolean> {
  const run = { cwd: repo.cwd, env: repo.env };
  const updates: RefUpdate[] = [];
  const branch = await branchDeletion(run, record);
  if (branch) updates.push(branch);
  const merged = record.state === ReviewState.merged;
  if (!merged) {
    for (const ref of await listRefs(run, `refs/review-remote/${record.id}/`))
      updates.push({ op: "delete", ref });
  }
  const deleted = await updateRefs(run, updates);
  if (!deleted.ok) {
    throw new ReviewRemoteError(messages.dropFailed(record.id, deleted.reason), {
      hints: [messages.hintBranchMoved(record.branch)],
    });
  }
  if (!merged) await writeRecord(store, { ...record, state: ReviewState.dropped });
  return branch !== undefined;
}
