// `git review-remote merge <id>`: bring the proposals into the current branch (or, for a work-tree
// snapshot, into the work tree). The previous state is recorded first, and the undo command printed.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { MergeConflictError, ReviewRemoteError } from "../errors.js";
import { type GitOptions, git } from "../git/run.js";
import { mergeWorktreeSnapshot, recordUndo } from "../merge/worktree.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree, resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { storePaths } from "../store/layout.js";
import { findRecord, type ReviewRecord, ReviewState, writeRecord } from "../store/records.js";

async function isAncestor(run: GitOptions, ancestor: string, descendant: string): Promise<boolean> {
  const result = await git(["merge-base", "--is-ancestor", ancestor, descendant], {
    ...run,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/** Refuse a dirty work tree: a merge must never mix the proposals with uncommitted work. */
async function verifyCleanWorkTree(run: GitOptions): Promise<void> {
  const status = await git(["--no-optional-locks", "status", "--porcelain=v1", "--untracked-files=no"], run);
  if (status.stdout.trim() !== "") {
    throw new ReviewRemoteError("your work tree has uncommitted changes; the merge would mix them in", {
      hints: ["commit or stash them first (git stash), then run the merge again"],
    });
  }
}

async function mergeCommitSnapshot(
  repo: Repo,
  record: ReviewRecord,
  tip: string,
  output: Output,
): Promise<string> {
  const run = { cwd: requireWorkTree(repo), env: repo.env };
  await verifyCleanWorkTree(run);
  const head = (await git(["rev-parse", "--verify", "HEAD"], run)).stdout.trim();
  if (await isAncestor(run, tip, head)) {
    output.out(`Review ${record.id} is already merged into HEAD.`);
    return head;
  }
  // Preview without touching anything (git >= 2.38): exit 1 means conflicts. merge-tree writes the
  // merged trees and conflicted blobs, so it writes them to a throwaway object directory.
  const scratch = await createTempDir(MERGE_PREFIX);
  const preview = await git(["merge-tree", "--write-tree", "--name-only", "--no-messages", head, tip], {
    ...run,
    env: {
      ...run.env,
      GIT_OBJECT_DIRECTORY: scratch,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(repo.commonDir, "objects"),
    },
    allowFailure: true,
  }).finally(() => rm(scratch, { recursive: true, force: true }));
  if (preview.exitCode === 1) {
    const files = preview.stdout.split("\n").slice(1).filter(Boolean);
    throw new MergeConflictError(
      `the proposals of review ${record.id} conflict with HEAD; nothing was changed`,
      {
        details: files.map((file) => `conflict: ${file}`),
        hints: [
          `inspect them with: git diff HEAD...${record.branch}`,
          `or merge by hand: git merge ${record.branch}`,
        ],
      },
    );
  }
  if (preview.exitCode !== 0) throw new ReviewRemoteError(`git merge-tree failed: ${preview.stderr.trim()}`);
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
    throw new ReviewRemoteError(`git merge failed: ${merged.stderr.trim().split("\n")[0]}`);
  output.out(`Merged review ${record.id} into HEAD${fastForward ? " (fast-forward)" : ""}.`);
  output.err(`hint: to undo: git reset --keep ${head}`);
  return head;
}

export async function runMerge(args: { id: string }, output: Output): Promise<number> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  if (!record.branch || !record.tip || record.state === ReviewState.dropped) {
    throw new ReviewRemoteError(`review ${record.id} has no proposals to merge (${record.state})`);
  }
  const merge = record.snapshot.kind === "worktree" ? mergeWorktreeSnapshot : mergeCommitSnapshot;
  const previous = await merge(repo, record, record.tip, output);
  await writeRecord(store, { ...record, state: ReviewState.merged, mergedFrom: previous });
  return 0;
}
