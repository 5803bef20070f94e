// `git review-remote list`: the reviews in the store.

import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { listRecords } from "../store/records.js";

export async function runList(args: { json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const records = await listRecords(storePaths(repo));
  if (args.json) {
    output.raw(`${JSON.stringify(records, null, 2)}\n`);
    return;
  }
  if (records.length === 0) {
    output.out("No reviews yet. Start one with: git review-remote");
    return;
  }
  for (const record of records) {
    const snapshot = `${record.snapshot.kind === "worktree" ? "worktree@" : ""}${record.snapshot.commit.slice(0, 10)}`;
    output.out(
      [
        record.id,
        record.state.padEnd(8),
        record.worker.name.padEnd(10),
        snapshot.padEnd(19),
        (record.branch ?? "-").padEnd(20),
        `${record.comments} comments (${record.errors} errors), ${record.commits} commits`,
      ].join("  "),
    );
  }
}
