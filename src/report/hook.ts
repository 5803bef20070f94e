// What the pre-push hook prints: `review-remote:` lines on stderr for each pushed target, and the
// verdict when the push is blocked.
import type { TargetReview } from "../hooks/review-push.js";
import { formatComment } from "./comment.js";
import type { Output } from "./output.js";

const SAY = "review-remote:";

function printTarget(review: TargetReview, timeoutSeconds: number, output: Output): void {
  const target = review.target.slice(0, 40);
  if (!review.report && !review.error) {
    output.err(`${SAY} no time left to review ${target} (review-remote.prePushTimeout)`);
    return;
  }
  if (review.error) {
    const why = review.timedOut ? `timed out after ${timeoutSeconds}s` : review.error.message;
    output.err(`${SAY} could not review ${target}: ${why}`);
    for (const line of review.error.details) output.err(`${SAY}   ${line}`);
    return;
  }
  const report = review.report;
  if (!report) return;
  for (const outcome of report.outcomes) {
    if (outcome.comments.length === 0 && !outcome.record.branch) continue;
    const cached = report.cached.has(outcome.record.id) ? " (cached)" : "";
    output.err(`${SAY} ${target}: review ${outcome.record.id}${cached}`);
    for (const comment of outcome.comments) output.err(`${SAY}   ${formatComment(comment)}`);
    if (outcome.record.branch) output.err(`${SAY}   proposals on ${outcome.record.branch}`);
  }
  for (const { worker, error } of report.failures) {
    output.err(`${SAY} no review from '${worker.name}': ${error.message}`);
  }
}

export function printPushReviews(
  reviews: readonly TargetReview[],
  timeoutSeconds: number,
  output: Output,
): void {
  for (const review of reviews) printTarget(review, timeoutSeconds, output);
}

export function printPushBlocked(reason: "errors" | "unreviewed", errors: number, output: Output): void {
  if (reason === "errors") {
    output.err(`${SAY} push blocked: ${errors} error(s) found (review-remote.prePush=block)`);
    output.err("hint: fix them, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
  } else {
    output.err(`${SAY} push blocked: no review could be obtained (review-remote.failClosed=true)`);
    output.err("hint: check the worker, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
  }
}
