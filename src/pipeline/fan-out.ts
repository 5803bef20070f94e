// The heavy stages of a review, loaded only when some worker has to be asked: export once, then
// send → validate → import on every worker concurrently; one failing worker loses nothing of the others.

import { scannerFor } from "../commands/export.js";
import type { ReviewArgs } from "../commands/review.js";
import type { Policy } from "../config/policy.js";
import type { Settings } from "../config/settings.js";
import { ReviewRemoteError } from "../errors.js";
import { createExport } from "../export/bundle.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import type { Output } from "../report/output.js";
import { createProgress } from "../report/progress.js";
import { storePaths } from "../store/layout.js";
import { buildRequest, effectiveLimits, forbiddenPaths } from "./request.js";
import { type ReviewOutcome, reviewOnWorker } from "./send.js";
import type { Target } from "./target.js";
import type { Worker } from "./workers.js";

export interface SendOptions {
  repo: Repo;
  settings: Settings;
  policy: Policy;
  target: Target;
  question: string;
  args: ReviewArgs;
  /** Every worker of the run (for the `remote[<name>]:` prefix), and those not answered from the cache. */
  workers: readonly Worker[];
  pending: readonly Worker[];
  keys: ReadonlyMap<Worker, string>;
  output: Output;
}

export async function sendForReview(options: SendOptions): Promise<{
  outcomes: ReviewOutcome[];
  failures: { worker: Worker; error: ReviewRemoteError }[];
}> {
  const { repo, settings, policy, target, question, args, workers, pending, keys, output } = options;
  const store = storePaths(repo);
  const outcomes: ReviewOutcome[] = [];
  const failures: { worker: Worker; error: ReviewRemoteError }[] = [];
  const progress = createProgress(output);
  const exported = await createExport(repo, {
    rev: target.rev,
    base: target.base,
    worktree: args.worktree,
    pathspecs: args.pathspecs,
    policy,
    scanner: scannerFor(policy),
    retainScratch: args.worktree,
    onProgress: (bytes) => progress.phase("export", bytes),
  });
  try {
    const limits = effectiveLimits(settings.timeoutSeconds, policy);
    const { request, patchOmitted } = buildRequest({ exported, question, policy, limits });
    if (patchOmitted)
      output.err(`warning: ${messages.rangePatchTooLarge(Buffer.byteLength(exported.range?.patch ?? ""))}`);
    const context = {
      repo,
      store,
      exported,
      request,
      branchPrefix: settings.branchPrefix,
      forbiddenPaths: forbiddenPaths(policy),
      signal: args.signal,
      onStderrLine: (worker: Worker, line: string) => {
        progress.done();
        if (!output.quiet)
          output.err(workers.length > 1 ? `remote[${worker.name}]: ${line}` : `remote: ${line}`);
      },
      onProgress: (_worker: Worker, sent: number) => progress.phase("send", sent),
    };
    const settled = await Promise.allSettled(
      pending.map((worker) => reviewOnWorker(context, worker, keys.get(worker))),
    );
    progress.done();
    for (const [index, outcome] of settled.entries()) {
      if (outcome.status === "fulfilled") outcomes.push(outcome.value);
      else {
        const error = outcome.reason;
        if (!(error instanceof ReviewRemoteError)) throw error;
        failures.push({ worker: pending[index] as Worker, error });
      }
    }
  } finally {
    await exported.scratch?.dispose();
  }
  return { outcomes, failures };
}
