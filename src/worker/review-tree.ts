// The worker's review of the unpacked tree (design §8): baseline → reviewer (built-in or sandboxed
// command) → collect, each under the request's deadline, the reviewer within the worker's limits.
// Everything the reviewer can cause (a crash, a timeout, a full workspace, output over the limits)
// ends as a result with status "failed"; time running out is a DeadlineError for the flow to report;
// only our own bugs escape as other exceptions.

import { chmodSync, chownSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug.js";
import type { Env } from "../git/run.js";
import { type ChangedLines, changedLinesOf } from "../protocol/changed-lines.js";
import type { Request } from "../protocol/request.js";
import type { ReviewComment } from "../protocol/result.js";
import { createBaseline, createPrivateGitDir, initBaselineRepository } from "./baseline.js";
import { addBlobIds, keepOriginalBlob } from "./baseline-blobs.js";
import { collectProposals, ProposalError, ProposalLimitError } from "./collect.js";
import { DeadlineError } from "./deadline.js";
import { writeFocusFiles } from "./focus-files.js";
import { resourceLimitsFor, type WorkerLimits } from "./limits.js";
import { workerMessages } from "./messages.js";
import { failedOutput, type ReviewOutput, withoutProposals } from "./result.js";
import { type CommandsReviewer, reviewWithCommands } from "./review-commands.js";
import { resetIoFiles } from "./reviewer-step.js";
import { runHygiene } from "./reviewers/hygiene.js";
import type { ReviewerIo, ReviewerPhase } from "./run-reviewer.js";
import { type BundleListing, BundleRefusedError } from "./verify-bundle.js";
import type { Workspace } from "./workspace.js";
import { fullReason, limitWorkspace } from "./workspace-tmpfs.js";

export type Reviewer =
  | { kind: "builtin"; name: "hygiene"; coreWhitespace?: string | undefined }
  | CommandsReviewer;

export interface ReviewTreeContext extends ReviewerPhase {
  request: Request;
  requestLine: Buffer;
  listing: BundleListing;
  workspace: Workspace;
  env: Env;
  reviewer: Reviewer;
  limits: WorkerLimits;
  /** Files the unpack found clean for the built-in reviewer (cleanFilesObserver). */
  clean?: ReadonlySet<string> | undefined;
}

/** A file or symlink the bundle carried, so the unpacked tree has it. */
function isListedFile(listing: BundleListing, path: string): boolean {
  const index = listing.nodes.indexOf(path);
  return index !== undefined && !listing.nodes.isDirectoryAt(index);
}

const LEFTOVER_MESSAGE = "Apply the reviewer's uncommitted changes";
function writeIoFiles(ctx: ReviewTreeContext, changes: ChangedLines | undefined): ReviewerIo {
  const io: ReviewerIo = {
    tree: ctx.workspace.tree,
    dir: ctx.workspace.io,
    requestFile: join(ctx.workspace.io, "request.json"),
    commentsFile: join(ctx.workspace.io, "comments.jsonl"),
    outputFile: join(ctx.workspace.io, "output"),
    summaryFile: join(ctx.workspace.io, "summary"),
    focus: changes
      ? writeFocusFiles(ctx.workspace.io, changes, (path) => isListedFile(ctx.listing, path))
      : undefined,
    home: ctx.workspace.home,
    ...(ctx.workspace.scratch ? { scratch: ctx.workspace.scratch } : {}),
  };
  writeFileSync(io.requestFile, ctx.requestLine, { mode: 0o400 });
  const user = ctx.sandbox.user;
  resetIoFiles(io, user);
  if (user) {
    const focus = io.focus ? [io.focus.changed, io.focus.changedLines] : [];
    for (const file of [io.requestFile, ...focus]) chownSync(file, user.uid, user.gid);
    chmodSync(ctx.workspace.tree, 0o700);
  }
  return io;
}

interface ReviewerResult {
  /** The reviewer's last commit; none: the baseline (the built-in reviewer commits nothing). */
  head?: string;
  /** Known to have left the tree as it was (a built-in reviewer that changed nothing). */
  unchanged?: boolean;
  /**
   * The commit message for what the built-in reviewer left uncommitted. External reviewers' work is
   * committed reviewer by reviewer: what is left was not theirs, and is not collected.
   */
  leftoverMessage?: string;
  comments: ReviewComment[];
  /** Comments over the request's limit the reviewers' reports left out (external reviewers). */
  overLimit?: number;
  summary?: string;
  /** What ran, for the summary (external reviewers). */
  ran?: string;
  error?: string;
}

/** `baseline`: the baseline commit, which a reviewer command starts from (the built-in one needs none). */
async function runSelectedReviewer(
  ctx: ReviewTreeContext,
  io: ReviewerIo,
  baseline: string | undefined,
  changes: ChangedLines | undefined,
): Promise<ReviewerResult> {
  const { request } = ctx;
  if (ctx.reviewer.kind === "builtin") {
    const outcome = await runHygiene(io.tree, ctx.listing, {
      changes,
      env: ctx.env,
      coreWhitespace: ctx.reviewer.coreWhitespace,
      clean: ctx.clean,
      forbiddenPaths: request.forbiddenPaths,
      fix: request.actions.includes("propose"),
      // Only the blobs it replaces are written, each as it is replaced.
      beforeRewrite: (path, content) => keepOriginalBlob(io.tree, ctx.listing, path, content),
    });
    return {
      unchanged: outcome.fixed.length === 0,
      leftoverMessage: outcome.commitMessage ?? LEFTOVER_MESSAGE,
      comments: outcome.comments,
      summary: outcome.summary,
    };
  }
  const reviewed = await reviewWithCommands(
    {
      ...ctx,
      reviewer: ctx.reviewer,
      io,
      treePaths: { [Symbol.iterator]: () => ctx.listing.nodes.keys() },
      resourceLimits: resourceLimitsFor(ctx.listing, ctx.limits),
    },
    baseline as string,
  );
  return reviewed;
}

/**
 * The summary is prose: what ran and what the reviewers said. The counts are the client's to state,
 * after it validated the result (they may differ from what the worker sent).
 */
function summarize(reviewed: ReviewerResult): string {
  return reviewed.summary ?? reviewed.ran ?? "The reviewer ran.";
}

/**
 * The reviewer's run. Time running out goes on to the flow, and so does a tree that is not what the
 * bundle holds (a refusal); anything else is the reviewer failing.
 */
async function runUnderDeadline(
  ctx: ReviewTreeContext,
  io: ReviewerIo,
  baseline: string | undefined,
  changes: ChangedLines | undefined,
): Promise<ReviewerResult> {
  try {
    return await ctx.deadline.run("running the reviewer", () =>
      runSelectedReviewer(ctx, io, baseline, changes),
    );
  } catch (error) {
    if (error instanceof DeadlineError || error instanceof BundleRefusedError) throw error;
    return {
      comments: [],
      error: (error as Error).message,
    };
  }
}

export async function reviewTree(ctx: ReviewTreeContext): Promise<ReviewOutput> {
  const left = { overLimit: 0 };
  const output = await reviewAndCollect(ctx, left);
  return left.overLimit > 0 ? { ...output, overLimit: left.overLimit } : output;
}

/** The review's output; `left` gets the count of comments the reports left out over the limit. */
async function reviewAndCollect(ctx: ReviewTreeContext, left: { overLimit: number }): Promise<ReviewOutput> {
  const { request, workspace, deadline, limits } = ctx;
  // A reviewer command runs git on its own (diff, stash, checkout): it needs every blob. The
  // built-in one reads files only, and writes the blobs it replaces as it replaces them.
  const allBlobs = ctx.reviewer.kind === "commands";
  // The baseline index, with stat data, kept where the reviewer cannot touch it: collecting then
  // rehashes only the files the reviewer changed.
  const baselineIndex = join(workspace.home, "baseline-index");
  const buildBaseline = () =>
    deadline.run("building the baseline", async () => {
      await addBlobIds(workspace.bundle, request.bundle.bytes, ctx.listing, deadline.signal);
      const { commit, index } = createBaseline(workspace.tree, ctx.listing, request.snapshot.commit, {
        allBlobs,
      });
      writeFileSync(baselineIndex, index);
      debug("worker: baseline committed");
      return commit;
    });
  // A reviewer command starts from the baseline commit. The built-in reviewer reads files and the
  // attributes only (its repository is enough), and the baseline, written from the listing, is
  // only needed when it changed something: most reviews propose nothing and skip it.
  let baseline: string | undefined;
  if (allBlobs) baseline = await buildBaseline();
  else initBaselineRepository(workspace.tree);
  // From here the workspace holds what the bundle made plus what the reviewer may add.
  const room = { bytes: limits.treeBytes, files: limits.files };
  await limitWorkspace(workspace, room);
  const changes = request.range ? changedLinesOf(request.range) : undefined;
  const io = writeIoFiles(ctx, changes);
  const reviewed = await runUnderDeadline(ctx, io, baseline, changes);
  left.overLimit = reviewed.overLimit ?? 0;
  debug("worker: reviewer done");
  const full = fullReason(workspace, limits);
  if (full) return failedOutput(workerMessages.overLimitsSummary, full, reviewed.comments);
  if (reviewed.error) {
    const summary = reviewed.ran ? `The reviewer failed.\n\n${reviewed.ran}` : "The reviewer failed.";
    return failedOutput(summary, reviewed.error, reviewed.comments);
  }
  if (reviewed.unchanged) {
    const summary = summarize(reviewed);
    return { status: "ok", summary, comments: reviewed.comments, commits: [] };
  }
  baseline ??= await buildBaseline();
  // Collecting writes the objects of what the reviewer changed: as much room again, at most.
  await limitWorkspace(workspace, room);
  createPrivateGitDir(workspace.git, join(workspace.tree, ".git", "objects"));
  try {
    const collected = await deadline.run("collecting the reviewer's changes", () =>
      collectProposals({
        tree: workspace.tree,
        gitDir: workspace.git,
        env: ctx.env,
        baseline,
        baselineIndex,
        missingBlobs: !allBlobs,
        head: reviewed.head ?? baseline,
        leftoverMessage: reviewed.leftoverMessage,
        forbiddenPaths: request.forbiddenPaths,
        limits: request.limits,
        changed: request.range ? new Set(request.range.paths) : undefined,
        signal: deadline.signal,
      }),
    );
    const comments = [...reviewed.comments, ...collected.notes];
    return {
      status: "ok",
      summary: summarize(reviewed),
      comments,
      commits: collected.commits,
    };
  } catch (error) {
    if (error instanceof DeadlineError) throw error;
    // Git reading what the reviewer left can fill the workspace itself (a mapped sparse file takes
    // room as it is read): that is the reviewer's doing, so report the limit, not git's crash.
    const filled = fullReason(workspace, limits);
    if (filled) return failedOutput(workerMessages.overLimitsSummary, filled, reviewed.comments);
    if (error instanceof ProposalLimitError) {
      const summary = summarize(reviewed);
      return withoutProposals(
        { status: "ok", summary, comments: reviewed.comments, commits: [] },
        error.limit,
        error.message,
      );
    }
    if (ctx.reviewer.kind === "builtin" && !(error instanceof ProposalError)) throw error;
    return failedOutput(
      "The reviewer's changes could not be collected.",
      (error as Error).message,
      reviewed.comments,
    );
  }
}
