// Reads one JSON report document (or one JSON line) as the protocol reads worker output: strict JSON,
// bounded depth, then a schema; the first problem becomes one line naming the format and the field.

import type { z } from "zod";
import { describeIssue, formatIssues } from "../../protocol/issues.js";
import { parseStrictJson, StrictJsonError } from "../../protocol/strict-json.js";
import { workerMessages as m } from "../messages.js";

export type JsonRead<T> = { ok: true; value: T } | { ok: false; error: string };

/** `where` prefixes the problem (`line 3: `) when the document is one line of several. */
export function readJson<T>(
  bytes: Uint8Array,
  format: string,
  schema: z.ZodType<T>,
  where = "",
): JsonRead<T> {
  let raw: unknown;
  try {
    raw = parseStrictJson(bytes);
  } catch (error) {
    const detail = error instanceof StrictJsonError ? error.message : String(error);
    return { ok: false, error: m.notJson(format, where, detail) };
  }
  const checked = schema.safeParse(raw, { error: describeIssue });
  if (checked.success) return { ok: true, value: checked.data };
  const first = formatIssues(checked.error.issues, "report")[0] ?? "report: is invalid";
  return { ok: false, error: m.invalid(format, where, first) };
}
