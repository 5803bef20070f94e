// Comments are checked against what was sent: a path in the manifest, a line that exists in it.
import type { ManifestFile } from "../export/archive.js";
import type { ReviewComment } from "../protocol/result.js";
import { quoteForDisplay, sanitizeLine } from "./sanitize.js";

/** A check of one comment against what was sent: a problem line, or undefined when it fits. */
export function commentChecker(
  files: readonly ManifestFile[],
): (comment: ReviewComment, index: number) => string | undefined {
  const lines = new Map(files.map((file) => [file.path, file.lines]));
  return (comment, index) => {
    if (comment.path === undefined) return undefined;
    const count = lines.get(comment.path);
    if (count === undefined) {
      // Escaped, not stripped: `app\u200d.ts` stripped would read as the `app.ts` that was sent.
      return `comments.${index}.path: ${quoteForDisplay(comment.path)} was not sent to the worker`;
    }
    const last = comment.endLine ?? comment.line;
    if (last !== undefined && last > Math.max(count, 1)) {
      const has = `${count} line${count === 1 ? "" : "s"}`;
      return `comments.${index}.line: ${sanitizeLine(comment.path)} has ${has}, not ${last}`;
    }
    return undefined;
  };
}

/** What is stored and printed: every text sanitized (validation layer 5). */
export function sanitizeComment(comment: ReviewComment): ReviewComment {
  return {
    ...comment,
    message: sanitizeLine(comment.message),
    ...(comment.rule !== undefined ? { rule: sanitizeLine(comment.rule) } : {}),
  };
}
