// A result's summary as the client shows it. No schema library here: the pre-push hook's cached path
// reads stored results with it.

/** `worker.name` in the results of this package's own worker. */
export const BUILTIN_WORKER_NAME = "git-review-remote";

/** A paragraph older versions of this package's worker began a summary with: its counts, not the client's. */
const BUILTIN_COUNTS = /^\d+ proposed commits?, \d+ comments?\.$/;

/** The heading an older built-in worker gave its reviewer commands' lines, which today's first line names. */
const OLD_REVIEWERS = "Reviewers:\n";
/** One of those lines: `- <label> (\`<command>\`, <format>...): <what>`; `failed: ...` when it failed. */
const OLD_REVIEWER_LINE = /^- (.+?) \(`.*\): (failed: )?/;

/**
 * The summary to show: a third-party worker's as sent; the built-in worker's without the counts line
 * an older one began with (the client states the counts it validated, once), and with that older
 * one's "Reviewers:" heading said as today's first line is ("Ran eslint, prettier."), since the
 * review shows the first line alone.
 */
export function summaryProse(result: { summary?: string; worker?: { name?: string } }): string {
  const summary = result.summary ?? "";
  if (result.worker?.name !== BUILTIN_WORKER_NAME) return summary;
  return summary
    .split("\n\n")
    .filter((paragraph) => !BUILTIN_COUNTS.test(paragraph))
    .map((paragraph) => (paragraph.startsWith(OLD_REVIEWERS) ? ranLine(paragraph) : paragraph))
    .join("\n\n");
}

function ranLine(paragraph: string): string {
  const lines = paragraph.split("\n").slice(1);
  const names = lines.flatMap((line) => {
    const match = OLD_REVIEWER_LINE.exec(line);
    return match ? [match[2] ? `${match[1]} (failed)` : (match[1] as string)] : [];
  });
  if (names.length === 0) return paragraph;
  return [`Ran ${names.join(", ")}.`, ...lines].join("\n");
}
