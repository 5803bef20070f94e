// What a merge did, for the report layer, and what the record keeps: where HEAD (or the work tree)
// was before, and the command that takes the merge back.
import type { SignalGuard } from "./signals.js";
export const MergeKind = {
  alreadyMerged: "already-merged",
  merged: "merged",
  fastForward: "fast-forward",
  alreadyApplied: "already-applied",
  applied: "applied",
  /** A merge into the work tree that had stopped, finished (`merge --continue`). */
  finished: "finished",
  /** A merge into the work tree taken back (`merge --abort`). */
  undone: "undone",
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

/** What a merge is given by the command that runs it. */
export interface MergeHooks {
  /** Holds Ctrl-C and SIGTERM until a consistent point. */
  guard: SignalGuard;
  /** Told the undo command once it works, before the first write. */
  onUndo(undo: string): void;
}
