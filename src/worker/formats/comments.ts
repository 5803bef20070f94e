// The project's own format: comment JSON Lines with the result's fields, read by the same parser as the
// $REVIEW_REMOTE_COMMENTS file (a bad line is skipped with a warning, as it always was).

import { parseComments } from "../comments.js";
import { workerMessages as m } from "../messages.js";
import { cutAtLastLine } from "./lines.js";
import type { ConvertContext, ConvertOutcome } from "./types.js";

export function convertComments(bytes: Uint8Array, context: ConvertContext): ConvertOutcome {
  const { maxReportBytes, maxComments } = context.limits;
  const { bytes: kept, cut } = cutAtLastLine(bytes, maxReportBytes);
  const parsed = parseComments(new TextDecoder().decode(kept), maxComments, context.tier);
  const warnings = cut ? [...parsed.warnings, m.truncated("comments", maxReportBytes)] : parsed.warnings;
  const { comments, overLimit } = parsed;
  return { ok: true, report: { comments, overLimit, fixes: [], warnings } };
}
