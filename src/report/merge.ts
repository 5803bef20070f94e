// What `merge` and `drop` show: what happened to HEAD, the work tree or the branch, and how to undo it.

import { BranchFate } from "../merge/branch.js";
import type { Dropped } from "../merge/drop.js";
import { MergeKind, type MergeOutcome } from "../merge/outcome.js";
import { type PruneOutcome, PruneReason } from "../merge/prune.js";
import type { BundlePrune } from "../merge/prune-bundles.js";
import type { ReviewFilesPrune } from "../merge/prune-reviews.js";
import { messages } from "../messages.js";
import { type ReviewRecord, ReviewState } from "../store/records.js";
import { formatSize, type Output } from "./output.js";
import { plural } from "./plural.js";

const SAID: Record<MergeKind, (id: string) => string> = {
  [MergeKind.alreadyMerged]: (id) => `Review ${id} is already merged into HEAD.`,
  [MergeKind.merged]: (id) => `Merged review ${id} into HEAD.`,
  [MergeKind.fastForward]: (id) => `Merged review ${id} into HEAD (fast-forward).`,
  [MergeKind.alreadyApplied]: (id) => `Review ${id} is already applied to the work tree.`,
  [MergeKind.applied]: (id) => `Applied review ${id} to the work tree; review and commit the changes.`,
  [MergeKind.finished]: (id) =>
    `Finished applying review ${id} to the work tree; review and commit the changes.`,
  [MergeKind.undone]: (id) => `Rolled back review ${id}: every file it changed holds what it held before.`,
};

/** Printed before the first write, so that it is on the screen whenever the merge stops. */
export function printUndo(undo: string, output: Output): void {
  output.hint(`to undo: ${undo}`);
}

export function printMerge(outcome: MergeOutcome, output: Output): void {
  output.say(SAID[outcome.kind](outcome.reviewId));
}

/**
 * What `drop` did: it names a branch only when it deleted one; a merged review stays merged, and one
 * dropped before with no branch left is said to be, not dropped again.
 */
export function printDrop({ record, branchDeleted }: Dropped, output: Output): void {
  if (record.state === ReviewState.merged) {
    output.say(
      branchDeleted
        ? `Deleted branch ${record.branch} of review ${record.id}; the review stays merged.`
        : `Review ${record.id} is merged and has no branch left: nothing to drop.`,
    );
    return;
  }
  if (record.state === ReviewState.dropped && !branchDeleted) {
    output.say(`Review ${record.id} is dropped already and has no branch left: nothing to drop.`);
    return;
  }
  output.say(
    branchDeleted
      ? `Dropped review ${record.id}: deleted branch ${record.branch}.`
      : `Dropped review ${record.id}.`,
  );
  if (branchDeleted && record.tip) output.hint(messages.restoreBranch(record.branch ?? "", record.tip, true));
}

/** After a merge: the review's branch is gone (the commits are in HEAD), or kept and why. */
export function printMergedBranch(record: ReviewRecord, fate: BranchFate, output: Output): void {
  if (!record.branch || fate === BranchFate.gone) return;
  if (fate === BranchFate.moved) {
    output.hint(`kept branch ${record.branch}: it has commits the review did not make`);
    return;
  }
  if (fate === BranchFate.checkedOut) {
    output.hint(messages.keptCheckedOutBranch(record.branch));
    return;
  }
  output.say(`Deleted branch ${record.branch}; the record stays (git review-remote show ${record.id}).`);
  // A work-tree merge leaves the proposals uncommitted: their commits are then kept by nothing.
  const unkept = record.snapshot.kind === "worktree";
  output.hint(messages.restoreBranch(record.branch, record.tip ?? "", unkept));
}

function pruneWhy(outcome: PruneOutcome): string {
  return outcome.supersededBy ? `superseded by ${outcome.supersededBy}` : outcome.reason;
}

function bundleWhose(bundle: BundlePrune): string {
  return bundle.reviews.length > 0 ? `review ${bundle.reviews.join(", ")}` : "no review: export only";
}

export function printPrune(
  outcomes: readonly PruneOutcome[],
  bundles: readonly BundlePrune[],
  reviews: readonly ReviewFilesPrune[],
  open: { count: number; bytes: number },
  args: { dryRun: boolean; json: boolean; includeOpen: boolean },
  output: Output,
): void {
  const freed = bundles.reduce((sum, bundle) => sum + bundle.bytes, 0);
  const answered = reviews.reduce((sum, review) => sum + review.bytes, 0);
  if (args.json) {
    const branches = outcomes.map(({ record, reason, supersededBy, deleted }) => ({
      id: record.id,
      branch: record.branch,
      tip: record.tip,
      reason,
      supersededBy: supersededBy ?? null,
      deleted,
    }));
    const kept = { count: open.count, bytes: open.bytes };
    output.json({
      dryRun: args.dryRun,
      branches,
      bundles,
      reviews,
      bytesFreed: freed + answered,
      keptForOpenReviews: kept,
    });
    return;
  }
  if (open.count > 0) {
    const what = `${plural(open.count, "bundle")} of open reviews (${formatSize(open.bytes)})`;
    output.hint(messages.hintOpenBundlesKept(what, open.count, args.includeOpen));
  }
  if (outcomes.length === 0 && bundles.length === 0 && reviews.length === 0) {
    output.say("Nothing to prune.");
    return;
  }
  for (const outcome of outcomes) {
    const { branch, tip } = outcome.record;
    if (!outcome.deleted) {
      output.say(`Kept branch ${branch} (${pruneWhy(outcome)}): it has commits the review did not make`);
    } else if (args.dryRun) {
      output.say(`Would delete branch ${branch} (${pruneWhy(outcome)})`);
    } else {
      const restore = messages.restoreBranch(branch ?? "", tip ?? "", outcome.reason !== PruneReason.merged);
      output.say(`Deleted branch ${branch} (${pruneWhy(outcome)}); ${restore}`);
    }
  }
  for (const bundle of bundles) {
    const what = `bundle ${bundle.sha256.slice(0, 16)} (${formatSize(bundle.bytes)}, ${bundleWhose(bundle)}, last used ${bundle.lastUsed})`;
    output.say(`${args.dryRun ? "Would remove" : "Removed"} ${what}`);
  }
  if (bundles.length > 0) {
    const count = plural(bundles.length, "bundle");
    const kept = bundles.length === 1 ? "its audit line and manifest" : "their audit lines and manifests";
    output.say(
      args.dryRun
        ? `Would free ${formatSize(freed)} (${count}); ${kept} would stay.`
        : `Freed ${formatSize(freed)} (${count}); ${kept} stay.`,
    );
  }
  for (const review of reviews) {
    const what = `${review.files.join(", ")} of review ${review.id} (${formatSize(review.bytes)}, ${review.state}, last changed ${review.lastChanged})`;
    output.say(`${args.dryRun ? "Would remove" : "Removed"} ${what}`);
  }
  if (reviews.length > 0) {
    const one = reviews.length === 1;
    const count = one ? "1 review's answer" : `${reviews.length} reviews' answers`;
    const kept = one ? "its record" : "their records";
    output.say(
      args.dryRun
        ? `Would free ${formatSize(answered)} (${count}); ${kept} would stay.`
        : `Freed ${formatSize(answered)} (${count}); ${kept} ${one ? "stays" : "stay"}.`,
    );
  }
}
