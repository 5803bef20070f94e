// Comments as a git note (refs/notes/review-remote) on the snapshot commit: `git log
// --notes=review-remote` shows them beside the code they are about.
import { setTimeout as sleep } from "node:timers/promises";
import { ownIdentityEnv, TOOL_AUTHOR, TOOL_COMMITTER } from "../git/identity.js";
import { readQuotePath } from "../git/quote.js";
import { git } from "../git/run.js";
import type { ReviewComment } from "../protocol/result.js";
import type { Repo } from "../repo.js";
import { formatComment } from "../report/comment.js";
import type { ReviewRecord } from "./records.js";

const NOTES_REF = "refs/notes/review-remote";

export async function writeNote(
  repo: Repo,
  commit: string,
  record: ReviewRecord,
  comments: readonly ReviewComment[],
): Promise<void> {
  if (comments.length === 0) return;
  // Paths as `git log --notes` prints the commit's own, under the repository's core.quotePath.
  const quotePath = await readQuotePath({ cwd: repo.cwd, env: repo.env });
  const text = [
    `review ${record.id} by ${record.worker.name}:`,
    ...comments.map((comment) => formatComment(comment, quotePath)),
  ].join("\n");
  const env = ownIdentityEnv(repo.env, { ...TOOL_AUTHOR, ...TOOL_COMMITTER });
  // Two reviews finishing together race for the notes ref: the loser retries.
  for (let attempt = 0; attempt < 5; attempt++) {
    const added = await git(["notes", `--ref=${NOTES_REF}`, "append", "-F", "-", commit], {
      cwd: repo.cwd,
      env,
      input: text,
      allowFailure: true,
    });
    if (added.exitCode === 0) return;
    await sleep(50 + Math.random() * 100);
  }
}
