// What the pre-push hook prints: one `review-remote:` line on stderr for every pushed ref, always,
// `<ref> (<old>..<new>): <outcome>`, with the comments under it; and the verdict when the push is
// blocked or refused.
import { type PushPlan, PushSkip } from "../hooks/pre-push.js";
import type { TargetReview } from "../hooks/review-push.js";
import { messages } from "../messages.js";
import { shellWord } from "../os/shell.js";
import type { ReviewOutcome, WorkerFailure } from "../pipeline/outcome.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { formatComment } from "./comment.js";
import type { Output } from "./output.js";
import { plural } from "./plural.js";
import { leftOut } from "./target.js";

const SAY = "review-remote:";

const short = (oid: string) => oid.slice(0, 7);

function refLine(plan: PushPlan, outcome: string): string {
  const { update } = plan;
  return `${SAY} ${update.remoteRef} (${short(update.remoteOid)}..${short(update.localOid)}): ${outcome}`;
}

const SKIPPED: Record<PushSkip, string> = {
  [PushSkip.deletion]: "deleted, nothing to review",
  [PushSkip.nothingNew]: "nothing new to review",
  [PushSkip.reviewBranch]: "refused: review branches stay local",
  [PushSkip.bare]: "not reviewed: a bare repository has no work tree",
};

/** Why the hook stopped before a ref's review was done: its time limit, or Ctrl-C. */
export type HookStop = { timeoutSeconds: number } | "interrupted";

function stoppedText(stop: HookStop): string {
  if (stop === "interrupted") return "interrupted (Ctrl-C); the push stops";
  return `timed out after ${stop.timeoutSeconds} s (review-remote.prePushTimeout)`;
}

function describeOutcome(outcome: ReviewOutcome, cached: boolean): string {
  const { record } = outcome;
  const parts: string[] = [];
  // The comments in the change, as the review's line counts them; those hidden said after.
  if (outcome.comments.length > 0) parts.push(plural(outcome.comments.length, "comment"));
  if (record.branch) parts.push(`proposals on ${record.branch}`);
  const hidden = outcome.filter?.hidden.length ?? 0;
  const what = parts.length > 0 ? parts.join(", ") : "nothing to report";
  const outside = hidden > 0 ? ` (${plural(hidden, "comment")} outside the change hidden)` : "";
  const { fixes } = leftOut(record);
  const scoped = fixes > 0 ? ` (${messages.proposalsOutsideChangeShort(fixes)})` : "";
  // What the accept stage left out of the result (invalid comments, proposals over a limit).
  const left = (record.dropped ?? []).map((part) => {
    const word = part.part === "comments" ? "comment" : "proposed commit";
    return part.count === undefined ? `${word}s dropped` : `${plural(part.count, word)} dropped`;
  });
  const dropped = left.length > 0 ? ` (${left.join(", ")}: git review-remote show ${record.id})` : "";
  return `review ${record.id}${cached ? " (cached)" : ""}: ${what}${outside}${scoped}${dropped}`;
}

/** A worker that gave no review, named once: by its error when that names it, else first. */
function describeFailure({ worker, error }: WorkerFailure): string {
  const named = error.message.includes(`worker '${worker.name}'`);
  return named ? `no review: ${error.message}` : `no review from worker '${worker.name}': ${error.message}`;
}

/** The outcome of a reviewed ref, and the lines under it (comments, error details). */
function describeReview(
  review: TargetReview,
  stop: HookStop,
  quotePath: boolean,
): { outcome: string; lines: string[] } {
  if (!review.report) {
    if (review.timedOut || !review.error) return { outcome: stoppedText(stop), lines: [] };
    // A refused export's hints (the allow entry, the exclude glob) follow its findings, as they do
    // in a review's refusal.
    const { message, details, hints } = review.error;
    return { outcome: `could not review: ${message}`, lines: [...details, ...hints.map(hookHintLine)] };
  }
  const { report } = review;
  const outcomes = report.outcomes.map((outcome) =>
    describeOutcome(outcome, report.cached.has(outcome.record.id)),
  );
  const failures = report.failures.map((failure) =>
    review.timedOut ? stoppedText(stop) : describeFailure(failure),
  );
  const lines = report.outcomes.flatMap((outcome) =>
    outcome.comments.map((comment) => formatComment(comment, quotePath)),
  );
  // A worker's last lines were not shown as they came (the hook is quiet): they follow, with the hints.
  if (!review.timedOut) {
    for (const { error } of report.failures) lines.push(...error.details, ...error.hints.map(hookHintLine));
  }
  return { outcome: [...outcomes, ...failures].join("; ") || "nothing to report", lines };
}

/** A review's hint as it applies to a push (`git push` passes no review flag such as --timeout), as a line. */
function hookHintLine(hint: string): string {
  return `hint: ${hint === messages.hintMoreTime ? messages.hintMoreTimeInHook : hint}`;
}

/**
 * One line per pushed ref; a target pushed under two refs shows its comments once, their paths as git
 * prints paths under `quotePath` (core.quotePath).
 */
export function printPushRefs(
  plans: readonly PushPlan[],
  reviews: ReadonlyMap<string, TargetReview>,
  { stop, quotePath }: { stop: HookStop; quotePath: boolean },
  output: Output,
): void {
  const shown = new Set<string>();
  for (const plan of plans) {
    const review = plan.target === undefined ? undefined : reviews.get(plan.target);
    if (plan.skip || !review || plan.target === undefined) {
      output.err(refLine(plan, plan.skip ? SKIPPED[plan.skip] : stoppedText(stop)));
      continue;
    }
    const { outcome, lines } = describeReview(review, stop, quotePath);
    output.err(refLine(plan, outcome));
    if (shown.has(plan.target)) continue;
    shown.add(plan.target);
    for (const line of lines) output.err(`${SAY}   ${line}`);
  }
}

/** Review branches in a push: every ref's line, then why nothing is pushed and what to do. */
export function printReviewBranchesRefused(plans: readonly PushPlan[], remote: string, output: Output): void {
  for (const plan of plans) {
    const outcome =
      plan.skip === PushSkip.reviewBranch ? SKIPPED[plan.skip] : "not pushed: the push is refused";
    output.err(refLine(plan, outcome));
  }
  output.err(`${SAY} push refused: review branches hold a worker's unvetted proposals and stay local`);
  output.err(
    `hint: push your branches by name (git push ${escapeForDisplay(shellWord(remote))} <branch>), not with --all or --mirror;`,
  );
  output.err("hint: git review-remote prune deletes the branches of merged, dropped and superseded reviews;");
  output.err("hint: to publish one anyway: REVIEW_REMOTE_SKIP=1 git push");
}

export function printPushBlocked(reason: "errors" | "unreviewed", errors: number, output: Output): void {
  if (reason === "errors") {
    output.err(`${SAY} push blocked: ${plural(errors, "error")} found (review-remote.prePush=block)`);
    output.err("hint: fix them, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
  } else {
    output.err(`${SAY} push blocked: no review could be obtained (review-remote.failClosed=true)`);
    output.err("hint: check the worker, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
  }
}
