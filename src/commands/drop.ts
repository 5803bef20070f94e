// `git review-remote drop <id>`: delete the review branch and refs; the store keeps the record.
import { ReviewRemoteError } from "../errors.js";
import { git } from "../git/run.js";
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { findRecord, ReviewState, writeRecord } from "../store/records.js";

export async function runDrop(args: { id: string }, output: Output): Promise<number> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  const run = { cwd: repo.cwd, env: repo.env };
  // Ref names cannot hold a newline (git-check-ref-format(1)): one per line.
  const listed = await git(["for-each-ref", "--format=%(refname)", `refs/review-remote/${record.id}/`], run);
  const refs = listed.stdout.split("\n").filter(Boolean);
  const lines: string[] = [];
  if (record.branch) {
    const current = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${record.branch}`], {
      ...run,
      allowFailure: true,
    });
    // Delete only the branch as we made it: if someone committed on it, that work is theirs.
    if (current.exitCode === 0)
      lines.push(`delete refs/heads/${record.branch} ${record.tip ?? current.stdout.trim()}\n`);
  }
  for (const ref of refs) lines.push(`delete ${ref}\n`);
  if (lines.length > 0) {
    const deleted = await git(["update-ref", "--stdin"], {
      ...run,
      input: `start\n${lines.join("")}prepare\ncommit\n`,
      allowFailure: true,
    });
    if (deleted.exitCode !== 0) {
      throw new ReviewRemoteError(
        `cannot drop review ${record.id}: ${deleted.stderr.trim().split("\n")[0]}`,
        {
          hints: [
            `the branch ${record.branch} has moved since the review; delete it yourself with: git branch -D ${record.branch}`,
          ],
        },
      );
    }
  }
  await writeRecord(store, { ...record, state: ReviewState.dropped });
  output.out(
    record.branch
      ? `Dropped review ${record.id}: deleted branch ${record.branch}.`
      : `Dropped review ${record.id}.`,
  );
  if (record.tip)
    output.err(
      `hint: the commits stay reachable until git gc; to restore: git branch ${record.branch} ${record.tip}`,
    );
  return 0;
}
