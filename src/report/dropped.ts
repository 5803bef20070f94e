// What the accept stage dropped of a worker's result (invalid comments, what went over a limit), as
// git-style warnings on stderr: each with the rule it broke and what to do about it.
import { messages } from "../messages.js";
import type { Dropped } from "../protocol/parse-result.js";
import type { ReviewRecord } from "../store/records.js";
import type { Output } from "./output.js";

/** `kept`: how many of the worker's comments were imported beside those dropped. */
function describe(worker: string, part: Dropped, kept: number): { text: string; hints: string[] } {
  const raise = part.limit ? [messages.hintRaiseLimit(part.limit)] : [];
  if (part.part === "proposals") {
    return {
      text: messages.proposalsDropped(worker, part.count),
      hints: [messages.hintNarrowReview, ...raise],
    };
  }
  const count = part.count ?? 0;
  if (part.limit)
    return { text: messages.commentsOverLimit(worker, count), hints: [messages.hintNarrowReview, ...raise] };
  return { text: messages.commentsDropped(worker, count, kept), hints: [] };
}

/** One warning per dropped part of a review's result, its problem lines, then the hints. */
export function printDropped(record: ReviewRecord, output: Output): void {
  for (const part of record.dropped ?? []) {
    const { text, hints } = describe(record.worker.name, part, record.comments);
    output.err(`warning: ${text}`);
    for (const line of part.problems) output.err(`  ${line}`);
    for (const hint of hints) output.err(`hint: ${hint}`);
  }
}
