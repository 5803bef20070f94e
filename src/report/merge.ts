// What `merge` and `drop` show: what happened to HEAD, the work tree or the branch, and how to undo it.
import { MergeKind, type MergeOutcome } from "../merge/outcome.js";
import type { ReviewRecord } from "../store/records.js";
import type { Output } from "./output.js";

const SAID: Record<MergeKind, (id: string) => string> = {
  [MergeKind.alreadyMerged]: (id) => `Review ${id} is already merged into HEAD.`,
  [MergeKind.merged]: (id) => `Merged review ${id} into HEAD.`,
  [MergeKind.fastForward]: (id) => `Merged review ${id} into HEAD (fast-forward).`,
  [MergeKind.alreadyApplied]: (id) => `Review ${id} is already applied to the work tree.`,
  [MergeKind.applied]: (id) => `Applied review ${id} to the work tree; review and commit the changes.`,
};

export function printMerge(outcome: MergeOutcome, output: Output): void {
  output.out(SAID[outcome.kind](outcome.reviewId));
  if (outcome.undo) output.err(`hint: to undo: ${outcome.undo}`);
}

export function printDrop(record: ReviewRecord, output: Output): void {
  output.out(
    record.branch
      ? `Dropped review ${record.id}: deleted branch ${record.branch}.`
      : `Dropped review ${record.id}.`,
  );
  if (record.tip)
    output.err(
      `hint: the commits stay reachable until git gc; to restore: git branch ${record.branch} ${record.tip}`,
    );
}
