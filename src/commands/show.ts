// `git review-remote show <id>`: summary, comments and each proposal's stat; or JSON / SARIF.
import { UsageError } from "../errors.js";
import { git } from "../git/run.js";
import { type Result, ResultSchema } from "../protocol/result.js";
import { resolveRepo } from "../repo.js";
import { formatComment } from "../report/comment.js";
import type { Output } from "../report/output.js";
import { toSarif } from "../report/sarif.js";
import { storePaths } from "../store/layout.js";
import { findRecord, readReviewFile } from "../store/records.js";

/** A stored result; one that no longer parses (edited by hand) is shown as missing, not as a crash. */
function parseStored(text: string): Result | undefined {
  try {
    const parsed = ResultSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function runShow(
  args: { id: string; format?: string; json: boolean },
  output: Output,
): Promise<void> {
  const format = args.json ? "json" : (args.format ?? "text");
  if (!["text", "json", "sarif"].includes(format)) {
    throw new UsageError(`--format must be text, json or sarif, not '${format}'`);
  }
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  const text = await readReviewFile(store, record.id, "result.json");
  const result = text === undefined ? undefined : parseStored(text);
  if (format === "json") {
    output.raw(`${JSON.stringify({ review: record, result: result ?? null }, null, 2)}\n`);
    return;
  }
  if (format === "sarif") {
    output.raw(`${JSON.stringify(toSarif(result?.comments ?? [], record.worker.name), null, 2)}\n`);
    return;
  }
  output.out(`review ${record.id} (${record.state}) by ${record.worker.name}`);
  output.out(`snapshot ${record.snapshot.kind} ${record.snapshot.commit}`);
  if (record.range) output.out(`range    ${record.range.base}..${record.range.head}`);
  if (record.branch) output.out(`branch   ${record.branch}`);
  for (const problem of record.problems ?? []) output.out(`problem  ${problem}`);
  if (result?.summary) output.out(`\n${result.summary}`);
  if (result && result.comments.length > 0) {
    output.out("\nComments:");
    for (const comment of result.comments) output.out(`  ${formatComment(comment)}`);
  }
  if (record.tip && record.state !== "dropped") {
    const log = await git(
      [
        "log",
        "--reverse",
        "--stat",
        "--no-color",
        "--format=%nproposal %h %s",
        `${record.snapshot.commit}..${record.tip}`,
      ],
      { cwd: repo.cwd, env: repo.env, allowFailure: true },
    );
    if (log.exitCode === 0) output.out(log.stdout.trimEnd());
  }
}
