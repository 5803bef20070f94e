// The heavy stages, loaded only when some worker has to be asked: export once, build the request,
// then send → accept → import on every worker concurrently. A failing worker is a value in the
// result; it loses nothing of the others.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Policy } from "../config/policy.js";
import type { ReceiptPolicy } from "../config/receipt-policy.js";
import type { Settings } from "../config/settings.js";
import { ExportRefusedError, ReviewRemoteError, UsageError } from "../errors.js";
import { createBundle, SecretsFoundError } from "../export/bundle.js";
import { createScratch } from "../git/scratch.js";
import { messages } from "../messages.js";
import type { ChangedLines } from "../protocol/changed-lines.js";
import type { Limits } from "../protocol/limits.js";
import type { Repo } from "../repo.js";
import { writeRefusal } from "../store/cache.js";
import type { StorePaths } from "../store/layout.js";
import type { FilterMode } from "./filter.js";
import { changesOf, proposalScope } from "./focus.js";
import type { PipelineEvents, PipelineOptions, ReviewOutcome, WorkerFailure } from "./outcome.js";
import type { SendContext } from "./send.js";
import type { Target } from "./target.js";
import type { StartedWorker } from "./transport.js";
import type { Worker } from "./workers.js";

/** An index this large lists some 10k files (about 100 bytes an entry): a large repository. */
const LARGE_INDEX_BYTES = 1024 * 1024;

/** Whether the repository is large, by its index's size: one stat, before anything is listed. */
function isLargeIndex(repo: Repo): boolean {
  try {
    return statSync(join(repo.gitDir, "index")).size >= LARGE_INDEX_BYTES;
  } catch {
    return false;
  }
}

export interface FanOutOptions {
  repo: Repo;
  store: StorePaths;
  settings: Settings;
  policy: Policy;
  target: Target;
  question: string;
  limits: Limits;
  options: PipelineOptions;
  /** Every worker of the run, and those the cache did not answer. */
  workers: readonly Worker[];
  pending: readonly Worker[];
  keys: ReadonlyMap<Worker, string>;
  receiptPolicies: ReadonlyMap<string, ReceiptPolicy>;
  /** Where a refused export of this snapshot and policy is remembered (commit snapshots only). */
  refusalKey: string | undefined;
  events: PipelineEvents;
  /** The filter mode: `nofilter` keeps a focused review's proposals outside its change too. */
  filterMode: FilterMode;
  /** The built-in workers already started, to be sent their envelope (the caller stops them after). */
  early: ReadonlyMap<Worker, StartedWorker>;
}

