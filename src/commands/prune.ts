// `git review-remote prune [--dry-run]`: delete the branches of merged, dropped and superseded
// reviews; the records stay, and each deleted branch's restore command is printed.
import { PruneReason, pruneBranches, pruneCandidates } from "../merge/prune.js";
import { resolveRepo } from "../repo.js";
import { printPrune } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { withStoreLock } from "../store/lock.js";
import { listRecords, ReviewState, writeRecord } from "../store/records.js";

export async function runPrune(args: { dryRun: boolean; json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const outcomes = await withStoreLock(store, "prune", async () => {
    const candidates = pruneCandidates(await listRecords(store));
    const pruned = await pruneBranches({ cwd: repo.cwd, env: repo.env }, candidates, args.dryRun);
    if (!args.dryRun) {
      for (const outcome of pruned) {
        if (outcome.deleted && outcome.reason === PruneReason.superseded) {
          const record = { ...outcome.record, state: ReviewState.dropped };
          await writeRecord(store, { ...record, supersededBy: outcome.supersededBy });
        }
      }
    }
    return pruned;
  });
  printPrune(outcomes, args, output);
}
