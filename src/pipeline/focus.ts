// The filter stage: the change a focused review was about, kept in its store record when it is
// sent (`changes.json`), and each outcome's comments split by it before anything is reported.

import type { RangeInfo } from "../export/range.js";
import { type ChangedLines, changedLinesOf } from "../protocol/changed-lines.js";
import type { ReviewComment } from "../protocol/result.js";
import type { StorePaths } from "../store/layout.js";
import { type ReviewRecord, readReviewFile, writeReviewFile } from "../store/records.js";
import type { ProposalScope } from "./context.js";
import { chooseFilterMode, FilterMode, filterComments } from "./filter.js";
import type { ReviewOutcome } from "./outcome.js";

const CHANGES_FILE = "changes.json";

/** The change of a focused export, from the full patch git made here (the request may omit it). */
export function changesOf(range: RangeInfo | undefined): ChangedLines | undefined {
  return range ? changedLinesOf(range) : undefined;
}

export async function writeChanges(store: StorePaths, id: string, changes: ChangedLines): Promise<void> {
  await writeReviewFile(store, id, CHANGES_FILE, `${JSON.stringify(changes)}\n`);
}

/** A review's change; undefined for a whole-tree review (or a record from before changes were kept). */
export async function readChanges(store: StorePaths, id: string): Promise<ChangedLines | undefined> {
  const text = await readReviewFile(store, id, CHANGES_FILE);
  if (text === undefined) return undefined;
  try {
    // Written by this tool into the user's own git dir: a shape check is enough.
    const parsed = JSON.parse(text) as Partial<ChangedLines>;
    return Array.isArray(parsed.files) ? (parsed as ChangedLines) : undefined;
  } catch {
    return undefined;
  }
}

/** What a focused review's proposals are kept to: its changed paths (all of them under nofilter). */
export function proposalScope(
  changes: ChangedLines | undefined,
  mode: FilterMode,
): ProposalScope | undefined {
  if (!changes) return undefined;
  const paths = new Set(changes.files.map((file) => file.path));
  return { paths, keepAll: mode === FilterMode.nofilter, changes, mode };
}

/**
 * The outcome with only the comments `mode` shows; the hidden ones are counted beside them. `changes`:
 * the change of the run (every outcome of one run, answered or cached, is of the same target), read
 * once by the caller, or undefined for a whole-tree review.
 */
export function focusOutcome(
  outcome: ReviewOutcome,
  changes: ChangedLines | undefined,
  mode: FilterMode,
): ReviewOutcome {
  const filtered = filterComments(outcome.comments, outcome.record.range ? changes : undefined, mode);
  return { ...outcome, comments: filtered.shown, filter: { mode: filtered.mode, hidden: filtered.hidden } };
}

/**
 * A focused review's record written before the comments outside its change were counted (it counts
 * them all): counted now from its stored result and change, by the mode it was asked for (else the
 * configured one), as `show` filters them. Unchanged when the answer is no longer stored (prune
 * counts them before it removes it).
 */
export async function withOutsideCounted(
  store: StorePaths,
  record: ReviewRecord,
  mode: FilterMode | undefined,
): Promise<ReviewRecord> {
  if (record.range === null || record.outsideComments !== undefined || record.comments === 0) return record;
  const [text, changes] = await Promise.all([
    readReviewFile(store, record.id, "result.json"),
    readChanges(store, record.id),
  ]);
  if (text === undefined || changes === undefined) return record;
  let comments: ReviewComment[];
  try {
    comments = (JSON.parse(text) as { comments?: ReviewComment[] }).comments ?? [];
  } catch {
    return record;
  }
  if (!Array.isArray(comments)) return record;
  const { hidden } = filterComments(
    comments,
    changes,
    chooseFilterMode(undefined, record.filterMode ?? mode),
  );
  const errors = hidden.filter((comment) => comment.severity === "error").length;
  return { ...record, outsideComments: { comments: hidden.length, errors } };
}
