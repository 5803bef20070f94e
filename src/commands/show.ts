// `git review-remote show <id>`: summary, comments in the change (all of them with --all-comments)
// and each proposal's stat; or JSON / SARIF, which carry every comment and say which are outside.
import { readSettings } from "../config/settings.js";
import { UsageError } from "../errors.js";
import { findCommit } from "../git/commits.js";
import { readQuotePath } from "../git/quote.js";
import { git } from "../git/run.js";
import { messages } from "../messages.js";
import { chooseFilterMode, type FilterMode, filterComments } from "../pipeline/filter.js";
import { readChanges } from "../pipeline/focus.js";
import { type Result, StoredResultSchema } from "../protocol/result.js";
import { type Repo, resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printShow, ShowFormat } from "../report/records.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { prunedBundle } from "../store/pruned.js";
import { findRecord, type ReviewRecord, readReviewFile } from "../store/records.js";
import { recoverStore } from "../store/recover.js";

/** A stored result; one that no longer parses (edited by hand) is shown as missing, not as a crash. */
function parseStored(text: string): Result | undefined {
  try {
    const parsed = StoredResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function parseFormat(format: string): ShowFormat {
  if (format === "text" || format === "json" || format === "sarif") return format;
  throw new UsageError(messages.badShowFormat(format), { hints: [messages.hintHelp] });
}

/** Each proposal's subject and stat, oldest first; undefined once dropped or when git cannot tell. */
async function proposalStats(repo: Repo, record: ReviewRecord): Promise<string | undefined> {
  if (!record.tip || record.state === "dropped") return undefined;
  const range = `${record.snapshot.commit}..${record.tip}`;
  const log = await git(["log", "--reverse", "--stat", "--no-color", "--format=%nproposal %h %s", range], {
    cwd: repo.cwd,
    env: repo.env,
    allowFailure: true,
  });
  return log.exitCode === 0 ? log.stdout.trimEnd() : undefined;
}

export async function runShow(
  args: {
    id: string;
    format?: string | undefined;
    json: boolean;
    filterMode: FilterMode | undefined;
    allComments: boolean;
  },
  output: Output,
): Promise<void> {
  // `--json` is `--format=json`: another format beside it is a contradiction, not a choice to guess.
  if (args.json && args.format !== undefined && args.format !== "json") {
    throw new UsageError(messages.jsonWithFormat(args.format), { hints: [messages.hintHelp] });
  }
  const format = parseFormat(args.json ? "json" : (args.format ?? "text"));
  const repo = await resolveRepo();
  const settings = await readSettings(repo);
  const store = storePaths(repo);
  printRecovered(await recoverStore(store), output, repo.top);
  const record = await findRecord(store, args.id);
  const text = await readReviewFile(store, record.id, "result.json");
  const result = text === undefined ? undefined : parseStored(text);
  const proposals = format === ShowFormat.text ? await proposalStats(repo, record) : undefined;
  const changes = record.range ? await readChanges(store, record.id) : undefined;
  // What the review showed: the mode it was asked for (kept in the record), else the config's.
  const mode = chooseFilterMode(args.filterMode, record.filterMode ?? settings.filterMode);
  const comments = filterComments(result?.comments ?? [], changes, mode);
  const bundlePruned = (await prunedBundle(store, record.bundleSha256))?.time;
  const quotePath = format === ShowFormat.text && (await readQuotePath({ cwd: repo.cwd, env: repo.env }));
  const branchGone =
    record.branch !== undefined &&
    (await findCommit({ cwd: repo.cwd, env: repo.env }, `refs/heads/${record.branch}`)) === undefined;
  printShow(
    {
      record,
      result,
      proposals,
      comments,
      allComments: args.allComments,
      quotePath,
      bundlePruned,
      branchGone,
    },
    format,
    output,
  );
}
