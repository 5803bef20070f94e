// The local pipeline (design §2), its stages in the order they run: target → cache → export once →
// fan out (transport → accept → import on every worker at once). It returns what happened as a
// value and prints nothing: the report layer shows it, the CLI turns failures into the exit code.

import { readPolicy } from "../config/policy.js";
import { type ReceiptPolicy, receiptPolicyFor } from "../config/receipt-policy.js";
import { DEFAULT_QUESTION, type Settings } from "../config/settings.js";
import { ExportRefusedError, UsageError } from "../errors.js";
import { readQuotePath } from "../git/quote.js";
import { messages } from "../messages.js";
import type { ChangedLines } from "../protocol/changed-lines.js";
import { resolveLimits } from "../protocol/limits.js";
import { questionProblem } from "../protocol/request-check.js";
import type { Repo } from "../repo.js";
import { exportKey, keyPathspecs, lookupRefusal } from "../store/cache.js";
import { type StorePaths, storePaths } from "../store/layout.js";
import { readCacheVersion } from "../version.js";
import { answerFromCache, cacheKeys } from "./cache.js";
import { markIdenticalProposals } from "./compare.js";
import { chooseFilterMode, FilterMode } from "./filter.js";
import { focusOutcome, readChanges } from "./focus.js";
import type { PipelineEvents, PipelineOptions, PipelineReport } from "./outcome.js";
import { resolveTarget } from "./target.js";
import type { StartedWorker } from "./transport.js";
import { isBuiltinWorker, localWorkerArgs, resolveWorker, type Worker } from "./workers.js";

/**
 * The filter stage on every outcome, cached or fresh, by the run's one change: the one the export
 * sent, else (every answer from the store) the first focused record's, read once. Then identical
 * proposals of a fan-out marked.
 */
async function focusReport(
  repo: Repo,
  store: StorePaths,
  report: PipelineReport,
  mode: FilterMode,
  exported?: ChangedLines,
): Promise<PipelineReport> {
  const focused = report.outcomes.find((outcome) => outcome.record.range);
  const changes = exported ?? (focused && (await readChanges(store, focused.record.id)));
  report.outcomes = report.outcomes.map((outcome) => focusOutcome(outcome, changes, mode));
  await markIdenticalProposals(repo, report.outcomes);
  return report;
}

export async function runPipeline(
  repo: Repo,
  settings: Settings,
  options: PipelineOptions,
  events: PipelineEvents,
): Promise<PipelineReport> {
  const names = [...new Set(options.workers.length > 0 ? options.workers : [settings.worker])];
  const workers = names.map((name) => resolveWorker(name, settings, options.workers.length === 0));
  // The built-in worker's node start-up and namespaces overlap the stages before its envelope is
  // ready. It is sent nothing until the bundle is scanned and stored, and is stopped if it never is
  // (a bad revision, a refused export, an answer from the cache).
  const early = new Map<Worker, StartedWorker>();
  const startBuiltin = async (list: readonly Worker[]) => {
    const builtin = list.filter((worker) => isBuiltinWorker(worker, settings) && !early.has(worker));
    if (builtin.length === 0) return;
    // The transport loads only here: a fully cached run that did not start its workers first never needs it.
    const { startWorker } = await import("./transport.js");
    for (const worker of builtin) {
      early.set(worker, startWorker(repo, worker, { args: localWorkerArgs(settings.coreWhitespace) }));
    }
  };
  try {
    if (options.startWorkersFirst) await startBuiltin(workers);
    return await reviewOnWorkers(repo, settings, options, events, { workers, early, startBuiltin });
  } finally {
    await Promise.all([...early.values()].map((started) => started.cancel()));
  }
}

async function reviewOnWorkers(
  repo: Repo,
  settings: Settings,
  options: PipelineOptions,
  events: PipelineEvents,
  run: {
    workers: readonly Worker[];
    early: ReadonlyMap<Worker, StartedWorker>;
    startBuiltin(list: readonly Worker[]): Promise<void>;
  },
): Promise<PipelineReport> {
  const { workers, early } = run;
  const policy = await readPolicy(repo.top);
  const names = workers.map((worker) => worker.name);
  const receiptPolicies = new Map<string, ReceiptPolicy>(
    names.map((name) => [name, receiptPolicyFor(settings, name, repo)]),
  );
  const question = options.question ?? settings.question ?? policy.question ?? DEFAULT_QUESTION;
  const questionWrong = questionProblem(question);
  if (questionWrong !== undefined) {
    throw new UsageError(messages.badQuestion(questionWrong), { hints: [messages.hintBadQuestion] });
  }
  const limits = resolveLimits(
    options.timeoutSeconds ?? settings.timeoutSeconds,
    settings.limits,
    policy.limits,
  );
  const store = storePaths(repo);
  const mode = chooseFilterMode(options.filterMode, settings.filterMode);
  const target = await resolveTarget(repo, {
    spec: options.target,
    worktree: options.worktree,
    all: options.all,
    planned: options.plannedRange === true,
  });
  for (const note of target.notes) events.warning(note.message, note.hints);
  const report: PipelineReport = {
    target,
    pathspecs: options.pathspecs,
    outcomes: [],
    failures: [],
    cached: new Set(),
  };

  let pending: readonly Worker[] = workers;
  let keys = new Map<Worker, string>();
  let refusalKey: string | undefined;
  if (target.commit !== undefined) {
    const pathspecs = keyPathspecs(repo, options.pathspecs);
    const version = readCacheVersion();
    refusalKey = exportKey({ commit: target.commit, base: target.base, pathspecs, policy, version });
    keys = cacheKeys(workers, {
      commit: target.commit,
      base: target.base,
      pathspecs,
      policy,
      question,
      // What a result may hold decides what is kept of it; the time it may take does not.
      limits: { ...limits, timeoutSeconds: 0 },
      version,
    });
    if (!options.noCache) {
      const scoped = mode !== FilterMode.nofilter;
      const cached = await answerFromCache(store, workers, keys, { receiptPolicies, scoped });
      report.outcomes.push(...cached.outcomes);
      report.failures.push(...cached.failures);
      for (const outcome of cached.outcomes) report.cached.add(outcome.record.id);
      pending = cached.pending;
    }
  }
  if (pending.length === 0) {
    return focusReport(repo, store, report, mode);
  }

  // A refused export is deterministic for its snapshot and policy: said again, not scanned again;
  // but for one whose paths were quoted under another core.quotePath, scanned again to say it anew.
  const refused = refusalKey && !options.noCache ? await lookupRefusal(store, refusalKey) : undefined;
  const sameQuoting =
    refused?.quotePath === undefined ||
    refused.quotePath === (await readQuotePath({ cwd: repo.cwd, env: repo.env }));
  if (refused && sameQuoting) {
    throw new ExportRefusedError(refused.message, {
      details: refused.details,
      hints: [...refused.hints, messages.hintRefusalRemembered],
    });
  }

  // Not started first: the built-in worker starts now, before the heavy stages load.
  await run.startBuiltin(pending);
  // Only now the heavy stages: a fully cached run (a re-push) never loads them.
  const { exportAndFanOut } = await import("./fan-out.js");
  const sent = await exportAndFanOut({
    repo,
    store,
    settings,
    policy,
    target,
    question,
    limits,
    options,
    workers,
    pending,
    keys,
    receiptPolicies,
    refusalKey,
    events,
    filterMode: mode,
    early,
  });
  report.outcomes.push(...sent.outcomes);
  report.failures.push(...sent.failures);
  return focusReport(repo, store, report, mode, sent.changes);
}
