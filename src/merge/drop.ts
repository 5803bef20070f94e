// Dropping a review: its branch and refs go in one transaction; the store keeps the record.
import { ReviewRemoteError } from "../errors.js";
import { findCommit } from "../git/commits.js";
import { listRefs, type RefUpdate, updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import type { StorePaths } from "../store/layout.js";
import { type ReviewRecord, ReviewState, writeRecord } from "../store/records.js";

export async function dropReview(repo: Repo, store: StorePaths, record: ReviewRecord): Promise<void> {
  const run = { cwd: repo.cwd, env: repo.env };
  const updates: RefUpdate[] = [];
  if (record.branch) {
    const current = await findCommit(run, `refs/heads/${record.branch}`);
    // Delete only the branch as we made it: if someone committed on it, that work is theirs.
    if (current !== undefined)
      updates.push({ op: "delete", ref: `refs/heads/${record.branch}`, oldOid: record.tip ?? current });
  }
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
