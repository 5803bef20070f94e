// Comments are checked against what was sent: a path in the manifest, a line that exists in it.
import type { ManifestFile } from "../export/archive.js";
import type { ReviewComment } from "../protocol/result.js";
import { sanitizeLine } from "./sanitize.js";

export function checkComments(comments: readonly ReviewComment[], files: readonly ManifestFile[]): string[] {
  const lines = new Map(files.map((file) => [file.path, file.lines]));
  const problems: string[] = [];
  for (const [index, comment] of comments.entries()) {
    if (comment.path === undefined) {
      if (comment.line !== undefined) problems.push(`comments.${index}.line: a line needs a path`);
      continue;
    }
    const count = lines.get(comment.path);
    if (count === undefined) {
      problems.push(
        `comments.${index}.path: ${JSON.stringify(sanitizeLine(comment.path))} was not sent to the worker`,
      );
      continue;
    }
    const last = comment.endLine ?? comment.line;
    if (last !== undefined && last > Math.max(count, 1)) {
      problems.push(`comments.${index}.line: ${comment.path} has ${count} lines, not ${last}`);
    }
  }
  return problems.slice(0, 20);
}

/** What is stored and printed: every text sanitized (validation layer 5). */
export function sanitizeComment(comment: ReviewComment): ReviewComment {
  return {
    ...comment,
    message: sanitizeLine(comment.message),
    ...(comment.rule !== undefined ? { rule: sanitizeLine(comment.rule) } : {}),
  };
}
