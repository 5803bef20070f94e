// `git review-remote hook pre-push <remote> <url>`: refuse to publish review branches, then review
// each pushed range; warn or block as review-remote.prePush says; quiet and fast when cached.
import { readSettings } from "../config/settings.js";
import {
  InterruptedError,
  PushBlockedError,
  type ReviewRemoteError,
  UsageError,
  WorkerError,
} from "../errors.js";
import { readQuotePath } from "../git/quote.js";
import {
  isReviewBranchPush,
  type PushPlan,
  PushSkip,
  parsePushUpdates,
  planPush,
} from "../hooks/pre-push.js";
import { pushVerdict, reviewPush, type TargetReview } from "../hooks/review-push.js";
import { messages } from "../messages.js";
import { resolveRepo } from "../repo.js";
import { printPushBlocked, printPushRefs, printReviewBranchesRefused } from "../report/hook.js";
import type { Output } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export async function runHook(
  args: { name: string | undefined; remote: string | undefined; stdin: NodeJS.ReadableStream },
  output: Output,
): Promise<readonly ReviewRemoteError[]> {
  if (args.name === undefined)
    throw new UsageError(messages.hookNeedsName, { hints: [messages.hintHookNeedsName] });
  if (args.name !== "pre-push") {
    throw new UsageError(messages.unknownHook(args.name), { hints: [messages.hintHelp] });
  }
  if (process.env.REVIEW_REMOTE_SKIP === "1") return [];
  const repo = await resolveRepo();
  const settings = await readSettings(repo);
  // Run by hand on a terminal, it would wait without a word for what git push writes to it.
  if ((args.stdin as NodeJS.ReadStream).isTTY)
    output.err(`git-review-remote: ${messages.hookWaitingOnTerminal}`);
  const updates = parsePushUpdates(await readStdin(args.stdin));
  // Whatever prePush says: review branches never leave (design §11).
  if (updates.some((update) => isReviewBranchPush(update, settings.branchPrefix))) {
    const plans = updates.map((update): PushPlan => {
      const refused = isReviewBranchPush(update, settings.branchPrefix);
      return refused ? { update, skip: PushSkip.reviewBranch } : { update };
    });
    printReviewBranchesRefused(plans, args.remote ?? "origin", output);
    return [new PushBlockedError(messages.pushRefusedReviewBranches)];
  }
  if (settings.prePush === "off") return [];
  printRecovered(await recoverStore(storePaths(repo)), output, repo.top);
  if (repo.top === undefined) {
    printPushRefs(
      updates.map((update) => ({ update, skip: PushSkip.bare })),
      new Map(),
      { stop: { timeoutSeconds: settings.prePushTimeoutSeconds }, quotePath: true },
      output,
    );
    return [];
  }
  const plans = await planPush(repo, args.remote ?? "origin", updates);
  const targets = [...new Set(plans.flatMap((plan) => (plan.target === undefined ? [] : [plan.target])))];
  const controller = new AbortController();
  // The time limit's reason is what the records of the reviews it stops say (`list`, `show`).
  const timeLimit = new WorkerError(messages.pushReviewTimedOut(settings.prePushTimeoutSeconds));
  const timer = setTimeout(() => controller.abort(timeLimit), settings.prePushTimeoutSeconds * 1000);
  // Ctrl-C reaches the hook twice, from the terminal and from the git push that runs it: every one
  // is handled, or the second would kill the hook while it stops its worker and marks the review.
  let interrupted = false;
  process.on("SIGINT", () => {
    interrupted = true;
    controller.abort();
  });
  const events = {
    progress: () => undefined,
    remoteLine: () => false,
    warning: (text: string, hints: readonly string[] = []) => {
      output.err(`warning: ${text}`);
      for (const hint of hints) output.err(`hint: ${hint}`);
    },
  };
  const reviews = await reviewPush(repo, settings, targets, controller.signal, events).finally(() =>
    clearTimeout(timer),
  );
  const byTarget = new Map<string, TargetReview>(reviews.map((review) => [review.target, review]));
  const quotePath = await readQuotePath({ cwd: repo.cwd, env: repo.env });
  printPushRefs(
    plans,
    byTarget,
    { stop: interrupted ? "interrupted" : { timeoutSeconds: settings.prePushTimeoutSeconds }, quotePath },
    output,
  );
  // An interrupted push does not go on half reviewed, whatever prePush and failClosed say.
  if (interrupted) return [new InterruptedError(messages.pushInterrupted)];
  // A ref git knows no base for here was reviewed whole: its comments may be about any file.
  if (plans.some((plan) => !plan.skip && plan.target !== undefined && !plan.target.includes(".."))) {
    output.hint(messages.hintPushWholeTree(args.remote ?? "origin"));
  }
  if (reviews.some((review) => review.timedOut)) output.hint(messages.hintPushMoreTime);
  const { blocked, errors } = pushVerdict(reviews, settings);
  if (blocked === undefined) return [];
  printPushBlocked(blocked, errors, output);
  return [new PushBlockedError(messages.pushBlocked)];
}
