// External reviewers in order (design §8): each runs on the tree the one before left, and what it
// changed (its own edits, and the fixes or diff of its report) becomes one commit named after it; a
// reviewer that fails is undone and reported, and the others' work still returns. The summary says
// what ran: command, version, exit code, duration, counts.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReviewComment } from "../protocol/result.js";
import { plural } from "../report/plural.js";
import { type Deadline, DeadlineError } from "./deadline.js";
import { workerMessages as m } from "./messages.js";
import { commandLabel, withVersion } from "./reviewer-label.js";
import type { ReviewerCommand } from "./reviewer-specs.js";
import { resetIoFiles, runStep, type StepContext, type StepOutcome } from "./reviewer-step.js";
import { readReviewerHead } from "./run-reviewer.js";
import { commitStaged, resetTree, stageAll } from "./tree-git.js";

export interface Ran {
  label: string;
  command: string;
  format: string;
  version?: string | undefined;
  seconds: number;
  exitCode?: number | undefined;
  /** Every comment it made, those over the request's limit too. */
  comments: number;
  fixes: number;
  /** Fixes its report held, when more than were applied. */
  offered?: number | undefined;
  /** Files its commit changed. */
  files: number;
  error?: string | undefined;
  summary?: string | undefined;
}

export interface CommandsOutcome {
  head: string;
  comments: ReviewComment[];
  /** Comments over the request's limit the reviewers' reports left out. */
  overLimit: number;
  ran: Ran[];
}

const MAX_NAMES = 3;

function unique(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== undefined && value !== ""))];
}

function list(names: readonly string[]): string {
  return names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES).join(", ")}, ...` : names.join(", ");
}

/**
 * `eslint: 3 fixes (eqeqeq, prefer-const)`, or `prettier --write: 1 file changed (src/a.js)`; the
 * body names each file, with its own fixes (`src/a.js: 2 fixes (eqeqeq)`) when the tool's report
 * gave them, so that the client, which may keep only some files of the commit (a focused review),
 * can say what those files' fixes are. A tool that edited files itself besides its report's fixes
 * (ruff under `fix = true`) is named after the files it changed, each with its report's fixes.
 */
function commitMessage(label: string, outcome: StepOutcome, files: readonly string[]): string {
  // A tool that also edited files itself made more than its fixes: the commit is named by its files.
  const subject =
    outcome.fixed.length > 0 && !outcome.editedItself
      ? m.fixesMessage(label, outcome.fixed.length, list(unique(outcome.fixed.map((fix) => fix.rule))))
      : m.changesMessage(label, files.length, list(files));
  const byFile = new Map<string, (string | undefined)[]>();
  for (const { rule, path } of outcome.fixed) {
    if (path !== undefined) byFile.set(path, [...(byFile.get(path) ?? []), rule]);
  }
  const line = (file: string) => {
    const rules = byFile.get(file);
    return rules ? m.fileFixesLine(file, rules.length, list(unique(rules))) : file;
  };
  const body =
    files.length > MAX_NAMES || outcome.fixed.length > 0 ? `\n\n${files.map(line).join("\n")}` : "";
  return `${subject}${body}\n`;
}

async function step(
  deadline: Deadline,
  ctx: StepContext,
  reviewer: ReviewerCommand,
  index: number,
  start: string,
  last: boolean,
): Promise<{ outcome: StepOutcome; ran: Ran; head: string }> {
  const label = commandLabel(reviewer.command);
  resetIoFiles(ctx.io, ctx.sandbox.user);
  const started = performance.now();
  let finished = started;
  const run = async (): Promise<StepOutcome> => {
    try {
      return await deadline.run(`running ${label}`, () => runStep(ctx, reviewer, index));
    } catch (error) {
      if (deadline.expired) throw error;
      return { comments: [], fixed: [], patched: [], error: (error as Error).message };
    } finally {
      finished = performance.now();
    }
  };
  const { version, value: outcome } = await withVersion(
    reviewer.command,
    ctx.sandbox,
    ctx.io,
    ctx.grants,
    deadline,
    run,
  );
  const seconds = (finished - started) / 1000;
  const ran: Ran = {
    label,
    command: reviewer.command,
    // `--reviewer-fixes none` said where the count of fixes (`0 of 5 fixes applied`) is read.
    format: reviewer.fixes === "none" ? `${reviewer.format}, fixes none` : reviewer.format,
    version,
    seconds,
    exitCode: outcome.exitCode,
    comments: outcome.comments.length + (outcome.overLimit ?? 0),
    fixes: outcome.fixed.length,
    offered: outcome.offered,
    files: 0,
    error: outcome.error,
    summary: outcome.summary,
  };
  if (!outcome.error) {
    try {
      const head = await deadline.run("collecting the reviewer's changes", async () => {
        const files = await stageAll(ctx.git);
        if (files.length > 0) {
          const messageFile = join(ctx.io.dir, `message-${index}.txt`);
          writeFileSync(messageFile, commitMessage(label, outcome, files), { mode: 0o444 });
          await commitStaged(ctx.git, messageFile);
          ran.files = files.length;
        }
        return readReviewerHead(ctx.sandbox, ctx.io, deadline.remainingMs());
      });
      return { outcome, ran, head };
    } catch (error) {
      // A repository the reviewer broke (a stale index.lock, no HEAD) fails that reviewer alone.
      if (error instanceof DeadlineError) throw error;
      outcome.error = (error as Error).message;
      ran.error = outcome.error;
      ran.files = 0;
    }
  }
  // Its edits go; the next reviewer starts from where this one did (collecting ignores leftovers).
  if (!last) await deadline.run(`undoing ${label}'s changes`, () => resetTree(ctx.git, start));
  return { outcome, ran, head: start };
}

