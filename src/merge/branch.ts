// A review's branch, deleted only as we made it: when someone committed on it, that work is theirs
// and the branch stays; when a work tree has it checked out, it stays too (git branch -d refuses
// that: deleting it would leave that HEAD on a branch that does not exist, the repository looking
// empty). Drop, merge and prune all delete it this way.
import { ReviewRemoteError } from "../errors.js";
import { findCommit, type GitRun } from "../git/commits.js";
import { checkedOutAt, type RefUpdate, updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import { gitIn } from "../os/shell.js";
import type { ReviewRecord } from "../store/records.js";

/**
 * The review's branch is checked out in `worktree`: it is not deleted. `here`: the work tree the
 * command runs in (none in a bare repository); the hint switches the other one by name.
 */
export class BranchCheckedOutError extends ReviewRemoteError {
  constructor(
    readonly branch: string,
    readonly worktree: string,
    here: string | undefined,
  ) {
    super(messages.branchCheckedOut(branch, worktree), {
      hints: [messages.hintSwitchAway(gitIn(worktree, here))],
    });
  }
}

/**
 * The update that deletes the review's branch, or undefined when there is none to delete; throws
 * BranchCheckedOutError when a work tree has it checked out.
 */
export async function branchDeletion(run: GitRun, record: ReviewRecord): Promise<RefUpdate | undefined> {
  if (!record.branch) return undefined;
  const ref = `refs/heads/${record.branch}`;
  const current = await findCommit(run, ref);
  if (current === undefined) return undefined;
  const worktree = await checkedOutAt(run, ref);
  // The repository's own env names the work tree we run in (src/repo.ts), when there is one.
  if (worktree !== undefined) throw new BranchCheckedOutError(record.branch, worktree, run.env.GIT_WORK_TREE);
  return { op: "delete", ref, oldOid: record.tip ?? current };
}

export const BranchFate = {
  deleted: "deleted",
  gone: "gone",
  moved: "moved",
  checkedOut: "checkedOut",
} as const;
export type BranchFate = (typeof BranchFate)[keyof typeof BranchFate];

/** Deletes the branch if it still points where the review left it. */
export async function deleteReviewBranch(run: GitRun, record: ReviewRecord): Promise<BranchFate> {
  const deletion = await branchDeletion(run, record).catch((error: unknown) => {
    if (error instanceof BranchCheckedOutError) return BranchFate.checkedOut;
    throw error;
  });
  if (deletion === BranchFate.checkedOut) return deletion;
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
