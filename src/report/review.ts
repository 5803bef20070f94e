// A review run as the user sees it: one summary line per review, one list of comments (merged
// across workers, each naming every worker that made it), one block of next steps (identical
// proposals marked), and the failures of workers that did not answer; or the one JSON document.
import { type ReviewRemoteError, WorkerError } from "../errors.js";
import { messages } from "../messages.js";
import type { PipelineReport, ReviewOutcome, WorkerFailure } from "../pipeline/outcome.js";
import type { ReviewComment } from "../protocol/result.js";
import { formatComment } from "./comment.js";
import { printDropped } from "./dropped.js";
import { type Output, paint } from "./output.js";
import { describeReceipt, isSigned, receiptJson } from "./receipt.js";
import { describeCounts } from "./records.js";
import { describeHidden, describeLeftOut, describeTarget, leftOut } from "./target.js";

function printOutcome(outcome: ReviewOutcome, cached: boolean, output: Output): void {
  const { record } = outcome;
  const counts = describeCounts(record, outcome.comments.length);
  const from = cached ? " (cached: the worker was not contacted)" : "";
  const sandbox = outcome.sandbox ? ` [sandbox: ${outcome.sandbox}]` : "";
  output.out(`Review ${record.id} by ${record.worker.name}${sandbox}: ${counts}${from}`);
  if (outcome.summary) output.out(`  ${outcome.summary.split("\n")[0]}`);
  if (isSigned(record)) output.out(`  ${describeReceipt(record)}`);
}

/** One list: a comment several workers made is one line naming them all, in the order they answered. */
function printComments(outcomes: readonly ReviewOutcome[], quotePath: boolean, output: Output): void {
  const merged = new Map<string, { comment: ReviewComment; workers: string[] }>();
  for (const outcome of outcomes) {
    for (const comment of outcome.comments) {
      const line = formatComment(comment, quotePath);
      const entry = merged.get(line) ?? { comment, workers: [] };
      if (!entry.workers.includes(outcome.record.worker.name)) entry.workers.push(outcome.record.worker.name);
      merged.set(line, entry);
    }
  }
  for (const [line, { comment, workers }] of merged) {
    const style = comment.severity === "error" ? "red" : comment.severity === "warning" ? "yellow" : "cyan";
    const text = paint(output, style, line);
    output.out(outcomes.length > 1 ? `  ${text} [${workers.join(", ")}]` : `  ${text}`);
  }
}

/**
 * Under the comments: how many of each review's comments the filter kept out, and where they are;
 * how many of its fixes were outside the change and left out of its branch.
 */
function printHidden(outcomes: readonly ReviewOutcome[], output: Output): void {
  for (const { record, filter } of outcomes) {
    if (filter && filter.hidden.length > 0) {
      const line = describeHidden(record.id, filter.mode, filter.hidden.length);
      output.out(`  ${paint(output, "dim", line)}`);
    }
    const left = describeLeftOut(record);
    if (left) output.out(`  ${paint(output, "dim", left)}`);
  }
}

/**
 * The line for reviews that left no branch: one that went over a limit says so, and fixes left out
 * as outside the change are not "nothing" (the line above counts them), for one worker or several.
 */
function nothingToPropose(records: readonly ReviewOutcome["record"][]): string {
  if (records.some((record) => record.dropped?.some((part) => part.part === "proposals"))) {
    return "No proposals: they went over a limit (see the warning).";
  }
  if (records.some((record) => leftOut(record).fixes > 0)) return messages.nothingToProposeInChange;
  return "Nothing to propose.";
}

/**
 * Several workers: each branch once (identical proposals marked), then one block of next steps: the
 * commands of the one review that proposes, or, when several do, the same with `<id>` for either.
 */
