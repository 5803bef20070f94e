// Validation layer 1 of design §9 for a worker's stdout: size, strict JSON, schema, ids, limits. Returns
// problem lines instead of throwing, so the caller can report every one and exit 4.

import { capProblems, describeIssue, formatIssues } from "./issues.js";
import type { Request } from "./request.js";
import { checkResultLimits, RESULT_SCHEMA, type Result, ResultSchema } from "./result.js";
import { parseVersionedJson } from "./versioned-json.js";
export type ParseResultOutcome = { ok: true; result: Result } | { ok: false; problems: string[] };

/** Parses and validates raw result bytes against the request they answer. */
export function parseResult(bytes: Uint8Array, request: Request): ParseResultOutcome {
  const parsed = parseVersionedJson(bytes, {
    root: "result",
    schema: RESULT_SCHEMA,
    maxBytes: request.limits.maxResultBytes,
  });
  if (!parsed.ok) return parsed;
  const checked = ResultSchema.safeParse(parsed.value, { error: describeIssue, reportInput: true });
  if (!checked.success) return { ok: false, problems: formatIssues(checked.error.issues, "result") };
  const result = checked.data;
  const problems: string[] = [];
  if (result.requestId !== request.id) {
    problems.push(`requestId: answers request ${result.requestId}, not this request ${request.id}`);
  }
  if (result.bundleSha256 !== request.bundle.sha256) {
    problems.push(
      `bundleSha256: names bundle ${result.bundleSha256}, not the bundle sent ${request.bundle.sha256}`,
    );
  }
  problems.push(...checkResultLimits(result, request.limits), ...checkResultActions(result, request));
  return problems.length > 0 ? { ok: false, problems: capProblems(problems) } : { ok: true, result };
}

/** A worker answers only what it was asked: no commits unless `propose`, no comments unless `comment`. */
function checkResultActions(result: Result, request: Request): string[] {
  const problems: string[] = [];
  if (result.commits.length > 0 && !request.actions.includes("propose")) {
    problems.push(`commits: ${result.commits.length} commits, but the request did not ask for proposals`);
  }
  if (result.comments.length > 0 && !request.actions.includes("comment")) {
    problems.push(`comments: ${result.comments.length} comments, but the request did not ask for comments`);
  }
  return problems;
}
