// A review's branch, deleted only as we made it: when someone committed on it, that work is theirs
// and the branch stays. Drop, merge and prune all delete it this way.
import { findCommit, type GitRun } from "../git/commits.js";
import { type RefUpdate, updateRefs } from "../git/refs.js";
import type { ReviewRecord } from "../store/records.js";

/** The update that deletes the review's branch, or undefined when there is none to delete. */
export async function branchDeletion(run: GitRun, record: ReviewRecord): Promise<RefUpdate | undefined> {
  if (!record.branch) return undefined;
  const current = await findCommit(run, `refs/heads/${record.branch}`);
  if (current === undefined) return undefined;
  return { op: "delete", ref: `refs/heads/${record.branch}`, oldOid: record.tip ?? current };
}

export const BranchFate = { deleted: "deleted", gone: "gone", moved: "moved" } as const;
export type BranchFate = (typeof BranchFate)[keyof typeof BranchFate];

/** Deletes the branch if it still points where the review left it. */
export async function deleteReviewBranch(run: GitRun, record: ReviewRecord): Promise<BranchFate> {
  const deletion = await branchDeletion(run, record);
  if (!deletion) return BranchFate.gone;
  const done = await updateRefs(run, [deletion], `review-remote: delete ${record.branch}`);
  return done.ok ? BranchFate.deleted : BranchFate.moved;
}

/** Undoing a merge gives the review its branch back, where the review left it (unless it exists). */
export async function restoreReviewBranch(run: GitRun, record: ReviewRecord): Promise<void> {
  if (!record.branch || !record.tip) return;
  await updateRefs(
    run,
    [{ op: "create", ref: `refs/heads/${record.branch}`, oid: record.tip }],
    `review-remote: restore ${record.branch}`,
  );
}
