// `git review-remote merge <id>`: bring the proposals into the current branch (or, for a work-tree
// snapshot, into the work tree); `--abort` and `--continue` for a work-tree merge. The undo is
// printed before the first write; once merged, the review's branch is deleted and the command that
// restores it printed.
import { type MergeAction, mergeReview } from "../merge/review.js";
import { resolveWorkTreeRepo } from "../repo.js";
import { printMerge, printMergedBranch, printUndo } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";

export async function runMerge(args: { id: string; action: MergeAction }, output: Output): Promise<void> {
  const repo = await resolveWorkTreeRepo();
  const store = storePaths(repo);
  // An interrupted merge is this command's own business: it refuses or finishes it, below.
  printRecovered({ ...(await recoverStore(store)), pendingMerge: undefined }, output, repo.top);
  const merged = await mergeReview(repo, store, args.id, args.action, (undo) => printUndo(undo, output));
  printMerge(merged.outcome, output);
  if (merged.branch) printMergedBranch(merged.record, merged.branch, output);
}
