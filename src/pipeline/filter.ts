// Findings filtered to the change, as reviewdog filters them (`-filter-mode`): `added` keeps comments
// on lines the change added, `diff_context` those within its hunks (context lines included), `file`
// those in changed files, `nofilter` everything. The change is what the local side computed with git
// when it exported (`changes.json` in the review's store), never what the worker says.
import type { ChangedLines, LineSpan } from "../protocol/changed-lines.js";
import type { ReviewComment } from "../protocol/result.js";

export const FilterMode = {
  added: "added",
  diffContext: "diff_context",
  file: "file",
  nofilter: "nofilter",
} as const;
export type FilterMode = (typeof FilterMode)[keyof typeof FilterMode];

const MODES: ReadonlySet<string> = new Set(Object.values(FilterMode));

export function isFilterMode(value: string): value is FilterMode {
  return MODES.has(value);
}

/** The mode a review is shown with: the flag, then review-remote.filterMode, then `added`. */
export function chooseFilterMode(flag: FilterMode | undefined, config: FilterMode | undefined): FilterMode {
  return flag ?? config ?? FilterMode.added;
}

export interface FilteredComments {
  /** `nofilter` when the review had no change to filter by (a whole-tree review). */
  mode: FilterMode;
  shown: ReviewComment[];
  hidden: ReviewComment[];
}

function overlaps(spans: readonly LineSpan[], first: number, last: number): boolean {
  return spans.some(([from, to]) => from <= last && to >= first);
}

function isInChange(
  comment: ReviewComment,
  files: ReadonlyMap<string, ChangedLines["files"][number]>,
  mode: FilterMode,
) {
  if (mode === FilterMode.nofilter || comment.path === undefined) return true;
  const file = files.get(comment.path);
  if (!file) return false;
  if (mode === FilterMode.file || comment.line === undefined) return true;
  const spans = mode === FilterMode.added ? file.added : file.hunks;
  // Lines unknown (a binary file): the file is in the change, so is the comment.
  if (spans === null) return true;
  return overlaps(spans, comment.line, comment.endLine ?? comment.line);
}

/**
 * Splits comments into those the mode shows and those it hides. A comment about the whole change
 * (no path) is always shown; one about a changed file but no line, in every mode but nofilter.
 */
export function filterComments(
  comments: readonly ReviewComment[],
  changes: ChangedLines | undefined,
  mode: FilterMode,
): FilteredComments {
  if (!changes) return { mode: FilterMode.nofilter, shown: [...comments], hidden: [] };
  const files = new Map(changes.files.map((file) => [file.path, file]));
  const filtered: FilteredComments = { mode, shown: [], hidden: [] };
  for (const comment of comments)
    (isInChange(comment, files, mode) ? filtered.shown : filtered.hidden).push(comment);
  return filtered;
}
