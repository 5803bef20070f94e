// What a merge did, for the report layer, and what the record keeps: where HEAD (or the work tree)
// was before, and the command that takes the merge back.
export const MergeKind = {
  alreadyMerged: "already-merged",
  merged: "merged",
  fastForward: "fast-forward",
  alreadyApplied: "already-applied",
  applied: "applied",
} as const;
export type MergeKind = (typeof MergeKind)[keyof typeof MergeKind];

export interface MergeOutcome {
  kind: MergeKind;
  reviewId: string;
  /** The commit HEAD was at, or the undo point of a work-tree merge. */
  previous: string;
  /** The command that undoes the merge; absent when nothing changed. */
  undo?: string;
}
