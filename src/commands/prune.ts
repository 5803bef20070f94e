// `git review-remote prune [--dry-run] [--expire=<date>]`: delete the branches of merged, dropped and
// superseded reviews (the records stay, and each deleted branch's restore command is printed), then
// remove the stored bundles no open review needs once unused for longer than the expiry.
import { DEFAULT_PRUNE_EXPIRE, parseExpire } from "../config/expire.js";
import { readSettings } from "../config/settings.js";
import { ConfigError, ReviewRemoteError, UsageError } from "../errors.js";
import { PruneReason, pruneBranches, pruneCandidates } from "../merge/prune.js";
import { planBundles, pruneBundles } from "../merge/prune-bundles.js";
import { planReviewFiles, pruneReviewFiles, type ReviewFilesPruned } from "../merge/prune-reviews.js";
import { messages } from "../messages.js";
import { type Repo, resolveRepo } from "../repo.js";
import { printPrune } from "../report/merge.js";
import type { Output } from "../report/output.js";
import { readAudit } from "../store/audit.js";
import { readClaimed } from "../store/claims.js";
import { storePaths } from "../store/layout.js";
import { withStoreLock } from "../store/lock.js";
import { listRecords, ReviewState, writeRecord } from "../store/records.js";

/** The expiry cutoff: `--expire`, else `review-remote.pruneExpire`, else two weeks. */
async function expiryCutoff(repo: Repo, expire: string | undefined): Promise<number> {
  const now = Date.now();
  if (expire !== undefined) {
    const cutoff = parseExpire(expire, now);
    if (cutoff === undefined)
      throw new UsageError(messages.badExpire(expire), { hints: [messages.hintHelp] });
    return cutoff;
  }
  const configured = (await readSettings(repo)).pruneExpire;
  const cutoff = parseExpire(configured ?? DEFAULT_PRUNE_EXPIRE, now);
  if (cutoff !== undefined) return cutoff;
  const key = "review-remote.pruneExpire";
  throw new ConfigError(messages.configInvalid(key, configured ?? "", messages.expireExpected), {
    hints: [messages.hintConfigInvalid(key)],
  });
}

export async function runPrune(
  args: { dryRun: boolean; json: boolean; expire: string | undefined; includeOpen: boolean },
  output: Output,
): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const cutoff = await expiryCutoff(repo, args.expire);
  const outcome = await withStoreLock(store, "prune", async () => {
    const candidates = pruneCandidates(await listRecords(store));
    const branches = await pruneBranches({ cwd: repo.cwd, env: repo.env }, candidates, args.dryRun);
    const superseded = new Set<string>();
    for (const { deleted, reason, record, supersededBy } of branches) {
      if (!deleted || reason !== PruneReason.superseded || !supersededBy) continue;
      superseded.add(record.id);
      if (!args.dryRun) await writeRecord(store, { ...record, state: ReviewState.dropped, supersededBy });
    }
    // A superseded review is dropped by now (or, with --dry-run, would be, changed now): its bundle
    // is no longer needed for it, and its answer stays until the expiry counts from now.
    const droppedAt = new Date().toISOString();
    const records = (await listRecords(store)).map((record) =>
      args.dryRun && superseded.has(record.id)
        ? { ...record, state: ReviewState.dropped, updatedAt: droppedAt }
        : record,
    );
    const plan = await planBundles(store, records, await readAudit(store), {
      cutoffMs: cutoff,
      includeOpen: args.includeOpen,
      claimed: await readClaimed(store, !args.dryRun),
    });
    const bundles = args.dryRun ? { pruned: plan.candidates } : await pruneBundles(store, plan.candidates);
    const answers = await planReviewFiles(store, records, cutoff);
    const stopped = (bundles as { error?: ReviewRemoteError }).error;
    const reviews: ReviewFilesPruned = args.dryRun
      ? { pruned: answers }
      : stopped
        ? { pruned: [] }
        : await pruneReviewFiles(store, answers, (await readSettings(repo)).filterMode);
    // A review whose answer stopped part way is among those pruned: its record says what went.
    const notTried = answers.length - reviews.pruned.length;
    const left = stopped
      ? [messages.pruneStopped(plan.candidates.length - bundles.pruned.length, "bundle")]
      : notTried > 0
        ? [messages.pruneStopped(notTried, "review's answer")]
        : [];
    return { branches, bundles, reviews, open: plan.open, left, error: stopped ?? reviews.error };
  });
  printPrune(outcome.branches, outcome.bundles.pruned, outcome.reviews.pruned, outcome.open, args, output);
  const { error } = outcome;
  if (error) {
    throw new ReviewRemoteError(error.message, {
      details: outcome.left,
      hints: [...error.hints, messages.hintPruneAgain],
      cause: error,
    });
  }
}
