// `git review-remote hook pre-push <remote> <url>`: review each pushed range; warn or block as
// review-remote.prePush says; quiet and fast when the result is cached.
import { readSettings } from "../config/settings.js";
import { ExitCode, ReviewRemoteError, UsageError } from "../errors.js";
import { parsePushUpdates, pushTargets } from "../hooks/pre-push.js";
import { resolveRepo } from "../repo.js";
import { createOutput, type Output } from "../report/output.js";
import { formatComment } from "../store/notes.js";
import { review } from "./review.js";

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

const SAY = "review-remote:";

export async function runHook(
  args: { name: string | undefined; remote: string | undefined; stdin: NodeJS.ReadableStream },
  output: Output,
): Promise<number> {
  if (args.name !== "pre-push")
    throw new UsageError(`unknown hook '${args.name ?? ""}': only pre-push is supported`);
  if (process.env.REVIEW_REMOTE_SKIP === "1") return 0;
  const repo = await resolveRepo();
  const settings = await readSettings(repo);
  if (settings.prePush === "off") return 0;
  const targets = await pushTargets(
    repo,
    args.remote ?? "origin",
    parsePushUpdates(await readStdin(args.stdin)),
  );
  const block = settings.prePush === "block";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.prePushTimeoutSeconds * 1000);
  process.once("SIGINT", () => controller.abort());
  const quiet = createOutput(process.stdout, process.stderr, { quiet: true });
  let errors = 0;
  let unreviewed = 0;
  try {
    for (const target of targets) {
      if (controller.signal.aborted) {
        unreviewed++;
        output.err(`${SAY} no time left to review ${target.slice(0, 40)} (review-remote.prePushTimeout)`);
        continue;
      }
      try {
        const report = await review(
          {
            target,
            worktree: false,
            workers: [],
            noCache: false,
            json: false,
            pathspecs: [],
            signal: controller.signal,
          },
          quiet,
        );
        for (const outcome of report.outcomes) {
          const cached = report.cached.has(outcome.record.id) ? " (cached)" : "";
          errors += outcome.comments.filter((comment) => comment.severity === "error").length;
          if (outcome.comments.length === 0 && !outcome.record.branch) continue;
          output.err(`${SAY} ${target.slice(0, 40)}: review ${outcome.record.id}${cached}`);
          for (const comment of outcome.comments) output.err(`${SAY}   ${formatComment(comment)}`);
          if (outcome.record.branch) output.err(`${SAY}   proposals on ${outcome.record.branch}`);
        }
        for (const { worker, error } of report.failures) {
          unreviewed++;
          output.err(`${SAY} no review from '${worker.name}': ${error.message}`);
        }
      } catch (error) {
        if (!(error instanceof ReviewRemoteError)) throw error;
        // A refused export (a secret) is an error for block mode, and no review for failClosed.
        if (error.exitCode === ExitCode.exportRefused) errors += 1;
        unreviewed++;
        const why = controller.signal.aborted
          ? `timed out after ${settings.prePushTimeoutSeconds}s`
          : error.message;
        output.err(`${SAY} could not review ${target.slice(0, 40)}: ${why}`);
        for (const line of error.details) output.err(`${SAY}   ${line}`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
  if (block && errors > 0) {
    output.err(`${SAY} push blocked: ${errors} error(s) found (review-remote.prePush=block)`);
    output.err("hint: fix them, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
    return ExitCode.failure;
  }
  if (unreviewed > 0 && settings.failClosed) {
    output.err(`${SAY} push blocked: no review could be obtained (review-remote.failClosed=true)`);
    output.err("hint: check the worker, or push anyway with REVIEW_REMOTE_SKIP=1 git push");
    return ExitCode.failure;
  }
  return 0;
}
