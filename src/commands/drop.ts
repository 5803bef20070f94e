// `git review-remote drop <id>`: delete the review branch and refs; the store keeps the record.
import { dropReview } from "../merge/drop.js";
import { resolveRepo } from "../repo.js";
import { printDrop } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";

export async function runDrop(args: { id: string }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  printRecovered(await recoverStore(store), output, repo.top);
  printDrop(await dropReview(repo, store, args.id), output);
}
