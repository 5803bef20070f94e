// One comment on one line, `path:line severity message`: the terminal, the hook and the git note
// all show comments this way.
import type { ReviewComment } from "../protocol/result.js";
import { escapeForDisplay, sanitizeLine } from "../validate/sanitize.js";

export function formatComment(comment: ReviewComment): string {
  const where = comment.path
    ? `${escapeForDisplay(comment.path)}${comment.line ? `:${comment.line}` : ""}`
    : "(general)";
  return `${where} ${comment.severity} ${sanitizeLine(comment.message)}`;
}
