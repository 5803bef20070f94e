// `git review-remote drop <id>`: delete the review branch and refs; the store keeps the record.
import { dropReview } from "../merge/drop.js";
import { resolveRepo } from "../repo.js";
import { printDrop } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { findRecord } from "../store/records.js";

export async function runDrop(args: { id: string }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  await dropReview(repo, store, record);
  printDrop(record, output);
}
