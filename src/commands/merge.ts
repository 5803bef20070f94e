// `git review-remote merge <id>`: bring the proposals into the current branch (or, for a work-tree
// snapshot, into the work tree). The previous state is recorded first, and the undo command printed;
// then the review's branch is deleted and the command that restores it printed.
import { ReviewRemoteError } from "../errors.js";
import { deleteReviewBranch } from "../merge/branch.js";
import { mergeCommitSnapshot } from "../merge/commit.js";
import { mergeWorktreeSnapshot } from "../merge/worktree.js";
import { messages } from "../messages.js";
import { resolveWorkTreeRepo } from "../repo.js";
import { printMerge, printMergedBranch } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { findRecord, ReviewState, writeRecord } from "../store/records.js";

export async function runMerge(args: { id: string }, output: Output): Promise<void> {
  const repo = await resolveWorkTreeRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  if (!record.branch || !record.tip || record.state === ReviewState.dropped) {
    throw new ReviewRemoteError(messages.nothingToMerge(record.id, record.state));
  }
  const merge = record.snapshot.kind === "worktree" ? mergeWorktreeSnapshot : mergeCommitSnapshot;
  const outcome = await merge(repo, record, record.tip);
  printMerge(outcome, output);
  await writeRecord(store, { ...record, state: ReviewState.merged, mergedFrom: outcome.previous });
  // The proposals are in HEAD (or the work tree) now; the record keeps the tip to restore the branch.
  printMergedBranch(record, await deleteReviewBranch({ cwd: repo.cwd, env: repo.env }, record), output);
}