export async function exportAndFanOut(fan: FanOutOptions): Promise<{
  outcomes: ReviewOutcome[];
  failures: WorkerFailure[];
  /** The change the export sent (a focused review's), which the filter stage splits comments by. */
  changes: ChangedLines | undefined;
}> {
  const { repo, settings, policy, options, events, early } = fan;
  // A missing allowed-signers file is the user's setup: say so before anything leaves. (The receipt
  // code, and the schemas it brings, load only for a worker that signs.)
  for (const worker of fan.pending) {
    const signers = fan.receiptPolicies.get(worker.name)?.allowedSigners;
    if (signers === undefined) continue;
    const { verifyAllowedSignersReadable } = await import("../receipt/verify.js");
    await verifyAllowedSignersReadable(signers);
  }
  // A work-tree snapshot's objects live in the export's scratch dir until the import is done.
  const scratch = options.worktree ? await createScratch(repo) : undefined;
  // Loaded while the export runs, whose git calls leave this thread idle on a small repo: the request
  // (its schema) and the stages after it. Awaited once the bundle is stored.
  const stages = Promise.all([import("./request.js"), import("./send.js")]);
  stages.catch(() => undefined);
  // On a large repository the accept stage (zod and the schemas) loads before the export too: loaded
  // amid the export's garbage instead, it leaves the peak some 15 MB higher (babel's 27k files: 118-126
  // MB against 104-107). A small review loads it once the envelope is sent, off the worker's path.
  if (isLargeIndex(repo)) void stages.then(([, { preloadAcceptStage }]) => preloadAcceptStage());
  try {
    const exportOptions = {
      rev: fan.target.rev,
      base: fan.target.base,
      resolved: fan.target.commit !== undefined,
      worktree: options.worktree,
      pathspecs: options.pathspecs,
      policy,
      onProgress: (bytes: number) => events.progress("export", bytes),
      // --no-cache asks the workers again and builds the bundle again.
      reuse: !options.noCache,
    };
    const bundle = await createBundle(repo, exportOptions, scratch).catch(async (error: unknown) => {
      if (error instanceof ExportRefusedError && fan.refusalKey) {
        const { message, details, hints } = error;
        // Its findings' paths are quoted under core.quotePath: said again only under the same setting.
        const quoted = error instanceof SecretsFoundError ? { quotePath: error.quotePath } : {};
        const refusal = { message, details: [...details], hints: [...hints], ...quoted };
        // Not remembered (a full disk, a read-only store): the next run scans again, only slower.
        await writeRefusal(fan.store, fan.refusalKey, refusal).catch(() => undefined);
      }
      throw error;
    });
    // A clean work tree (or one whose only changes never leave, an untracked .env) has no change for
    // a worker to look at: said before anyone is asked, as for a range that starts where it ends.
    if (options.worktree && bundle.range?.paths.length === 0) {
      throw new UsageError(messages.worktreeUnchanged, { hints: [messages.hintWorktreeUnchanged] });
    }
    const [{ buildRequest }, { reviewOnWorker }] = await stages;
    const changes = changesOf(bundle.range);
    const { request, patchCut } = buildRequest({
      bundle,
      question: fan.question,
      policy,
      limits: fan.limits,
    });
    if (patchCut) events.warning(messages.rangePatchTooLarge(patchCut));
    const context: SendContext = {
      repo,
      store: fan.store,
      sent: { snapshot: bundle.snapshot, files: bundle.files, snapshotObjects: scratch?.objects },
      bundlePath: bundle.path,
      changes,
      filterMode: fan.filterMode,
      scope: proposalScope(changes, fan.filterMode),
      request,
      branchPrefix: settings.branchPrefix,
      receiptPolicies: fan.receiptPolicies,
      signal: options.signal,
      onStderrLine: (worker, line) => events.remoteLine(worker, line),
      onProgress: (_worker, sent, total) => events.progress("send", sent, total),
      onSent: (worker) => events.sent?.(worker),
      onAnswered: (worker) => events.answered?.(worker),
      timeoutSetting: timeoutSettingOf(request.limits.timeoutSeconds, options.timeoutSeconds, settings),
    };
    const settled = await Promise.allSettled(
      fan.pending.map((worker) => reviewOnWorker(context, worker, fan.keys.get(worker), early.get(worker))),
    );
    return { ...collect(settled, fan.pending), changes };
  } finally {
    await scratch?.dispose();
  }
}

/** Which setting the request's time limit comes from: the policy when it lowered what was asked. */
function timeoutSettingOf(limit: number, flag: number | undefined, settings: Settings): string {
  const asked = flag ?? settings.timeoutSeconds;
  if (limit < asked) return messages.timeoutPolicySetting;
  return flag === undefined ? messages.timeoutSetting : messages.timeoutFlag;
}

/** Outcomes and failures in worker order; anything but our own typed errors is a bug and rethrown. */
function collect(settled: PromiseSettledResult<ReviewOutcome>[], pending: readonly Worker[]) {
  const outcomes: ReviewOutcome[] = [];
  const failures: WorkerFailure[] = [];
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === "fulfilled") outcomes.push(outcome.value);
    else {
      const error = outcome.reason;
      if (!(error instanceof ReviewRemoteError)) throw error;
      failures.push({ worker: pending[index] as Worker, error });
    }
  }
  return { outcomes, failures };
}
