// Reviewing a push: each target in turn within the hook's time limit, and what the verdict counts
// (error-severity findings, targets left without a review).
import type { Settings } from "../config/settings.js";
import { ExitCode, ReviewRemoteError } from "../errors.js";
import type { PipelineEvents, PipelineReport } from "../pipeline/outcome.js";
import type { Repo } from "../repo.js";

/** What one pushed target got: a report (reviews and failing workers), or the error that stopped it. */
export interface TargetReview {
  target: string;
  report?: PipelineReport;
  error?: ReviewRemoteError;
  /** The time limit ran out (before or during this target). */
  timedOut: boolean;
}

/**
 * Reviews each target in turn, quietly, within the hook's time limit: an error on one target (a
 * refused export, a worker that failed) is a value, and the next target is still reviewed.
 */
export async function reviewPush(
  repo: Repo,
  settings: Settings,
  targets: readonly string[],
  signal: AbortSignal,
  events: PipelineEvents,
): Promise<TargetReview[]> {
  const { runPipeline } = await import("../pipeline/pipeline.js");
  const reviews: TargetReview[] = [];
  for (const target of targets) {
    if (signal.aborted) {
      reviews.push({ target, timedOut: true });
      continue;
    }
    // A target without a base (a new branch git knows no base for) is the whole tree it brings.
    const all = !target.includes("..");
    const options = {
      target,
      worktree: false,
      all,
      workers: [],
      noCache: false,
      pathspecs: [],
      signal,
      plannedRange: true,
    };
    try {
      const report = await runPipeline(repo, settings, options, events);
      reviews.push({ target, report, timedOut: signal.aborted });
    } catch (error) {
      if (!(error instanceof ReviewRemoteError)) throw error;
      reviews.push({ target, error, timedOut: signal.aborted });
    }
  }
  return reviews;
}

/** Error-severity findings (a refused export counts as one) and targets left without a review. */
function countPushFindings(reviews: readonly TargetReview[]): { errors: number; unreviewed: number } {
  let errors = 0;
  let unreviewed = 0;
  // One finding in several pushed refs (branches that share the commit) is one thing to fix.
  const found = new Set<string>();
  for (const review of reviews) {
    if (review.error) {
      // A refused export (a secret) is an error for block mode, and no review for failClosed.
      if (review.error.exitCode === ExitCode.exportRefused) errors += 1;
      unreviewed++;
    }
    if (!review.report) {
      if (!review.error) unreviewed++;
      continue;
    }
    for (const outcome of review.report.outcomes)
      for (const comment of outcome.comments)
        if (comment.severity === "error")
          found.add(JSON.stringify([comment.path, comment.line, comment.rule, comment.message]));
    unreviewed += review.report.failures.length;
  }
  return { errors: errors + found.size, unreviewed };
}

/** Why review-remote.prePush=block or failClosed stops the push, or undefined when it goes. */
export function pushVerdict(
  reviews: readonly TargetReview[],
  settings: Pick<Settings, "prePush" | "failClosed">,
): { blocked: "errors" | "unreviewed" | undefined; errors: number } {
  const { errors, unreviewed } = countPushFindings(reviews);
  if (settings.prePush === "block" && errors > 0) return { blocked: "errors", errors };
  if (unreviewed > 0 && settings.failClosed) return { blocked: "unreviewed", errors };
  return { blocked: undefined, errors };
}
