// Comments are checked against what was sent: a path in the manifest, a line that exists in it.
import type { ManifestFile } from "../export/archive.js";
import type { ReviewComment } from "../protocol/result.js";
import { plural } from "../report/plural.js";
import { quoteForDisplay, sanitizeLine } from "./sanitize.js";

/**
 * A check of one comment against what was sent: the comment to keep, or a problem line. The line just
 * past the last is where a file that ends in a newline ends, where a parser reports what the end of
 * the file left open (Biome's "Expected a closing tag but instead found the end of the file"): that
 * comment is kept, on the file's last line.
 */
export function commentChecker(
  files: readonly ManifestFile[],
): (comment: ReviewComment, index: number) => ReviewComment | string {
  const lines = new Map(files.map((file) => [file.path, file.lines]));
  return (comment, index) => {
    if (comment.path === undefined) return comment;
    const count = lines.get(comment.path);
    if (count === undefined) {
      // Escaped, not stripped: `app\u200d.ts` stripped would read as the `app.ts` that was sent.
      return `comments.${index}.path: ${quoteForDisplay(comment.path)} was not sent to the worker`;
    }
    const last = comment.endLine ?? comment.line;
    if (last === undefined || last <= Math.max(count, 1)) return comment;
    if (count >= 1 && last === count + 1) return onLastLine(comment, count);
    const has = plural(count, "line");
    return `comments.${index}.line: ${sanitizeLine(comment.path)} has ${has}, not ${last}`;
  };
}

/** A comment that ends at the end of a file of `count` lines, ending on its last line instead. */
function onLastLine(comment: ReviewComment, count: number): ReviewComment {
  const { endLine: _, ...rest } = comment;
  const line = Math.min(comment.line ?? count, count);
  return line < count ? { ...rest, line, endLine: count } : { ...rest, line };
}

/** What is stored and printed: every text sanitized (validation layer 5). */
export function sanitizeComment(comment: ReviewComment): ReviewComment {
  return {
    ...comment,
    message: sanitizeLine(comment.message),
    ...(comment.rule !== undefined ? { rule: sanitizeLine(comment.rule) } : {}),
  };
}
