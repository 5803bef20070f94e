// A review run as the user sees it: one summary line per review, the comments (merged across
// workers, duplicates marked), the next steps, and the failures of workers that did not answer;
// or the one JSON document of `--json`.
import type { ReviewRemoteError } from "../errors.js";
import type { PipelineReport, ReviewOutcome, WorkerFailure } from "../pipeline/outcome.js";
import { formatComment } from "./comment.js";
import { printDropped } from "./dropped.js";
import { type Output, paint } from "./output.js";
import { describeHidden, describeTarget } from "./target.js";

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function printOutcome(outcome: ReviewOutcome, cached: boolean, output: Output): void {
  const { record } = outcome;
  const counts = `${plural(record.comments, "comment")}, ${plural(record.commits, "proposed commit")}`;
  const from = cached ? " (cached: the worker was not contacted)" : "";
  const sandbox = outcome.sandbox ? ` [sandbox: ${outcome.sandbox}]` : "";
  output.out(`Review ${record.id} by ${record.worker.name}${sandbox}: ${counts}${from}`);
  if (outcome.summary) output.out(`  ${outcome.summary.split("\n")[0]}`);
}

function printComments(outcomes: readonly ReviewOutcome[], output: Output): void {
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

/** Under the comments: how many of each review's comments the filter kept out, and where they are. */
function printHidden(outcomes: readonly ReviewOutcome[], output: Output): void {
  for (const { record, filter } of outcomes) {
    if (filter && filter.hidden.length > 0) {
      const line = describeHidden(record.id, filter.mode, filter.hidden.length);
      output.out(`  ${paint(output, "dim", line)}`);
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

/** A worker that did not answer, beside the reviews of those that did. */
function printFailure({ worker, error }: WorkerFailure, output: Output): void {
  output.err(`git-review-remote: worker '${worker.name}': ${error.message}`);
  for (const line of error.details) output.err(`  ${line}`);
}

function reviewJson(report: PipelineReport) {
  const one = (outcome: ReviewOutcome) => ({
    id: outcome.record.id,
    status: outcome.record.state,
    worker: outcome.record.worker.name,
    branch: outcome.record.branch ?? null,
    commits: outcome.record.commits,
    comments: outcome.comments,
    dropped: outcome.record.dropped ?? [],
    filterMode: outcome.filter?.mode ?? "nofilter",
    hiddenComments: outcome.filter?.hidden.length ?? 0,
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
  return { ...first, target: targetJson(report), reviews, failures };
}

/** What was reviewed: the change's commits (null base: the whole tree) and why that one. */
function targetJson({ target }: PipelineReport) {
  if (!target) return null;
  return {
    kind: target.reason.kind,
    base: target.base ?? null,
    head: target.commit ?? null,
    ...(target.reason.kind === "upstream"
      ? { upstream: target.reason.upstream, ahead: target.reason.ahead }
      : {}),
  };
}

export function printReview(report: PipelineReport, json: boolean, output: Output): void {
  if (json) output.raw(`${JSON.stringify(reviewJson(report), null, 2)}\n`);
  else {
    if (report.target) output.out(`Reviewing ${describeTarget(report.target)}`);
    for (const outcome of report.outcomes)
      printOutcome(outcome, report.cached.has(outcome.record.id), output);
    printComments(report.outcomes, output);
    printHidden(report.outcomes, output);
    for (const outcome of report.outcomes) printNextSteps(outcome, output);
  }
  for (const outcome of report.outcomes) printDropped(outcome.record, output);
  for (const failure of report.failures) printFailure(failure, output);
}

/** The review's findings reached `--fail-level`: the one line that says why the exit code is 7. */
export function printFindings(error: ReviewRemoteError, output: Output): void {
  output.err(`git-review-remote: ${error.message}`);
}
