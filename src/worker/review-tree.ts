// The worker's review of the unpacked tree (design §8): baseline → reviewer (built-in or sandboxed
// command) → collect. Everything the reviewer can cause (a crash, a timeout, output over the
// limits) ends as a result with status "failed"; only our own bugs escape as exceptions.

import { chmodSync, chownSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug.js";
import type { Env } from "../git/run.js";
import { type ChangedLines, changedLinesOf } from "../protocol/changed-lines.js";
import type { Request } from "../protocol/request.js";
import type { ReviewComment } from "../protocol/result.js";
import { createBaseline, createPrivateGitDir } from "./baseline.js";
import { keepOriginalBlob } from "./baseline-blobs.js";
import { collectProposals, ProposalError } from "./collect.js";
import { readComments } from "./comments.js";
import { writeFocusFiles } from "./focus-files.js";
import type { ReviewOutput } from "./result.js";
import { runHygiene } from "./reviewers/hygiene.js";
import { chownTree, type ReviewerIo, readReviewerHead, runReviewer } from "./run-reviewer.js";
import type { ResourceLimits, Sandbox } from "./sandbox.js";
import { type BundleListing, BundleRefusedError } from "./verify-bundle.js";
import type { Workspace } from "./workspace.js";

export type Reviewer =
  | { kind: "builtin"; name: "hygiene"; coreWhitespace?: string | undefined }
  | { kind: "command"; command: string };

export interface ReviewTreeContext {
  request: Request;
  requestLine: Buffer;
  listing: BundleListing;
  workspace: Workspace;
  env: Env;
  sandbox: Sandbox;
  reviewer: Reviewer;
  /** When the whole review must be over (ms since the epoch). */
  deadline: number;
  warn: (line: string) => void;
  onOutput: (text: string) => void;
  onSpawn: (kill: () => void) => void;
}

const LEFTOVER_MESSAGE = "Apply the reviewer's uncommitted changes";
const MIN_FILE_SIZE_CAP = 64 * 1024 * 1024;
const MAX_FILE_SIZE_CAP = 1024 * 1024 * 1024;

/** Per-file write cap: room to rewrite the largest file twice over, never less than 64 MiB. */
function resourceLimits(listing: BundleListing): ResourceLimits {
  let largest = 0;
  for (const node of listing.nodes.values()) largest = Math.max(largest, node.size);
  return {
    fileSizeBytes: Math.min(MAX_FILE_SIZE_CAP, Math.max(MIN_FILE_SIZE_CAP, 2 * largest)),
    openFiles: 1024,
    processes: 512,
  };
}

function writeIoFiles(ctx: ReviewTreeContext, changes: ChangedLines | undefined): ReviewerIo {
  const io: ReviewerIo = {
    tree: ctx.workspace.tree,
    requestFile: join(ctx.workspace.io, "request.json"),
    commentsFile: join(ctx.workspace.io, "comments.jsonl"),
    focus: changes ? writeFocusFiles(ctx.workspace.io, changes) : undefined,
    home: ctx.workspace.home,
  };
  writeFileSync(io.requestFile, ctx.requestLine, { mode: 0o400 });
  writeFileSync(io.commentsFile, "", { mode: 0o600 });
  const user = ctx.sandbox.user;
  if (user) {
    const focus = io.focus ? [io.focus.changed, io.focus.changedLines] : [];
    for (const file of [io.requestFile, io.commentsFile, ...focus]) chownSync(file, user.uid, user.gid);
    chmodSync(ctx.workspace.tree, 0o700);
  }
  return io;
}

interface ReviewerResult {
  head: string;
  /** Known to have left the tree as it was (a built-in reviewer that changed nothing). */
  unchanged?: boolean;
  leftoverMessage: string;
  comments: ReviewComment[];
  summary?: string;
  error?: string;
}

async function runSelectedReviewer(
  ctx: ReviewTreeContext,
  io: ReviewerIo,
  baseline: string,
  changes: ChangedLines | undefined,
): Promise<ReviewerResult> {
  const { request } = ctx;
  if (ctx.reviewer.kind === "builtin") {
    const outcome = await runHygiene(io.tree, ctx.listing, {
      changes,
      env: ctx.env,
      coreWhitespace: ctx.reviewer.coreWhitespace,
      forbiddenPaths: request.forbiddenPaths,
      fix: request.actions.includes("propose"),
      // Only the blobs it replaces are written, each as it is replaced.
      beforeRewrite: (path, content) => keepOriginalBlob(io.tree, ctx.listing, path, content),
    });
    return {
      head: baseline,
      unchanged: outcome.fixed.length === 0,
      leftoverMessage: outcome.commitMessage ?? LEFTOVER_MESSAGE,
      comments: outcome.comments,
      summary: outcome.summary,
    };
  }
  if (ctx.sandbox.user) await chownTree([io.tree], ctx.sandbox.user);
  const reserve = Math.min(10_000, request.limits.timeoutSeconds * 100);
  const outcome = await runReviewer({
    command: ctx.reviewer.command,
    question: request.question,
    sandbox: ctx.sandbox,
    io,
    timeoutMs: Math.max(1000, ctx.deadline - Date.now() - reserve),
    limits: resourceLimits(ctx.listing),
    onOutput: ctx.onOutput,
    onSpawn: ctx.onSpawn,
  });
  if (!outcome.ok)
    return { head: baseline, leftoverMessage: LEFTOVER_MESSAGE, comments: [], error: outcome.error };
  const parsed = await readComments(io.commentsFile, request.limits.maxComments);
  for (const line of parsed.warnings) ctx.warn(line);
  const head = await readReviewerHead(ctx.sandbox, io, 30_000);
  return { head, leftoverMessage: LEFTOVER_MESSAGE, comments: parsed.comments };
}

function summarize(commits: number, comments: number): string {
  return `${commits} proposed commit${commits === 1 ? "" : "s"}, ${comments} comment${comments === 1 ? "" : "s"}.`;
}

export async function reviewTree(ctx: ReviewTreeContext): Promise<ReviewOutput> {
  const { request, workspace } = ctx;
  // A reviewer command runs git on its own (diff, stash, checkout): it needs every blob. The
  // built-in one reads files only, and writes the blobs it replaces as it replaces them.
  const allBlobs = ctx.reviewer.kind === "command";
  const { commit: baseline, index } = createBaseline(workspace.tree, ctx.listing, request.snapshot.commit, {
    allBlobs,
  });
  // The baseline index, with stat data, kept where the reviewer cannot touch it: collecting then
  // rehashes only the files the reviewer changed.
  const baselineIndex = join(workspace.home, "baseline-index");
  writeFileSync(baselineIndex, index);
  debug("worker: baseline committed");
  const changes = request.range ? changedLinesOf(request.range) : undefined;
  const io = writeIoFiles(ctx, changes);
  let reviewed: ReviewerResult;
  try {
    reviewed = await runSelectedReviewer(ctx, io, baseline, changes);
  } catch (error) {
    // What was unpacked is not what the bundle holds: a refusal, not a reviewer's failure.
    if (error instanceof BundleRefusedError) throw error;
    return {
      status: "failed",
      summary: "The reviewer failed.",
      comments: [],
      commits: [],
      error: (error as Error).message,
    };
  }
  debug("worker: reviewer done");
  if (reviewed.error) {
    return {
      status: "failed",
      summary: "The reviewer failed.",
      comments: reviewed.comments,
      commits: [],
      error: reviewed.error,
    };
  }
  if (reviewed.unchanged) {
    const comments = reviewed.comments;
    return {
      status: "ok",
      summary: reviewed.summary ?? summarize(0, comments.length),
      comments,
      commits: [],
    };
  }
  createPrivateGitDir(workspace.git, join(workspace.tree, ".git", "objects"));
  try {
    const collected = await collectProposals({
      tree: workspace.tree,
      gitDir: workspace.git,
      env: ctx.env,
      baseline,
      baselineIndex,
      missingBlobs: !allBlobs,
      head: reviewed.head,
      leftoverMessage: reviewed.leftoverMessage,
      forbiddenPaths: request.forbiddenPaths,
      limits: request.limits,
    });
    const comments = [...reviewed.comments, ...collected.notes];
    return {
      status: "ok",
      summary: reviewed.summary ?? summarize(collected.commits.length, comments.length),
      comments,
      commits: collected.commits,
    };
  } catch (error) {
    if (ctx.reviewer.kind === "builtin" && !(error instanceof ProposalError)) throw error;
    return {
      status: "failed",
      summary: "The reviewer's changes could not be collected.",
      comments: reviewed.comments,
      commits: [],
      error: (error as Error).message,
    };
  }
}
