// `--fail-level`, as reviewdog's: the review exits non-zero (7) when a finding it reported (after the
// filter stage) is at or above a severity, so CI and scripts can gate on what the review found.
import { overLimitNote } from "../protocol/limits.js";
import type { ReviewComment, Severity } from "../protocol/result.js";

export const FailLevel = { none: "none", error: "error", warning: "warning", info: "info" } as const;
export type FailLevel = (typeof FailLevel)[keyof typeof FailLevel];

const LEVELS: ReadonlySet<string> = new Set(Object.values(FailLevel));

export function isFailLevel(value: string): value is FailLevel {
  return LEVELS.has(value);
}

/** The flag, then review-remote.failLevel, then `none`: a review alone never fails on its findings. */
export function chooseFailLevel(flag: FailLevel | undefined, config: FailLevel | undefined): FailLevel {
  return flag ?? config ?? FailLevel.none;
}

const RANK: Readonly<Record<Severity, number>> = { error: 3, warning: 2, info: 1 };
const THRESHOLD: Readonly<Record<FailLevel, number>> = {
  none: Number.POSITIVE_INFINITY,
  error: 3,
  warning: 2,
  info: 1,
};

/**
 * The reported findings (the comments the filter kept, of every review) at or above `level`. A
 * worker's note that it left its proposals out for a limit is about the review, not the code: the
 * warning about it is enough, and it is no finding.
 */
export function countAtFailLevel(comments: readonly ReviewComment[], level: FailLevel): number {
  const threshold = THRESHOLD[level];
  const isFinding = (comment: ReviewComment) => overLimitNote(comment) === undefined;
  return comments.filter((comment) => RANK[comment.severity] >= threshold && isFinding(comment)).length;
}
