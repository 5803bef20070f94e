// A result's summary as the client shows it. No schema library here: the pre-push hook's cached path
// reads stored results with it.

/** `worker.name` in the results of this package's own worker. */
export const BUILTIN_WORKER_NAME = "git-review-remote";

/** A paragraph older versions of this package's worker began a summary with: its counts, not the client's. */
const BUILTIN_COUNTS = /^\d+ proposed commits?, \d+ comments?\.$/;

/**
 * The summary to show: a third-party worker's as sent; the built-in worker's without the counts line
 * an older one began with (the client states the counts it validated, once).
 */
export function summaryProse(result: { summary?: string; worker?: { name?: string } }): string {
  const summary = result.summary ?? "";
  if (result.worker?.name !== BUILTIN_WORKER_NAME) return summary;
  return summary
    .split("\n\n")
    .filter((paragraph) => !BUILTIN_COUNTS.test(paragraph))
    .join("\n\n");
}