/** Runs the reviewers in order from `baseline`; the head the last one left. */
export async function runCommandReviewers(
  ctx: StepContext,
  reviewers: readonly ReviewerCommand[],
  baseline: string,
  deadline: Deadline,
): Promise<CommandsOutcome> {
  const comments: ReviewComment[] = [];
  const ran: Ran[] = [];
  let head = baseline;
  let overLimit = 0;
  for (const [index, reviewer] of reviewers.entries()) {
    const done = await step(deadline, ctx, reviewer, index, head, index === reviewers.length - 1);
    head = done.head;
    comments.push(...done.outcome.comments);
    overLimit += done.outcome.overLimit ?? 0;
    ran.push(done.ran);
    if (done.ran.error && reviewers.length > 1) {
      const message = m.reviewerFailed(done.ran.label, done.ran.error);
      ctx.warn(message);
      comments.push({ severity: "error", message, rule: "worker/reviewer-failed" });
    }
  }
  return { head, comments, overLimit, ran };
}

/** `2 fixes applied`, or `1000 of 3600 fixes applied` when the report held more than were applied. */
function fixesApplied(ran: Ran): string {
  const of = ran.offered !== undefined && ran.offered > ran.fixes ? ran.offered : undefined;
  const count = of ?? ran.fixes;
  const word = count === 1 ? "fix" : "fixes";
  return of === undefined ? `${ran.fixes} ${word} applied` : `${ran.fixes} of ${of} ${word} applied`;
}

function describe(ran: Ran): string {
  const name = ran.version ? `${ran.label} ${ran.version}` : ran.label;
  const exit = ran.exitCode === undefined ? "" : `, exit ${ran.exitCode}`;
  const timing = `${ran.seconds.toFixed(1)} s`;
  // A comments or diff reviewer's report holds no fixes: a count of them would always be 0.
  const fixes = ran.format === "comments" || ran.format === "diff" ? "" : `${fixesApplied(ran)}, `;
  const what = ran.error
    ? `failed: ${ran.error}`
    : `${plural(ran.comments, "comment")}, ${fixes}${plural(ran.files, "file")} changed`;
  return `- ${name} (\`${ran.command}\`, ${ran.format}${exit}, ${timing}): ${what}`;
}

/**
 * The summary's account of what ran, and what the reviewers said in $REVIEW_REMOTE_SUMMARY. Its first
 * line, the one a review shows, names them: `Ran eslint, prettier --write (failed).`
 */
export function describeRan(ran: readonly Ran[]): string {
  const names = ran.map((one) => (one.error ? `${one.label} (failed)` : one.label));
  const lines = [`Ran ${names.join(", ")}.`, ...ran.map(describe)];
  for (const one of ran) if (one.summary) lines.push("", `${one.label}: ${one.summary}`);
  return lines.join("\n");
}
