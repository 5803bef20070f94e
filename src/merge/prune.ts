// `prune`: the branches of reviews that are done with. Merged (the proposals are in), dropped (a
// branch restored by hand, or left by an older version) and superseded reviews: an older review of
// the same target by the same worker, once a newer one has answered (design §10). The records stay.
import { findCommit, type GitRun } from "../git/commits.js";
import { listRefs, type RefUpdate, updateRefs } from "../git/refs.js";
import { type ReviewRecord, ReviewState } from "../store/records.js";
import { BranchCheckedOutError, branchDeletion } from "./branch.js";

export const PruneReason = { merged: "merged", dropped: "dropped", superseded: "superseded" } as const;
export type PruneReason = (typeof PruneReason)[keyof typeof PruneReason];

export interface PruneCandidate {
  record: ReviewRecord;
  reason: PruneReason;
  /** The newer review of the same target. */
  supersededBy?: string;
}

/** A review that came back: a newer one in these states makes an older one of its target stale. */
const ANSWERED: ReadonlySet<ReviewState> = new Set([
  ReviewState.imported,
  ReviewState.empty,
  ReviewState.merged,
  ReviewState.dropped,
]);

/** The same target: the same worker, snapshot and range (or both the whole tree). */
function sameTarget(a: ReviewRecord, b: ReviewRecord): boolean {
  return (
    a.worker.name === b.worker.name &&
    a.snapshot.kind === b.snapshot.kind &&
    a.snapshot.commit === b.snapshot.commit &&
    a.range?.base === b.range?.base &&
    a.range?.head === b.range?.head
  );
}

/** Which reviews with a branch are done with, and why; `records` oldest first, as listRecords gives. */
export function pruneCandidates(records: readonly ReviewRecord[]): PruneCandidate[] {
  const candidates: PruneCandidate[] = [];
  for (const [index, record] of records.entries()) {
    if (!record.branch) continue;
    if (record.state === ReviewState.merged || record.state === ReviewState.dropped) {
      candidates.push({ record, reason: record.state });
      continue;
    }
    if (record.state !== ReviewState.imported) continue;
    const newer = records
      .slice(index + 1)
      .findLast((other) => ANSWERED.has(other.state) && sameTarget(record, other));
    if (newer) candidates.push({ record, reason: PruneReason.superseded, supersededBy: newer.id });
  }
  return candidates;
}

/** The refs a candidate's pruning deletes; empty when its branch is already gone. */
async function pruneUpdates(run: GitRun, candidate: PruneCandidate): Promise<RefUpdate[]> {
  const { record } = candidate;
  // A branch a work tree has checked out stays, as git branch -d leaves it.
  const branch = await branchDeletion(run, record).catch((error: unknown) => {
    if (error instanceof BranchCheckedOutError) return undefined;
    throw error;
  });
  if (branch === undefined) return [];
  const updates: RefUpdate[] = [branch];
  // A merge keeps its undo point (refs/review-remote/<id>/pre-merge); the others go as with drop.
  if (candidate.reason !== PruneReason.merged) {
    for (const ref of await listRefs(run, `refs/review-remote/${record.id}/`))
      updates.push({ op: "delete", ref });
  }
  return updates;
}

export interface PruneOutcome extends PruneCandidate {
  /** Deleted (or, with --dry-run, would be); false: kept, someone committed on it. */
  deleted: boolean;
}

/** Deletes each candidate's branch in a transaction of its own, so one moved branch keeps only itself. */
export async function pruneBranches(
  run: GitRun,
  candidates: readonly PruneCandidate[],
  dryRun: boolean,
): Promise<PruneOutcome[]> {
  const outcomes: PruneOutcome[] = [];
  for (const candidate of candidates) {
    const updates = await pruneUpdates(run, candidate);
    if (updates.length === 0) continue;
    if (dryRun) {
      const tip = await findCommit(run, `refs/heads/${candidate.record.branch}`);
      outcomes.push({ ...candidate, deleted: tip === (candidate.record.tip ?? tip) });
      continue;
    }
    const done = await updateRefs(run, updates, `review-remote: prune ${candidate.reason} review`);
    outcomes.push({ ...candidate, deleted: done.ok });
  }
  return outcomes;
}
