// Dropping a review: its branch and refs go in one transaction; the store keeps the record.
import { ReviewRemoteError } from "../errors.js";
import { listRefs, type RefUpdate, updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import type { StorePaths } from "../store/layout.js";
import { type ReviewRecord, ReviewState, writeRecord } from "../store/records.js";
import { branchDeletion } from "./branch.js";

export async function dropReview(repo: Repo, store: StorePaths, record: ReviewRecord): Promise<void> {
  const run = { cwd: repo.cwd, env: repo.env };
  const updates: RefUpdate[] = [];
  const branch = await branchDeletion(run, record);
  if (branch) updates.push(branch);
  for (const ref of await listRefs(run, `refs/review-remote/${record.id}/`))
    updates.push({ op: "delete", ref });
  const deleted = await updateRefs(run, updates);
  if (!deleted.ok) {
    throw new ReviewRemoteError(messages.dropFailed(record.id, deleted.reason), {
      hints: [messages.hintBranchMoved(record.branch)],
    });
  }
  await writeRecord(store, { ...record, state: ReviewState.dropped });
}
