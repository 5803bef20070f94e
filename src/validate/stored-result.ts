// What the store keeps of an accepted result (`result.json`, which `show` reads): the document as
// parsed against its request, with every text sanitized (layer 5). One definition for the accept
// stage that writes it and for `verify`, which derives it again from the signed document.

import type { ManifestFile } from "../export/archive.js";
import { parseResult } from "../protocol/parse-result.js";
import type { Request } from "../protocol/request.js";
import type { Result } from "../protocol/result.js";
import { commentChecker, sanitizeComment } from "./comments.js";
import { sanitizeLine, sanitizeText } from "./sanitize.js";

/** The stored result: validated, with every text sanitized (layer 5). */
export function storedResult(result: Result): Result {
  return {
    ...result,
    summary: sanitizeText(result.summary),
    worker: {
      name: sanitizeLine(result.worker.name),
      version: sanitizeLine(result.worker.version),
      sandbox: sanitizeLine(result.worker.sandbox),
    },
    comments: result.comments.map(sanitizeComment),
    commits: result.commits.map((commit) => ({ message: sanitizeText(commit.message), patch: commit.patch })),
    ...(result.error !== undefined ? { error: sanitizeText(result.error) } : {}),
  };
}

/**
 * What the accept stage stores for `received`, the document as the worker sent it, answering
 * `request` whose bundle held `files`; undefined when it would not be accepted at all.
 */
export function storedResultOf(
  received: Uint8Array,
  request: Request,
  files: readonly ManifestFile[],
): Result | undefined {
  const parsed = parseResult(received, request, { checkComment: commentChecker(files) });
  return parsed.ok ? storedResult(parsed.result) : undefined;
}
