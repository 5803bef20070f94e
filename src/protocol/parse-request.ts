// The worker's first check of an envelope (design §8): the request line must be strict JSON, match the
// v1 schema and carry the id of its own content, before a single bundle byte is read.

import { describeIssue, formatIssues } from "./issues.js";
import { type Request, RequestSchema } from "./request.js";
import { computeRequestId, REQUEST_SCHEMA } from "./request-line.js";
import { parseVersionedJson } from "./versioned-json.js";

export type ParseRequestOutcome = { ok: true; request: Request } | { ok: false; problems: string[] };

/** Parses and validates a request line (without its newline); `maxBytes` defaults to no extra cap. */
export function parseRequest(bytes: Uint8Array, maxBytes = Number.MAX_SAFE_INTEGER): ParseRequestOutcome {
  const parsed = parseVersionedJson(bytes, { root: "request", schema: REQUEST_SCHEMA, maxBytes });
  if (!parsed.ok) return parsed;
  const checked = RequestSchema.safeParse(parsed.value, { error: describeIssue, reportInput: true });
  if (!checked.success) return { ok: false, problems: formatIssues(checked.error.issues, "request") };
  const request = checked.data;
  const expected = computeRequestId(request);
  if (expected !== request.id) {
    return {
      ok: false,
      problems: [`id: ${request.id} does not match the request's content (expected ${expected})`],
    };
  }
  return { ok: true, request };
}
