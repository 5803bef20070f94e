// `git review-remote list`: the reviews in the store.
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printRecords } from "../report/records.js";
import { storePaths } from "../store/layout.js";
import { listRecords } from "../store/records.js";

export async function runList(args: { json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  printRecords(await listRecords(storePaths(repo)), args.json, output);
}
