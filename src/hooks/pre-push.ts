// What a push asks to review: git's pre-push stdin, one `<local ref> <local oid> <remote ref>
// <remote oid>` line per update (githooks(5)), turned into revisions and ranges, each reviewed in
// turn within the hook's time limit.
import type { Settings } from "../config/settings.js";
import { ExitCode, ReviewRemoteError } from "../errors.js";
import { findCommit } from "../git/commits.js";
import { git } from "../git/run.js";
import type { PipelineEvents, PipelineReport } from "../pipeline/outcome.js";
import type { Repo } from "../repo.js";

export interface PushUpdate {
  localRef: string;
  localOid: string;
  remoteRef: string;
  remoteOid: string;
}

const ZERO = /^0+$/;

export function parsePushUpdates(text: string): PushUpdate[] {
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 4)
    .map(([localRef = "", localOid = "", remoteRef = "", remoteOid = ""]) => ({
      localRef,
      localOid,
      remoteRef,
      remoteOid,
    }));
}

function resolves(repo: Repo, rev: string): Promise<string | undefined> {
  return findCommit({ cwd: repo.cwd, env: repo.env }, rev);
}

/** The remote's default branch as this clone knows it: `<remote>/HEAD`, else main or master. */
async function remoteDefault(repo: Repo, remote: string): Promise<string | undefined> {
  for (const ref of [
    `refs/remotes/${remote}/HEAD`,
    `refs/remotes/${remote}/main`,
    `refs/remotes/${remote}/master`,
  ]) {
    const oid = await resolves(repo, ref);
    if (oid) return oid;
  }
  return undefined;
}

/**
 * The target of each update that is not a deletion: `<remote oid>..<local oid>` when the remote
 * commit is known here; for a new branch, from the merge base with the remote's default branch;
 * otherwise the whole tree at `<local oid>`.
 */
export async function pushTargets(
  repo: Repo,
  remote: string,
  updates: readonly PushUpdate[],
): Promise<string[]> {
  const targets: string[] = [];
  for (const update of updates) {
    if (ZERO.test(update.localOid)) continue;
    let base: string | undefined;
    if (!ZERO.test(update.remoteOid)) base = await resolves(repo, update.remoteOid);
    else {
      const main = await remoteDefault(repo, remote);
      if (main) {
        const mergeBase = await git(["merge-base", main, update.localOid], {
          cwd: repo.cwd,
          env: repo.env,
          allowFailure: true,
        });
        if (mergeBase.exitCode === 0) base = mergeBase.stdout.trim();
      }
    }
    if (base === update.localOid) continue;
    const target = base ? `${base}..${update.localOid}` : update.localOid;
    if (!targets.includes(target)) targets.push(target);
  }
  return targets;
}

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
    const options = { target, worktree: false, workers: [], noCache: false, pathspecs: [], signal };
    try {
      reviews.push({ target, report: await runPipeline(repo, settings, options, events), timedOut: false });
    } catch (error) {
      if (!(error instanceof ReviewRemoteError)) throw error;
      reviews.push({ target, error, timedOut: signal.aborted });
    }
  }
  return reviews;
}

/** Error-severity findings (a refused export counts as one) and targets left without a review. */
export function countPushFindings(reviews: readonly TargetReview[]): { errors: number; unreviewed: number } {
  let errors = 0;
  let unreviewed = 0;
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
      errors += outcome.comments.filter((comment) => comment.severity === "error").length;
    unreviewed += review.report.failures.length;
  }
  return { errors, unreviewed };
}
