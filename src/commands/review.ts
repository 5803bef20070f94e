// `git review-remote [<rev>|<base>..<head>]`: export → request → transport → validate → import → report.

import { readPolicy } from "../config/policy.js";
import { DEFAULT_QUESTION, readSettings } from "../config/settings.js";
import { ExitCode, type ReviewRemoteError } from "../errors.js";
import { resolveCommit } from "../git/commits.js";
import { readCachedOutcome } from "../pipeline/cache.js";
import type { ReviewOutcome } from "../pipeline/send.js";
import { parseTarget } from "../pipeline/target.js";
import { resolveWorker, type Worker } from "../pipeline/workers.js";
import { resolveRepo } from "../repo.js";
import { type Output, paint, useColor } from "../report/output.js";
import { cacheKey, lookupCache } from "../store/cache.js";
import { storePaths } from "../store/layout.js";
import { formatComment } from "../store/notes.js";
import { readVersion } from "../version.js";

export interface ReviewArgs {
  target?: string;
  worktree: boolean;
  question?: string;
  workers: string[];
  noCache: boolean;
  json: boolean;
  pathspecs: string[];
  signal: AbortSignal;
}

export interface ReviewReport {
  outcomes: ReviewOutcome[];
  failures: { worker: Worker; error: ReviewRemoteError }[];
  cached: Set<string>;
}

/** Runs the pipeline for every worker; never prints. */
export async function review(args: ReviewArgs, output: Output): Promise<ReviewReport> {
  const repo = await resolveRepo();
  const [settings, policy] = await Promise.all([readSettings(repo), readPolicy(repo.top)]);
  output.color = useColor(Boolean(process.stdout.isTTY), settings.colorUi);
  const target = parseTarget(args.target);
  const names = [...new Set(args.workers.length > 0 ? args.workers : [settings.worker])];
  const workers = names.map((name) => resolveWorker(name, settings));
  const question = args.question ?? settings.question ?? policy.question ?? DEFAULT_QUESTION;
  const store = storePaths(repo);
  const report: ReviewReport = { outcomes: [], failures: [], cached: new Set() };

  // The cache needs no export: a commit snapshot is named by its oid (a work tree has none yet).
  const keys = new Map<Worker, string>();
  let pending = workers;
  let resolved = target;
  if (!args.worktree) {
    const commit = await resolveCommit(repo, target.rev);
    const base = target.base === undefined ? undefined : await resolveCommit(repo, target.base);
    // The export takes these very commits, so the key names what is sent even if HEAD moves meanwhile.
    resolved = { rev: commit, ...(base !== undefined ? { base } : {}) };
    // Pathspecs are relative to the current directory: the same words elsewhere select other files.
    const pathspecs = args.pathspecs.length > 0 ? [repo.prefix, ...args.pathspecs] : [];
    const version = readVersion();
    for (const worker of workers) {
      keys.set(worker, cacheKey({ commit, base, pathspecs, policy, question, worker, version }));
    }
    if (!args.noCache) {
      pending = [];
      for (const worker of workers) {
        const id = await lookupCache(store, keys.get(worker) as string);
        const cached = id ? await readCachedOutcome(store, id) : undefined;
        if (cached) {
          report.outcomes.push(cached);
          report.cached.add(cached.record.id);
        } else pending.push(worker);
      }
    }
  }
  if (pending.length === 0) return report;

  // Only now the heavy stages: a fully cached run (a re-push) never loads them.
  const { sendForReview } = await import("../pipeline/fan-out.js");
  const sent = await sendForReview({
    repo,
    settings,
    policy,
    target: resolved,
    question,
    args,
    workers,
    pending,
    keys,
    output,
  });
  report.outcomes.push(...sent.outcomes);
  report.failures.push(...sent.failures);
  return report;
}

function printOutcome(outcome: ReviewOutcome, cached: boolean, output: Output): void {
  const { record } = outcome;
  const counts = `${record.comments} comment${record.comments === 1 ? "" : "s"}, ${record.commits} proposed commit${record.commits === 1 ? "" : "s"}`;
  const from = cached ? " (cached: the worker was not contacted)" : "";
  output.out(
    `Review ${record.id} by ${record.worker.name}${outcome.sandbox ? ` [sandbox: ${outcome.sandbox}]` : ""}: ${counts}${from}`,
  );
  if (outcome.summary) output.out(`  ${outcome.summary.split("\n")[0]}`);
}

export function printComments(outcomes: readonly ReviewOutcome[], output: Output): void {
  const seen = new Map<string, string>();
  for (const outcome of outcomes) {
    for (const comment of outcome.comments) {
      const line = formatComment(comment);
      const first = seen.get(line);
      const style = comment.severity === "error" ? "red" : comment.severity === "warning" ? "yellow" : "cyan";
      const text = paint(output, style, line);
      if (first !== undefined) {
        if (first !== outcome.record.worker.name) output.out(`  ${text} (also from ${first})`);
        continue;
      }
      seen.set(line, outcome.record.worker.name);
      output.out(outcomes.length > 1 ? `  ${text} [${outcome.record.worker.name}]` : `  ${text}`);
    }
  }
}

function printNextSteps(outcome: ReviewOutcome, output: Output): void {
  const { record } = outcome;
  if (!record.branch) {
    output.out("Nothing to propose.");
    return;
  }
  output.out(`Proposals are on branch ${paint(output, "green", record.branch)}. Next:`);
  output.out(`  git review-remote show ${record.id}      # summary, comments, and each proposal's stat`);
  output.out(`  git diff HEAD...${record.branch}`);
  output.out(`  git review-remote merge ${record.id}     # bring the proposals in`);
  output.out(`  git review-remote drop ${record.id}      # throw them away`);
}

export function reviewJson(report: ReviewReport) {
  const one = (outcome: ReviewOutcome) => ({
    id: outcome.record.id,
    status: outcome.record.state,
    worker: outcome.record.worker.name,
    branch: outcome.record.branch ?? null,
    commits: outcome.record.commits,
    comments: outcome.comments,
    summary: outcome.summary,
    cached: report.cached.has(outcome.record.id),
  });
  const reviews = report.outcomes.map(one);
  const failures = report.failures.map(({ worker, error }) => ({
    worker: worker.name,
    status: "failed",
    exitCode: error.exitCode,
    error: error.message,
    details: error.details,
  }));
  const first = reviews[0] ?? { id: null, status: "failed", branch: null, commits: 0, comments: [] };
  return { ...first, reviews, failures };
}

export function exitCodeOf(report: ReviewReport): number {
  return report.failures.reduce<number>(
    (code, failure) => Math.max(code, failure.error.exitCode),
    ExitCode.ok,
  );
}

export function printReport(report: ReviewReport, json: boolean, output: Output): void {
  if (json) {
    output.raw(`${JSON.stringify(reviewJson(report), null, 2)}\n`);
    return;
  }
  for (const outcome of report.outcomes) printOutcome(outcome, report.cached.has(outcome.record.id), output);
  printComments(report.outcomes, output);
  for (const outcome of report.outcomes) printNextSteps(outcome, output);
}

export async function runReview(args: ReviewArgs, output: Output): Promise<number> {
  const report = await review(args, output);
  printReport(report, args.json, output);
  for (const { worker, error } of report.failures) {
    if (report.failures.length === 1 && report.outcomes.length === 0) throw error;
    output.err(`git-review-remote: worker '${worker.name}': ${error.message}`);
    for (const line of error.details) output.err(`  ${line}`);
  }
  return exitCodeOf(report);
}
