// Builds the one result document the worker prints (design §6), checked against the same schema and
// limits the client applies: a worker-side overflow becomes status "failed" with a clear error instead
// of a document the client would reject as invalid.

import type { Request } from "../protocol/request.js";
import {
  checkResultLimits,
  type ProposedCommit,
  RESULT_SCHEMA,
  type Result,
  ResultSchema,
  type ReviewComment,
} from "../protocol/result.js";
import { readVersion } from "../version.js";
import type { SandboxKind } from "./sandbox.js";

const WORKER_NAME = "git-review-remote";

export interface ReviewOutput {
  status: "ok" | "failed";
  summary: string;
  comments: ReviewComment[];
  commits: ProposedCommit[];
  error?: string;
}

/** A failed review's output: nothing proposed, the comments made so far kept. */
export function failedOutput(summary: string, error: string, comments: ReviewComment[] = []): ReviewOutput {
  return { status: "failed", summary, comments, commits: [], error };
}

function assemble(request: Request, sandbox: SandboxKind, output: ReviewOutput): Result {
  return {
    schema: RESULT_SCHEMA,
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    status: output.status,
    summary: output.summary,
    worker: { name: WORKER_NAME, version: readVersion(), sandbox },
    // A worker answers only what it was asked (the client checks this too).
    comments: request.actions.includes("comment") ? output.comments.slice(0, request.limits.maxComments) : [],
    commits: output.status === "ok" && request.actions.includes("propose") ? output.commits : [],
    ...(output.status === "failed" ? { error: output.error ?? "the review failed" } : {}),
  };
}

function problemsOf(result: Result, request: Request): string[] {
  const checked = ResultSchema.safeParse(result);
  if (!checked.success) {
    return checked.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "result"}: ${issue.message}`);
  }
  return checkResultLimits(result, request.limits);
}

/** The result as JSON text (with a final newline), always valid for `request`. */
export function renderResult(request: Request, sandbox: SandboxKind, output: ReviewOutput): string {
  let result = assemble(request, sandbox, output);
  let problems = problemsOf(result, request);
  let text = `${JSON.stringify(result)}\n`;
  if (problems.length === 0 && Buffer.byteLength(text) > request.limits.maxResultBytes) {
    problems = [
      `the result is ${Buffer.byteLength(text)} bytes, over the limit of ${request.limits.maxResultBytes}`,
    ];
  }
  if (problems.length === 0) return text;
  result = assemble(request, sandbox, {
    status: "failed",
    summary: "The review produced more than the request's limits allow.",
    comments: [],
    commits: [],
    error: `the worker could not send its result: ${problems.join("; ")}`.slice(0, 4096),
  });
  text = `${JSON.stringify(result)}\n`;
  return text;
}