function printFanOutNextSteps(outcomes: readonly ReviewOutcome[], output: Output, elsewhere: boolean): void {
  const proposing = outcomes.filter((outcome) => outcome.record.branch);
  const [first] = proposing;
  if (!first) {
    output.out(nothingToPropose(outcomes.map((outcome) => outcome.record)));
    printWholeSummaries(outcomes, output);
    return;
  }
  const byId = new Map(outcomes.map((outcome) => [outcome.record.id, outcome]));
  output.out("Proposals are on:");
  for (const { record, identicalTo } of proposing) {
    const same = identicalTo ? byId.get(identicalTo)?.record : undefined;
    const mark = same ? `  (identical to ${same.branch}, ${same.worker.name}'s)` : "";
    output.out(`  ${paint(output, "green", record.branch ?? "")}  ${record.worker.name}${mark}`);
  }
  output.out("Next:");
  if (proposing.length === 1) {
    printCommands(output, nextCommands(first.record, first.record.id, first.record.branch ?? "", elsewhere));
  } else {
    const branch = placeholderBranch(proposing.map((outcome) => outcome.record));
    printCommands(output, nextCommands(first.record, "<id>", branch, elsewhere, true));
  }
  printWholeSummaries(outcomes, output);
}

/**
 * The review's line shows a summary's first line alone, and the Next block names `show` only for
 * reviews that propose: for each other review whose summary says more (an agent's answer to the
 * question, what each reviewer did), where the rest is, the worker named when there are several.
 */
function printWholeSummaries(outcomes: readonly ReviewOutcome[], output: Output): void {
  for (const { record, summary } of outcomes) {
    if (record.branch || !summary?.trim().includes("\n")) continue;
    output.out(
      outcomes.length > 1
        ? messages.wholeSummaryOf(record.worker.name, record.id)
        : messages.wholeSummary(record.id),
    );
  }
}

/**
 * The branch of any of a fan-out's reviews, for its Next block: `<prefix><id>` with the prefix the
 * branches were made under (`review-remote.branchPrefix`), or `<branch>` when they do not share one
 * (a cached review made before the prefix changed).
 */
function placeholderBranch(records: readonly ReviewOutcome["record"][]): string {
  const prefixes = new Set(
    records.map(({ branch, id }) => (branch?.endsWith(id) ? branch.slice(0, -id.length) : undefined)),
  );
  const [prefix] = prefixes;
  return prefixes.size === 1 && prefix !== undefined ? `${prefix}<id>` : "<branch>";
}

/** Commands one per line, indented, their `#` comments in one column. */
function printCommands(output: Output, commands: readonly (readonly [string, string?])[]): void {
  const width = Math.max(...commands.map(([command]) => command.length)) + 2;
  for (const [command, comment] of commands) {
    output.out(comment ? `  ${command.padEnd(width)}# ${comment}` : `  ${command}`);
  }
}

/**
 * The next steps for the proposals of review `id` on `branch`, whose record is `record`; with
 * `several`, for any of a fan-out's reviews (`id` is `<id>`, `branch` its placeholder; they share one
 * snapshot).
 *
 * `elsewhere`: HEAD does not hold the reviewed commit (a review of another branch, or of a range
 * that ends off HEAD's line): HEAD...branch would show that commit's history as if proposed, and a
 * merge here is refused, so the diff is from the commit itself and the merge says where it runs.
 */
function nextCommands(
  record: ReviewOutcome["record"],
  id: string,
  branch: string,
  elsewhere: boolean,
  several = false,
): readonly (readonly [string, string?])[] {
  // A work-tree review's branch starts at its snapshot, not at HEAD: HEAD...branch would show the
  // uncommitted changes as if they were proposed.
  const diff: readonly [string, string?] =
    record.snapshot.kind === "worktree"
      ? [
          `git diff ${record.snapshot.commit.slice(0, 12)} ${branch}`,
          "the proposals, on your uncommitted changes",
        ]
      : elsewhere
        ? [`git diff ${record.snapshot.commit.slice(0, 10)} ${branch}`, "the proposals"]
        : [`git diff HEAD...${branch}`];
  const merge = several ? "bring one review's proposals in" : "bring the proposals in";
  return [
    [`git review-remote show ${id}`, "summary, comments, and each proposal's stat"],
    diff,
    [
      `git review-remote merge ${id}`,
      elsewhere ? `${merge}, on a branch that holds ${record.snapshot.commit.slice(0, 10)}` : merge,
    ],
    [`git review-remote drop ${id}`, several ? "throw the others away" : "throw them away"],
  ];
}

