// What the next command says about a run that was killed: the reviews it marked failed, and an
// interrupted merge with the two ways out.
import { messages } from "../messages.js";
import { gitIn } from "../os/shell.js";
import type { Recovered } from "../store/recover.js";
import type { Output } from "./output.js";

/** `here`: the work tree the command runs in (none in a bare repository); the hints run in the merge's. */
export function printRecovered(recovered: Recovered, output: Output, here: string | undefined): void {
  for (const id of recovered.interrupted)
    output.err(`warning: review ${id} was interrupted (its git-review-remote process ended); marked failed`);
  const journal = recovered.pendingMerge;
  if (journal === undefined) return;
  output.err(`warning: ${messages.mergePending(journal.review, journal.top, journal.action)}`);
  const git = gitIn(journal.top, here);
  output.err(`hint: ${messages.hintMergeAbort(journal.review, git)}`);
  if (journal.action === "merge") output.err(`hint: ${messages.hintMergeContinue(journal.review, git)}`);
}
