// One external reviewer's turn (design §8): run it in the tree, read its report in its declared format
// (stdout or $REVIEW_REMOTE_OUTPUT; comments also from $REVIEW_REMOTE_COMMENTS), and apply what the
// report proposes (fixes, or a diff) to the files. A linter that exits 1 with a valid report did its
// job; no valid report, or a crash, is this reviewer failing, with an error naming the format.

import { chownSync, constants, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { CommentTier } from "../protocol/parse-result.js";
import type { ReviewComment } from "../protocol/result.js";
import { readComments } from "./comments.js";
import { readFixFiles, writeFixFiles } from "./fix-files.js";
import { applyFixes } from "./formats/apply-fixes.js";
import { convertReport } from "./formats/convert.js";
import { DEFAULT_FORMAT_LIMITS, type FormatLimits } from "./formats/types.js";
import { workerMessages as m } from "./messages.js";
import type { ReviewerCommand } from "./reviewer-specs.js";
import { type Grants, type ReviewerIo, type ReviewerPhase, runReviewer } from "./run-reviewer.js";
import type { ResourceLimits } from "./sandbox.js";
import { commentsOnSnapshot, parseZeroContextDiff } from "./snapshot-lines.js";
import { applyPatch, type TreeGit, trackedChanged, zeroContextDiff } from "./tree-git.js";

export interface StepContext extends ReviewerPhase {
  question: string;
  maxComments: number;
  /** The change's comments first when the cut to maxComments comes. */
  tier?: CommentTier | undefined;
  /** The request's limit on the proposals' patches: a diff report may fill it, and no more. */
  maxPatchBytes: number;
  io: ReviewerIo;
  grants: Grants;
  limits: ResourceLimits;
  git: TreeGit;
  /** The commit of the snapshot in the tree: comments' lines are its lines. */
  snapshot: string;
}

interface AppliedFix {
  rule: string | undefined;
  /** The file of its first edit. */
  path: string | undefined;
}

export interface StepOutcome {
  /** The exit code when the reviewer exited by itself. */
  exitCode?: number;
  comments: ReviewComment[];
  /** Its comments over the request's limit, left out: the most severe are in `comments`. */
  overLimit?: number;
  /** The fixes applied, one entry a fix: its rule id (if any) and the file it fixed. */
  fixed: AppliedFix[];
  /** Fixes its report held, applied or not (those over the limit too). */
  offered?: number;
  /** Files a diff report patched. */
  patched: string[];
  /** The reviewer changed tracked files itself besides the fixes its report held (ruff under `fix = true`). */
  editedItself?: boolean;
  /** What it wrote to $REVIEW_REMOTE_SUMMARY. */
  summary?: string;
  error?: string;
}

const MAX_SUMMARY_CHARS = 4096;

/** Up to `max` bytes of a file the reviewer wrote, never through a symlink; empty when absent. */
async function readBounded(path: string, max: number): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return Buffer.alloc(0);
  }
  try {
    if (!(await handle.stat()).isFile()) return Buffer.alloc(0);
    const buffer = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Nothing but whitespace: no report. */
function isBlank(report: Buffer): boolean {
  return report.length < 4096 && report.toString("latin1").trim() === "";
}

/** Empty io files for the next reviewer, writable by the sandbox's user. */
export function resetIoFiles(io: ReviewerIo, user: { uid: number; gid: number } | undefined): void {
  for (const file of [io.commentsFile, io.outputFile, io.summaryFile]) {
    writeFileSync(file, "", { mode: 0o600 });
    if (user) chownSync(file, user.uid, user.gid);
  }
}

/** The format defaults, with the request's limits where the request has one (git config may raise it). */
function formatLimits(ctx: Pick<StepContext, "maxComments" | "maxPatchBytes">): FormatLimits {
  return { ...DEFAULT_FORMAT_LIMITS, maxComments: ctx.maxComments, maxPatchBytes: ctx.maxPatchBytes };
}

async function readSummary(io: ReviewerIo): Promise<string | undefined> {
  const text = (await readBounded(io.summaryFile, MAX_SUMMARY_CHARS * 4)).toString("utf8").trim();
  // Never half a surrogate pair: the client refuses a result that holds one anywhere.
  return text === "" ? undefined : text.slice(0, MAX_SUMMARY_CHARS).replace(/[\uD800-\uDBFF]$/, "");
}

/** The `comments` format: the comments file and the output file, as JSON Lines. */
async function commentsOutcome(ctx: StepContext, exitCode: number): Promise<StepOutcome> {
  const fromFile = await readComments(ctx.io.commentsFile, ctx.maxComments, ctx.tier);
  const fromOutput = await readComments(ctx.io.outputFile, ctx.maxComments, ctx.tier);
  for (const line of [...fromFile.warnings, ...fromOutput.warnings]) ctx.warn(line);
  const summary = await readSummary(ctx.io);
  return {
    exitCode,
    comments: [...fromFile.comments, ...fromOutput.comments],
    overLimit: fromFile.overLimit + fromOutput.overLimit,
    fixed: [],
    patched: [],
    ...(summary ? { summary } : {}),
  };
}

/** Paths past which the diff that maps lines back covers the whole tree rather than each path. */
const MAX_DIFF_PATHS = 500;

/**
 * A function that moves comments made on the tree as it is now (the reviewer's own edits, and those of
 * the reviewers before it) onto the snapshot's lines, for the comments on `paths`; taken before the
 * report's fixes change the tree again.
 */
async function snapshotLines(
  ctx: StepContext,
  paths: ReadonlySet<string>,
): Promise<(comments: ReviewComment[]) => ReviewComment[]> {
  if (paths.size === 0) return (comments) => comments;
  const diff = await zeroContextDiff(ctx.git, ctx.snapshot, paths.size > MAX_DIFF_PATHS ? [] : [...paths]);
  if (diff === undefined) return (comments) => comments;
  const hunks = parseZeroContextDiff(diff);
  return (comments) => commentsOnSnapshot(comments, hunks);
}

export async function runStep(
  ctx: StepContext,
  reviewer: ReviewerCommand,
  index: number,
): Promise<StepOutcome> {
  const declared = reviewer.format !== "comments";
  const limits = formatLimits(ctx);
  // Collecting gets the last tenth of the time (at most 10 s); the reviewer, what is left before it.
  const remaining = ctx.deadline.remainingMs();
  const reserve = Math.min(10_000, ctx.deadline.seconds * 100);
  const run = await runReviewer({
    command: reviewer.command,
    question: ctx.question,
    sandbox: ctx.sandbox,
    io: ctx.io,
    grants: ctx.grants,
    timeoutMs: Math.max(remaining - reserve, remaining / 2),
    timeLimit: ctx.deadline.limit,
    limits: ctx.limits,
    onOutput: ctx.onOutput,
    onSpawn: ctx.onSpawn,
    ...(declared ? { captureStdoutBytes: limits.maxReportBytes + 1 } : {}),
  });
  // A linter's exit 1 with a report is its finding, not a failure; any other failure is.
  if (!run.ok && (!declared || run.exitCode === undefined)) {
    return { comments: [], fixed: [], patched: [], error: run.error };
  }
  const exitCode = run.exitCode ?? 0;
  if (!declared) return commentsOutcome(ctx, exitCode);
  const output = await readBounded(ctx.io.outputFile, limits.maxReportBytes + 1);
  const report = output.length > 0 ? output : (run.stdout ?? Buffer.alloc(0));
  // No report at all: a linter run on no file (`grep -z '\.js$' ... | xargs -0 -r eslint` over a
  // change with none) writes nothing and exits 0, which is no finding. With a failure, the failure
  // is the news (ESLint's config could not load), not that an empty document is no JSON.
  if (isBlank(report)) {
    if (!run.ok)
      return {
        exitCode,
        comments: [],
        fixed: [],
        patched: [],
        error: m.noReport(reviewer.format, run.error),
      };
    const summary = await readSummary(ctx.io);
    return { exitCode, comments: [], fixed: [], patched: [], ...(summary ? { summary } : {}) };
  }
  const converted = await convertReport(reviewer.format, report, {
    treeRoot: ctx.io.tree,
    limits,
    tier: ctx.tier,
  });
  if (!converted.ok) {
    const detail = run.ok ? converted.error : `${converted.error} (${run.error})`;
    return { exitCode, comments: [], fixed: [], patched: [], error: detail };
  }
  const { comments, overLimit, fixes, fixesOverLimit, patch, warnings } = converted.report;
  for (const line of warnings) ctx.warn(line);
  // The report numbers lines in the tree as the tool left it, before its fixes are applied.
  const onSnapshot = await snapshotLines(
    ctx,
    new Set([
      ...comments.flatMap((comment) => (comment.line === undefined || !comment.path ? [] : [comment.path])),
      ...fixes.flatMap((fix) => [...(fix.path ? [fix.path] : []), ...fix.edits.map((edit) => edit.path)]),
    ]),
  );
  const outcome: StepOutcome = { exitCode, comments: [...comments], overLimit, fixed: [], patched: [] };
  // `--reviewer-fixes none`: the findings stay comments; their fixes are only counted, a diff dropped.
  if (fixes.length > 0 && reviewer.fixes !== "none") {
    if (await trackedChanged(ctx.git)) outcome.editedItself = true;
    const files = readFixFiles(
      ctx.io.tree,
      fixes.flatMap((fix) => fix.edits.map((edit) => edit.path)),
      limits.maxFileBytes,
    );
    const applied = applyFixes(fixes, files, limits);
    writeFixFiles(ctx.io.tree, applied.files);
    for (const line of applied.warnings) ctx.warn(line);
    outcome.comments.push(...applied.comments);
    outcome.fixed = applied.applied.map((fix) => ({ rule: fix.rule, path: fix.edits[0]?.path ?? fix.path }));
  }
  outcome.comments = onSnapshot(outcome.comments);
  const offered = fixes.length + (fixesOverLimit ?? 0);
  if (offered > outcome.fixed.length) outcome.offered = offered;
  if (patch && reviewer.fixes !== "none") {
    const patchFile = join(ctx.io.dir, `patch-${index}.diff`);
    writeFileSync(patchFile, patch.text, { mode: 0o444 });
    const problem = await applyPatch(ctx.git, patchFile);
    if (problem) outcome.comments.push({ severity: "warning", message: m.patchNotApplied(problem) });
    else outcome.patched = patch.files;
  }
  const summary = await readSummary(ctx.io);
  if (summary) outcome.summary = summary;
  return outcome;
}
