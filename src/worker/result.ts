// Builds the one result document the worker prints (design §6), checked against the same schema and
// limits the client applies: proposals over a limit are left out and said so in a comment (the
// comments still count); any other overflow becomes status "failed" with a clear error instead of a
// document the client would reject as invalid.

import { overLimitRule, type RaisableLimit } from "../protocol/limits.js";
import { mostSevere } from "../protocol/parse-result.js";
import type { Request } from "../protocol/request.js";
import {
  MAX_TEXT_LENGTH,
  type ProposedCommit,
  proposalsOverLimit,
  RESULT_SCHEMA,
  type Receipt,
  type Result,
  ResultSchema,
  type ReviewComment,
} from "../protocol/result.js";
import { BUILTIN_WORKER_NAME } from "../protocol/summary.js";
import { readVersion } from "../version.js";
import { changeTier } from "./change-tier.js";
import { workerMessages } from "./messages.js";
import type { SandboxKind } from "./sandbox.js";

export interface ReviewOutput {
  status: "ok" | "failed";
  summary: string;
  comments: ReviewComment[];
  /** Comments the reviewers made over the request's limit and left out before these. */
  overLimit?: number;
  commits: ProposedCommit[];
  error?: string;
}

/** A failed review's output: nothing proposed, the comments made so far kept. */
export function failedOutput(summary: string, error: string, comments: ReviewComment[] = []): ReviewOutput {
  return { status: "failed", summary, comments, commits: [], error };
}

/**
 * Proposals over a request limit left out, with a comment about the whole change saying so: its rule
 * names the limit, so the client can tell the user how to raise it.
 */
export function withoutProposals(output: ReviewOutput, limit: RaisableLimit, reason: string): ReviewOutput {
  const note: ReviewComment = {
    severity: "warning",
    rule: overLimitRule(limit),
    message: `The proposed changes were left out: ${reason}. Review a narrower change, or raise the limit.`,
  };
  // The reviewer's summary says what it changed; its first line, the one shown, says it was left out.
  const summary = withParagraph(`The proposed changes were left out: ${reason}.`, output.summary);
  return { ...output, summary, commits: [], comments: [note, ...output.comments] };
}

/** The summary with a paragraph added, cut to the length the schema allows. */
function withParagraph(summary: string, paragraph: string): string {
  return `${summary}\n\n${paragraph}`
    .trim()
    .slice(0, MAX_TEXT_LENGTH)
    .replace(/[\uD800-\uDBFF]$/, "");
}

/**
 * The comments the request allows: the most severe, as the client keeps. How many were left out,
 * the reports' own cut and this one together, is said once, with the same words on stderr and first
 * in the summary (the line the review shows).
 */
function keptComments(
  request: Request,
  output: ReviewOutput,
  say: ((line: string) => void) | undefined,
): { comments: ReviewComment[]; summary: string } {
  // A worker answers only what it was asked (the client checks this too).
  if (!request.actions.includes("comment")) return { comments: [], summary: output.summary };
  const { maxComments } = request.limits;
  const tier = changeTier(request);
  const comments = mostSevere(output.comments, maxComments, tier);
  const left = output.comments.length - comments.length + (output.overLimit ?? 0);
  if (left === 0) return { comments, summary: output.summary };
  // A focused review's cut keeps the change's first: the sentence says so, under a count of a few.
  const sentence = workerMessages.commentsLeftOut(left, maxComments, tier !== undefined);
  say?.(sentence);
  return { comments, summary: withParagraph(sentence, output.summary) };
}

function assemble(
  request: Request,
  sandbox: SandboxKind,
  output: ReviewOutput,
  say?: (line: string) => void,
): Result {
  const { comments, summary } = keptComments(request, output, say);
  return {
    schema: RESULT_SCHEMA,
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    status: output.status,
    summary,
    worker: { name: BUILTIN_WORKER_NAME, version: readVersion(), sandbox },
    comments,
    commits: output.status === "ok" && request.actions.includes("propose") ? output.commits : [],
    ...(output.status === "failed" ? { error: output.error ?? "the review failed" } : {}),
  };
}

/** Signs a finished result (design §12): the receipt that goes inside it. */
export type SignResult = (result: Result) => Promise<Receipt>;

/** Schema and the size of the text, as in the client: what it would reject. */
function problemsOf(result: Result, text: string, request: Request): string[] {
  const checked = ResultSchema.safeParse(result);
  if (!checked.success) {
    return checked.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "result"}: ${issue.message}`);
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > request.limits.maxResultBytes) {
    return [`the result is ${bytes} bytes, over the limit of ${request.limits.maxResultBytes}`];
  }
  return [];
}

/** In a `u` regex a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/**
 * `value` with half a surrogate pair in any string (a reviewer's `"\ud800"` escape, a cut in the
 * wrong place) replaced by U+FFFD: the client's parser refuses a result that holds one anywhere, and
 * the receipt's canonical JSON cannot hold one, so one comment's text would cost the whole review.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\uFFFD");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, wellFormed(inner)]));
}

/** The result with its receipt, when the worker signs, as JSON text with a final newline. */
async function render(
  result: Result,
  sign: SignResult | undefined,
): Promise<{ result: Result; text: string }> {
  const complete = sign ? { ...result, receipt: await sign(result) } : result;
  return { result: complete, text: `${JSON.stringify(complete)}\n` };
}

/**
 * The result as JSON text (with a final newline), always valid for `request`, signed when `sign` is
 * given: the receipt vouches for exactly the document sent, the failed one when the first is over.
 */
export async function renderResult(
  request: Request,
  sandbox: SandboxKind,
  reviewed: ReviewOutput,
  options: { sign?: SignResult | undefined; say?: (line: string) => void } = {},
): Promise<string> {
  const { sign, say } = options;
  const over = proposalsOverLimit(reviewed.commits, request.limits);
  const output = over
    ? withoutProposals(reviewed, over.limit, over.problem.replace(/^commits: /, ""))
    : reviewed;
  const first = await render(wellFormed(assemble(request, sandbox, output, say)) as Result, sign);
  const problems = problemsOf(first.result, first.text, request);
  if (problems.length === 0) return first.text;
  const failed = assemble(request, sandbox, {
    status: "failed",
    summary: "The review produced more than the request's limits allow.",
    comments: [],
    commits: [],
    error: `the worker could not send its result: ${problems.join("; ")}`.slice(0, 4096),
  });
  return (await render(failed, sign)).text;
}
