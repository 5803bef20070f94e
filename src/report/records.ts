// What `list` and `show` show: the reviews in the store, and one review in full (text, JSON, SARIF).
import { messages } from "../messages.js";
import type { FilteredComments } from "../pipeline/filter.js";
import type { Result } from "../protocol/result.js";
import { summaryProse } from "../protocol/summary.js";
import type { ReviewRecord } from "../store/records.js";
import { formatComment } from "./comment.js";
import { formatSize, type Output, paint } from "./output.js";
import { plural } from "./plural.js";
import { describeReceipt, receiptJson } from "./receipt.js";
import { toSarif } from "./sarif.js";
import { describeHidden, describeLeftOut, describeScope, leftOut } from "./target.js";

/**
 * A review's counts, as shown: the comments the filter kept (those outside the change are counted on
 * their own line) and the commits imported; the same words in the review's line and in `show`.
 */
export function describeCounts(record: Pick<ReviewRecord, "commits">, comments: number): string {
  return `${plural(comments, "comment")}, ${plural(record.commits, "proposed commit")}`;
}

/** The characters of a failed or rejected review's problem that `list` shows; `show` has it whole. */
const MAX_LISTED_PROBLEM = 100;

/**
 * The review's words, with the errors among its comments: those in the change, as the review showed
 * them, then how many the filter hid outside it.
 */
function describeListCounts(record: ReviewRecord): string {
  // A review that failed, or whose result was rejected, has nothing to count: its first problem says
  // what happened (as `show` does).
  const [problem] = record.problems ?? [];
  if ((record.state === "failed" || record.state === "rejected") && problem !== undefined) {
    return problem.length > MAX_LISTED_PROBLEM ? `${problem.slice(0, MAX_LISTED_PROBLEM - 1)}…` : problem;
  }
  const outside = record.outsideComments;
  const comments = record.comments - (outside?.comments ?? 0);
  const errors = record.errors - (outside?.errors ?? 0);
  const counts = `${plural(comments, "comment")} (${plural(errors, "error")}), ${plural(record.commits, "proposed commit")}`;
  return outside?.comments
    ? `${counts}; ${plural(outside.comments, "comment")} outside the change hidden`
    : counts;
}

export function printRecords(
  records: readonly ReviewRecord[],
  json: boolean,
  output: Output,
  branchExists: (branch: string) => boolean,
  workTree: boolean,
): void {
  if (json) {
    output.json(records);
    return;
  }
  if (records.length === 0) {
    output.out(workTree ? messages.noReviewsYet : messages.noReviewsYetBare);
    return;
  }
  for (const record of records) {
    const snapshot = `${record.snapshot.kind === "worktree" ? "worktree@" : ""}${record.snapshot.commit.slice(0, 10)}`;
    output.out(
      [
        record.id,
        record.state.padEnd(8),
        record.worker.name.padEnd(10),
        snapshot.padEnd(19),
        describeScope(record).padEnd(22),
        (record.branch && branchExists(record.branch) ? record.branch : "-").padEnd(20),
        describeListCounts(record),
      ].join("  "),
    );
  }
}

export const ShowFormat = { text: "text", json: "json", sarif: "sarif" } as const;
export type ShowFormat = (typeof ShowFormat)[keyof typeof ShowFormat];

/** One review: its record, its stored result (if readable), and each proposal's stat (text only). */
export interface ShownReview {
  record: ReviewRecord;
  result: Result | undefined;
  proposals: string | undefined;
  /** The result's comments split by the change; the text shows the hidden ones only when asked. */
  comments: FilteredComments;
  allComments: boolean;
  /** core.quotePath: every path the text prints is printed as git prints it, as the stat is. */
  quotePath: boolean;
  /** When prune removed the bundle it sent (its manifest stays); undefined while it is stored. */
  bundlePruned?: string | undefined;
  /** The review's branch is no longer there (merge, drop or prune deleted it); the text says so. */
  branchGone?: boolean;
}

function printComments(shown: ShownReview, output: Output): void {
  const { shown: inChange, hidden, mode } = shown.comments;
  const outside = shown.allComments ? hidden : [];
  // The count of those hidden stands under the heading too, not as the summary's last line.
  if (inChange.length + hidden.length > 0) output.out("\nComments:");
  for (const comment of inChange) output.out(`  ${formatComment(comment, shown.quotePath)}`);
  for (const comment of outside)
    output.out(
      `  ${formatComment(comment, shown.quotePath)} ${paint(output, "dim", "(outside the change)")}`,
    );
  if (!shown.allComments && hidden.length > 0)
    output.out(`  ${paint(output, "dim", describeHidden(shown.record.id, mode, hidden.length))}`);
}

/** A dropped part's word for one of it: `1 comment`, `1 proposal`, as `3 comments`. */
const ONE_PART = { comments: "comment", proposals: "proposal" } as const;

export function printShow(shown: ShownReview, format: ShowFormat, output: Output): void {
  const { record, result, comments } = shown;
  if (format === ShowFormat.json) {
    const { fixes, files } = leftOut(record);
    const filter = {
      mode: comments.mode,
      comments: comments.shown,
      hiddenComments: comments.hidden,
      leftOutFixes: fixes,
      leftOutFiles: files,
    };
    const receipt = receiptJson(record);
    const bundle = { sha256: record.bundleSha256, pruned: shown.bundlePruned ?? null };
    output.json({ review: record, result: result ?? null, receipt, filter, bundle });
    return;
  }
  if (format === ShowFormat.sarif) {
    output.json(toSarif(comments, record.worker.name));
    return;
  }
  output.out(`review ${record.id} (${record.state}) by ${record.worker.name}`);
  output.out(`snapshot ${record.snapshot.kind} ${record.snapshot.commit}`);
  output.out(record.range ? `range    ${record.range.base}..${record.range.head}` : "range    whole tree");
  if (record.branch) {
    const gone =
      shown.branchGone && record.tip
        ? ` (deleted; ${messages.restoreBranch(record.branch, record.tip, false)})`
        : "";
    output.out(`branch   ${record.branch}${gone}`);
  }
  const counted = shown.allComments ? comments.shown.length + comments.hidden.length : comments.shown.length;
  if (result) output.out(`result   ${describeCounts(record, counted)}`);
  const left = describeLeftOut(record);
  if (left) output.out(`scope    ${left}`);
  output.out(`receipt  ${describeReceipt(record)}`);
  if (shown.bundlePruned)
    output.out(
      `bundle   ${record.bundleSha256.slice(0, 16)} pruned on ${shown.bundlePruned}; its manifest stays`,
    );
  if (record.pruned) {
    const { files, bytes, time } = record.pruned;
    output.out(`pruned   ${files.join(", ")} (${formatSize(bytes)}) on ${time}; the record stays`);
  }
  for (const problem of record.problems ?? []) output.out(`problem  ${problem}`);
  for (const part of record.dropped ?? []) {
    const what = part.count === undefined ? part.part : plural(part.count, ONE_PART[part.part], part.part);
    // The worker's own note about proposals it left out is among the comments below.
    const why = part.problems.length > 0 ? part.problems.join("; ") : "over a limit (see the comments)";
    output.out(`dropped  ${what}: ${why}`);
  }
  const summary = result ? summaryProse(result) : "";
  if (summary) output.out(`\n${summary}`);
  printComments(shown, output);
  if (shown.proposals !== undefined) output.out(shown.proposals);
}
