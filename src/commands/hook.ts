// `git review-remote hook pre-push <remote> <url>`: review each pushed range; warn or block as
// review-remote.prePush says; quiet and fast when the result is cached.
import { readSettings } from "../config/settings.js";
import { PushBlockedError, type ReviewRemoteError, UsageError } from "../errors.js";
import { parsePushUpdates, pushTargets } from "../hooks/pre-push.js";
import { pushVerdict, reviewPush } from "../hooks/review-push.js";
import { messages } from "../messages.js";
import { resolveRepo } from "../repo.js";
import { printPushBlocked, printPushReviews } from "../report/hook.js";
import type { Output } from "../report/output.js";

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export async function runHook(
  args: { name: string | undefined; remote: string | undefined; stdin: NodeJS.ReadableStream },
  output: Output,
): Promise<readonly ReviewRemoteError[]> {
  if (args.name !== "pre-push") throw new UsageError(messages.unknownHook(args.name ?? ""));
  if (process.env.REVIEW_REMOTE_SKIP === "1") return [];
  const repo = await resolveRepo();
  const settings = await readSettings(repo);
  if (settings.prePush === "off") return [];
  const updates = parsePushUpdates(await readStdin(args.stdin));
  const targets = await pushTargets(repo, args.remote ?? "origin", updates);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.prePushTimeoutSeconds * 1000);
  process.once("SIGINT", () => controller.abort());
  const events = {
    progress: () => undefined,
    remoteLine: () => undefined,
    warning: (text: string, hints: readonly string[] = []) => {
      output.err(`warning: ${text}`);
      for (const hint of hints) output.err(`hint: ${hint}`);
    },
  };
  const reviews = await reviewPush(repo, settings, targets, controller.signal, events).finally(() =>
    clearTimeout(timer),
  );
  printPushReviews(reviews, settings.prePushTimeoutSeconds, output);
  const { blocked, errors } = pushVerdict(reviews, settings);
  if (blocked === undefined) return [];
  printPushBlocked(blocked, errors, output);
  return [new PushBlockedError(messages.pushBlocked)];
}
