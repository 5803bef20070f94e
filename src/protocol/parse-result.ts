// Validation layer 1 of design §9 for a worker's stdout: size, strict JSON, schema, ids, limits. What is
// hostile or malformed as a whole (the envelope) refuses the result: problem lines, exit 4. A comment
// that breaks a rule, and what goes over a limit, is dropped and counted; the rest is kept.

import { plural } from "../report/plural.js";
import { capProblems, describeIssue, formatIssues } from "./issues.js";
import { overLimitNote, type RaisableLimit } from "./limits.js";
import type { Request } from "./request.js";
import {
  proposalsOverLimit,
  RESULT_SCHEMA,
  type Result,
  ResultEnvelopeSchema,
  type ReviewComment,
  ReviewCommentSchema,
} from "./result.js";
import { parseVersionedJson } from "./versioned-json.js";

/** A part of a valid result left out, and why. */
export interface Dropped {
  part: "comments" | "proposals";
  /** How many were left out (unknown when the worker itself left its proposals out). */
  count?: number;
  /** What they broke, one line each (capped). */
  problems: string[];
  /** The request's limit they went over, when that is why. */
  limit?: RaisableLimit;
}

export type ParseResultOutcome =
  | {
      ok: true;
      result: Result;
      dropped: Dropped[];
      /** The document as received, before anything was dropped: what a receipt's digest is of. */
      document: unknown;
    }
  | { ok: false; problems: string[] };

export interface ParseResultOptions {
  /**
   * A further check of one schema-valid comment (against what was sent): the comment to keep (its
   * place maybe moved to where it fits), or a problem line.
   */
  checkComment?: (comment: ReviewComment, index: number) => ReviewComment | string;
}

/** Problem lines of one dropped comment are shown to the user: a few tell the worker's author enough. */
const MAX_DROPPED_LINES = 10;

const SEVERITY_RANK: Readonly<Record<ReviewComment["severity"], number>> = { error: 0, warning: 1, info: 2 };

/** Parses and validates raw result bytes against the request they answer. */
export function parseResult(
  bytes: Uint8Array,
  request: Request,
  options: ParseResultOptions = {},
): ParseResultOutcome {
  const parsed = parseVersionedJson(bytes, {
    root: "result",
    schema: RESULT_SCHEMA,
    maxBytes: request.limits.maxResultBytes,
  });
  if (!parsed.ok) return parsed;
  const checked = ResultEnvelopeSchema.safeParse(parsed.value, { error: describeIssue, reportInput: true });
  if (!checked.success) return { ok: false, problems: formatIssues(checked.error.issues, "result") };
  const envelope = checked.data;
  const problems: string[] = [];
  if (envelope.requestId !== request.id) {
    problems.push(`requestId: answers request ${envelope.requestId}, not this request ${request.id}`);
  }
  if (envelope.bundleSha256 !== request.bundle.sha256) {
    problems.push(
      `bundleSha256: names bundle ${envelope.bundleSha256}, not the bundle sent ${request.bundle.sha256}`,
    );
  }
  problems.push(...checkResultActions(envelope, request));
  if (problems.length > 0) return { ok: false, problems: capProblems(problems) };

  const dropped: Dropped[] = [];
  const triaged = triageComments(envelope.comments, options.checkComment);
  if (triaged.problems.length > 0) {
    const count = triaged.problems.length;
    dropped.push({ part: "comments", count, problems: capProblems(triaged.problems, MAX_DROPPED_LINES) });
  }
  const { maxComments } = request.limits;
  const comments = mostSevere(triaged.kept, maxComments);
  if (comments.length < triaged.kept.length) {
    const count = triaged.kept.length - comments.length;
    const problem = `comments: ${plural(triaged.kept.length, "comment")}, over the limit of ${maxComments}`;
    dropped.push({ part: "comments", count, problems: [problem], limit: "maxComments" });
  }
  let commits = envelope.commits;
  const over = proposalsOverLimit(commits, request.limits);
  if (over) {
    dropped.push({ part: "proposals", count: commits.length, problems: [over.problem], limit: over.limit });
    commits = [];
  }
  return { ok: true, result: { ...envelope, comments, commits }, dropped, document: parsed.value };
}

/** Each comment on its own: those that pass, and one problem line per comment that does not. */
function triageComments(
  raw: readonly unknown[],
  checkComment: ParseResultOptions["checkComment"],
): { kept: ReviewComment[]; problems: string[] } {
  const kept: ReviewComment[] = [];
  const problems: string[] = [];
  for (const [index, value] of raw.entries()) {
    const comment = ReviewCommentSchema.safeParse(value, { error: describeIssue, reportInput: true });
    if (!comment.success) {
      const issues = comment.error.issues.map((issue) => ({
        ...issue,
        path: ["comments", index, ...issue.path],
      }));
      problems.push(formatIssues(issues, "result", 1)[0] as string);
      continue;
    }
    const checked = checkComment ? checkComment(comment.data, index) : comment.data;
    if (typeof checked === "string") problems.push(checked);
    else kept.push(checked);
  }
  return { kept, problems };
}

/**
 * A comment's place in the cut to the limit: first a note that proposals were left out over a limit
 * (a warning about the whole review, which says why there is no branch and which limit to raise: the
 * client reads it), then by `tier` (a worker puts the change's comments first), then by severity.
 */
function cutRank(comment: ReviewComment, tier: CommentTier | undefined): number {
  if (overLimitNote(comment) !== undefined) return -1;
  return (tier?.(comment) ?? 0) * 10 + SEVERITY_RANK[comment.severity];
}

/** A comment's group in the cut to the limit: lower groups are kept first, whatever their severity. */
export type CommentTier = (comment: ReviewComment) => number;

/** At most `max` comments, the most severe first (within `tier`'s groups), in the order the worker gave them. */
export function mostSevere(comments: ReviewComment[], max: number, tier?: CommentTier): ReviewComment[] {
  if (comments.length <= max) return comments;
  const order = comments
    .map((comment, index) => ({ rank: cutRank(comment, tier), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  const chosen = new Set(order.slice(0, max).map((entry) => entry.index));
  return comments.filter((_, index) => chosen.has(index));
}

/** A worker answers only what it was asked: no commits unless `propose`, no comments unless `comment`. */
function checkResultActions(result: { comments: unknown[]; commits: unknown[] }, request: Request): string[] {
  const problems: string[] = [];
  if (result.commits.length > 0 && !request.actions.includes("propose")) {
    problems.push(
      `commits: ${plural(result.commits.length, "commit")}, but the request did not ask for proposals`,
    );
  }
  if (result.comments.length > 0 && !request.actions.includes("comment")) {
    problems.push(
      `comments: ${plural(result.comments.length, "comment")}, but the request did not ask for comments`,
    );
  }
  return problems;
}
