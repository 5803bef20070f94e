// Merging the proposals of a commit snapshot into the current branch: a preview with `merge-tree`
// in a throwaway object directory, then a real merge; the undo point is recorded first.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { MergeConflictError, ReviewRemoteError } from "../errors.js";
import { type GitRun, isAncestor, readHead } from "../git/commits.js";
import { OBJECT_ID, privateObjectEnv } from "../git/objects.js";
import { git } from "../git/run.js";
import { messages } from "../messages.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree } from "../repo.js";
import type { ReviewRecord } from "../store/records.js";
import { MergeKind, type MergeOutcome } from "./outcome.js";
import { recordUndo } from "./undo.js";

/** Refuse a dirty work tree: a merge must never mix the proposals with uncommitted work. */
async function verifyCleanWorkTree(run: GitRun): Promise<void> {
  const status = await git(["--no-optional-locks", "status", "--porcelain=v1", "--untracked-files=no"], run);
  if (status.stdout.trim() !== "") {
    throw new ReviewRemoteError(messages.dirtyWorkTree, { hints: [messages.hintStash] });
  }
}

/**
 * Preview without touching anything (git >= 2.38). merge-tree writes the merged trees and
 * conflicted blobs, so it writes them to a throwaway object directory. Its exit 1 means conflicts
 * only when it printed a tree (git-merge-tree(1), "OUTPUT") and, with --no-messages, nothing on
 * stderr: an object it cannot read (a broken environment, a damaged store) also exits 1, with an
 * "error:" line. Anything else is a failure to merge, never a conflict.
 */
async function previewMerge(repo: Repo, run: GitRun, head: string, tip: string): Promise<string[]> {
  const scratch = await createTempDir(MERGE_PREFIX);
  const env = privateObjectEnv(run.env, { objects: scratch, alternates: [join(repo.commonDir, "objects")] });
  const preview = await git(["merge-tree", "--write-tree", "--name-only", "--no-messages", head, tip], {
    ...run,
    env,
    allowFailure: true,
  }).finally(() => rm(scratch, { recursive: true, force: true }));
  const [tree = "", ...files] = preview.stdout.split("\n");
  if (preview.exitCode === 0) return [];
  if (preview.exitCode === 1 && OBJECT_ID.test(tree) && preview.stderr.trim() === "") {
    return files.filter(Boolean);
  }
  const why = preview.stderr.trim().split("\n")[0] || `exit code ${preview.exitCode}`;
  throw new ReviewRemoteError(messages.mergeTreeFailed(why));
}

export async function mergeCommitSnapshot(
  repo: Repo,
  record: ReviewRecord,
  tip: string,
): Promise<MergeOutcome> {
  const run = { cwd: requireWorkTree(repo), env: repo.env };
  await verifyCleanWorkTree(run);
  const head = await readHead(run);
  if (head === undefined) throw new ReviewRemoteError(messages.noHeadToMergeInto);
  if (await isAncestor(run, tip, head)) {
    return { kind: MergeKind.alreadyMerged, reviewId: record.id, previous: head };
  }
  const conflicts = await previewMerge(repo, run, head, tip);
  if (conflicts.length > 0) {
    throw new MergeConflictError(messages.conflictWithHead(record.id), {
      details: conflicts.map((file) => `conflict: ${file}`),
      hints: [messages.hintInspectRange(`HEAD...${record.branch}`), messages.hintMergeByHand(record.branch)],
    });
  }
  await recordUndo(run, record, head);
  const fastForward = await isAncestor(run, head, tip);
  const args = fastForward
    ? ["merge", "--ff-only", "--quiet", tip]
    : [
        "merge",
        "--no-ff",
        "--quiet",
        "--no-edit",
        "-m",
        `Merge review ${record.id} (${record.worker.name})`,
        tip,
      ];
  const merged = await git(args, { ...run, allowFailure: true });
  if (merged.exitCode !== 0)
    throw new ReviewRemoteError(messages.mergeFailed(merged.stderr.trim().split("\n")[0] ?? ""));
  const kind = fastForward ? MergeKind.fastForward : MergeKind.merged;
  return { kind, reviewId: record.id, previous: head, undo: `git reset --keep ${head}` };
}
