// `git review-remote prune [--dry-run]`: delete the branches of merged, dropped and superseded
// reviews; the records stay, and each deleted branch's restore command is printed.
import { PruneReason, pruneBranches, pruneCandidates } from "../merge/prune.js";
import { resolveRepo } from "../repo.js";
import { printPrune } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { listRecords, ReviewState, writeRecord } from "../store/records.js";

export async function runPrune(args: { dryRun: boolean; json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const candidates = pruneCandidates(await listRecords(store));
  const outcomes = await pruneBranches({ cwd: repo.cwd, env: repo.env }, candidates, args.dryRun);
  if (!args.dryRun) {
    for (const outcome of outcomes) {
      if (outcome.deleted && outcome.reason === PruneReason.superseded) {
        const record = { ...outcome.record, state: ReviewState.dropped };
        await writeRecord(store, { ...record, supersededBy: outcome.supersededBy });
      }
    }
  }
  printPrune(outcomes, args, output);
}