function printNextSteps(outcome: ReviewOutcome, output: Output, elsewhere = false): void {
  const { record } = outcome;
  if (!record.branch) {
    output.out(nothingToPropose([record]));
    printWholeSummaries([outcome], output);
    return;
  }
  output.out(`Proposals are on branch ${paint(output, "green", record.branch)}. Next:`);
  printCommands(output, nextCommands(record, record.id, record.branch, elsewhere));
}

/**
 * A worker that did not answer, beside the reviews of those that did: as a single worker's failure
 * is printed (its hints too), the worker named once.
 */
function printFailure({ worker, error }: WorkerFailure, output: Output): void {
  const named = error.message.includes(`worker '${worker.name}'`);
  output.err(`git-review-remote: ${named ? "" : `worker '${worker.name}': `}${error.message}`);
  for (const line of error.details) output.err(`  ${line}`);
  for (const hint of withImportHint(error).hints) output.err(`hint: ${hint}`);
}

/**
 * A worker's failure that left its review without an answer, with the hint that `import` can still
 * give it one (the pre-push hook, which says what to check, leaves it out).
 */
export function withImportHint(error: ReviewRemoteError): ReviewRemoteError {
  if (!(error instanceof WorkerError) || !error.awaiting) return error;
  return new WorkerError(error.message, {
    details: error.details,
    hints: [...error.hints, messages.hintImportAwaiting(error.awaiting)],
    cause: error.cause,
  });
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
    leftOutFixes: leftOut(outcome.record).fixes,
    leftOutFiles: leftOut(outcome.record).files,
    summary: outcome.summary,
    receipt: receiptJson(outcome.record),
    cached: report.cached.has(outcome.record.id),
    identicalTo: outcome.identicalTo ?? null,
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

/**
 * `quotePath`: core.quotePath, which the comments' paths are printed under (as git prints paths);
 * `headHolds`: false when HEAD does not hold the reviewed commit (see nextCommands).
 */
export function printReview(
  report: PipelineReport,
  { json, quotePath, headHolds = true }: { json: boolean; quotePath: boolean; headHolds?: boolean },
  output: Output,
): void {
  if (json) output.json(reviewJson(report));
  else {
    printTarget(report, output);
    for (const outcome of report.outcomes)
      printOutcome(outcome, report.cached.has(outcome.record.id), output);
    printComments(report.outcomes, quotePath, output);
    printHidden(report.outcomes, output);
    const [only] = report.outcomes;
    if (only && report.outcomes.length === 1) printNextSteps(only, output, !headHolds);
    else if (report.outcomes.length > 1) printFanOutNextSteps(report.outcomes, output, !headHolds);
  }
  for (const outcome of report.outcomes) printDropped(outcome.record, output);
  for (const failure of report.failures) printFailure(failure, output);
}

/** The pipeline's --json document alone (a lone worker's failure: its message goes to stderr). */
export function printReviewJson(report: PipelineReport, output: Output): void {
  output.json(reviewJson(report));
}

/** The report's first line: `Reviewing <what>`, when the run got as far as a target. */
export function printTarget(report: PipelineReport, output: Output): void {
  if (report.target) output.out(`Reviewing ${describeTarget(report.target, report.pathspecs)}`);
}

/** Which filter mode an out-of-band import scoped the proposals and comments by, and why that one. */
export function describeImportFilter(filter: { mode: string; asked: boolean }): string {
  return filter.asked ? messages.importFilterAsked(filter.mode) : messages.importFilterConfig(filter.mode);
}

/** The review's findings reached `--fail-level`: the one line that says why the exit code is 7. */
export function printFindings(error: ReviewRemoteError, output: Output): void {
  output.err(`git-review-remote: ${error.message}`);
}
