// `git review-remote [<rev>|<base>..<head>]`: the pipeline (src/pipeline/), then its report.
import { readSettings } from "../config/settings.js";
import { InterruptedError, type ReviewRemoteError } from "../errors.js";
import { isAncestor } from "../git/commits.js";
import { readQuotePath } from "../git/quote.js";
import { git } from "../git/run.js";
import { messages } from "../messages.js";
import type { FailLevel } from "../pipeline/fail-level.js";
import type { PipelineOptions, PipelineReport } from "../pipeline/outcome.js";
import { runPipeline } from "../pipeline/pipeline.js";
import { type Repo, resolveWorkTreeRepo } from "../repo.js";
import { createPipelineEvents } from "../report/events.js";
import { type Output, useColor } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";

/**
 * Ctrl-C reaches the git and worker processes of the review too: what they fail with once it came
 * (git add or git archive killed, a cut-off stream) is the interrupt, not a git error or a bug.
 */
function asInterrupt(signal: AbortSignal, error: unknown): unknown {
  if (!signal.aborted || error instanceof InterruptedError) return error;
  return new InterruptedError(messages.interruptedNothingImported, { cause: error });
}

/**
 * Whether tracked files differ from HEAD (staged or not): a review with no revision is of the commits
 * HEAD is about to share, and whoever just edited a file may think it was looked at.
 */
async function hasUncommitted(repo: Repo): Promise<boolean> {
  const diff = await git(["diff", "--quiet", "HEAD", "--"], {
    cwd: repo.cwd,
    env: repo.env,
    allowFailure: true,
  });
  return diff.exitCode === 1;
}

/** Whether HEAD holds the commit its one proposing review is of: where its Next steps run as said. */
async function headHolds(repo: Repo, report: PipelineReport): Promise<boolean> {
  const [only] = report.outcomes;
  if (!only?.record.branch || report.outcomes.length !== 1 || only.record.snapshot.kind !== "commit")
    return true;
  return isAncestor({ cwd: repo.cwd, env: repo.env }, only.record.snapshot.commit, "HEAD");
}

export async function runReviewCommand(
  options: PipelineOptions & { json: boolean; failLevel?: FailLevel | undefined },
  output: Output,
): Promise<readonly ReviewRemoteError[]> {
  const repo = await resolveWorkTreeRepo();
  const settings = await readSettings(repo);
  output.color = useColor(Boolean(process.stdout.isTTY), settings.colorUi);
  printRecovered(await recoverStore(storePaths(repo)), output, repo.top);
  const events = createPipelineEvents(output, new Set(options.workers).size);
  // The report's modules (receipts and their schemas among them) load once an envelope is sent,
  // while the worker works: neither the export nor the envelope on its way waits for them.
  let printing: Promise<[typeof import("../report/review.js"), typeof import("./findings.js")]> | undefined;
  const load = () => {
    printing ??= Promise.all([import("../report/review.js"), import("./findings.js")]);
    return printing;
  };
  const watched: typeof events = {
    ...events,
    sent(worker) {
      void load().catch(() => undefined);
      events.sent?.(worker);
    },
  };
  // A person waits for this review: the local worker starts first, while the target is resolved.
  const report = await runPipeline(repo, settings, { ...options, startWorkersFirst: true }, watched)
    .catch((error: unknown) => {
      throw asInterrupt(options.signal, error);
    })
    .finally(() => events.finish());
  // One worker and nothing else: its failure is the command's, with its hints.
  const [only] = report.failures;
  if (only && report.failures.length === 1 && report.outcomes.length === 0) {
    const [{ withImportHint, printTarget, printReviewJson }] = await load();
    // What was sent, as a review that answered (or a fan-out that failed whole) says it first; with
    // --json, the document a fan-out's failures are in, for a script to read the same way.
    if (options.json) printReviewJson(report, output);
    else printTarget(report, output);
    throw asInterrupt(options.signal, withImportHint(only.error));
  }
  const [{ printReview }, { findingsAtFailLevel }] = await load();
  const quotePath = !options.json && (await readQuotePath({ cwd: repo.cwd, env: repo.env }));
  printReview(report, { json: options.json, quotePath, headHolds: await headHolds(repo, report) }, output);
  if (!options.json && !options.worktree && options.target === undefined && (await hasUncommitted(repo)))
    output.hint(messages.hintUncommittedNotReviewed);
  const failures = report.failures.map((failure) => failure.error);
  const findings = findingsAtFailLevel(report, options.failLevel, settings, output);
  return findings ? [...failures, findings] : failures;
}
