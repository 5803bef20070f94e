// One comment on one line, `path:line severity message`: the terminal, the hook and the git note
// all show comments this way, the path as git prints paths under the user's core.quotePath.
import type { ReviewComment } from "../protocol/result.js";
import { sanitizeLine } from "../validate/sanitize.js";
import { showPath } from "./path.js";

/**
 * `quotePath`: core.quotePath; the path is printed as git prints paths under it (a tab or a line
 * break always quoted, a non-ASCII byte when it is true), as `git diff --stat` beside it would.
 */
export function formatComment(comment: ReviewComment, quotePath: boolean): string {
  const path = comment.path ? showPath(comment.path, quotePath) : undefined;
  const where = path ? `${path}${comment.line ? `:${comment.line}` : ""}` : "(general)";
  return `${where} ${comment.severity} ${sanitizeLine(comment.message)}`;
}
