// One comment on one line, `path:line severity message`: the terminal, the hook and the git note
// all show comments this way.
import { quoteLikeGit } from "../git/quote.js";
import type { ReviewComment } from "../protocol/result.js";
import { escapeForDisplay, sanitizeLine } from "../validate/sanitize.js";

/**
 * `quotePath`: print the path as git prints paths under that core.quotePath (`show`, beside git's
 * own stat); without it, as it is but for what a terminal could misread.
 */
export function formatComment(comment: ReviewComment, quotePath?: boolean): string {
  const path = comment.path ? showPath(comment.path, quotePath) : undefined;
  const where = path ? `${path}${comment.line ? `:${comment.line}` : ""}` : "(general)";
  return `${where} ${comment.severity} ${sanitizeLine(comment.message)}`;
}

/** What git's quoting leaves as it is (quotePath false: a bidi or format character) is escaped still. */
function showPath(path: string, quotePath: boolean | undefined): string {
  return escapeForDisplay(quotePath === undefined ? path : quoteLikeGit(path, quotePath));
}
