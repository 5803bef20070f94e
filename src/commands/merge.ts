// `git review-remote merge <id>`: bring the proposals into the current branch (or, for a work-tree
// snapshot, into the work tree). The previous state is recorded first, and the undo command printed.
import { ReviewRemoteError } from "../errors.js";
import { mergeCommitSnapshot } from "../merge/commit.js";
import { mergeWorktreeSnapshot } from "../merge/worktree.js";
import { messages } from "../messages.js";
import { resolveRepo } from "../repo.js";
import { printMerge } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { findRecord, ReviewState, writeRecord } from "../store/records.js";

export async function runMerge(args: { id: string }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  if (!record.branch || !record.tip || record.state === ReviewState.dropped) {
    throw new ReviewRemoteError(messages.nothingToMerge(record.id, record.state));
  }
  const merge = record.snapshot.kind === "worktree" ? mergeWorktreeSnapshot : mergeCommitSnapshot;
  const outcome = await merge(repo, record, record.tip);
  printMerge(outcome, output);
  await writeRecord(store, { ...record, state: ReviewState.merged, mergedFrom: outcome.previous });
}
