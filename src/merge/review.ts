// `merge <id>`, `merge --abort <id>`, `merge --continue <id>` as the store's one writer, with Ctrl-C
// and SIGTERM held until a consistent point; the record says "merged" once the merge is whole.
import { GitError, InterruptedError, ReviewRemoteError } from "../errors.js";
import { findCommit } from "../git/commits.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import { readPendingJournal } from "../store/journal.js";
import type { StorePaths } from "../store/layout.js";
import { withStoreLock } from "../store/lock.js";
import { findRecord, type ReviewRecord, ReviewState, writeRecord } from "../store/records.js";
import { type BranchFate, deleteReviewBranch, restoreReviewBranch } from "./branch.js";
import { mergeCommitSnapshot } from "./commit.js";
import type { MergeHooks, MergeOutcome } from "./outcome.js";
import { holdSignals } from "./signals.js";
import { abortMerge, continueMerge, pendingMergeError } from "./undo.js";
import { mergeWorktreeSnapshot } from "./worktree.js";

export type MergeAction = "merge" | "abort" | "continue";

async function mergeProposals(repo: Repo, store: StorePaths, record: ReviewRecord, hooks: MergeHooks) {
  const pending = await readPendingJournal(store);
  if (pending) throw pendingMergeError(pending, repo.top);
  if (!record.branch || !record.tip)
    throw new ReviewRemoteError(messages.nothingToMerge(record.id, record.state));
  // A dropped review merges once its branch is back where the review left it, as drop's hint
  // (`git branch review/<id> <tip>`) puts it: the way back from a drop made by mistake.
  if (record.state === ReviewState.dropped) {
    const run = { cwd: repo.cwd, env: repo.env };
    if ((await findCommit(run, `refs/heads/${record.branch}`)) !== record.tip) {
      throw new ReviewRemoteError(messages.nothingToMerge(record.id, record.state), {
        hints: [messages.hintRestoreDropped(record.branch, record.tip)],
      });
    }
  }
  return record.snapshot.kind === "worktree"
    ? mergeWorktreeSnapshot(repo, store, record, record.tip, hooks)
    : mergeCommitSnapshot(repo, record, record.tip, hooks);
}

/** What the command reports: the merge, and what became of the review's branch. */
export interface MergedReview {
  outcome: MergeOutcome;
  record: ReviewRecord;
  /** After a merge: the branch deleted (the proposals are in), already gone, or kept. */
  branch?: BranchFate | undefined;
}

async function runAction(
  repo: Repo,
  store: StorePaths,
  record: ReviewRecord,
  action: MergeAction,
  hooks: MergeHooks,
): Promise<MergedReview> {
  const run = { cwd: repo.cwd, env: repo.env };
  if (action === "abort") {
    const outcome = await abortMerge(repo, store, record, hooks);
    const { mergedFrom: _, ...rest } = record;
    await writeRecord(store, { ...rest, state: ReviewState.imported });
    // As if the merge had never been: the review's branch is back.
    await restoreReviewBranch(run, record);
    return { outcome, record };
  }
  const outcome =
    action === "continue"
      ? await continueMerge(repo, store, record, hooks)
      : await mergeProposals(repo, store, record, hooks);
  await writeRecord(store, { ...record, state: ReviewState.merged, mergedFrom: outcome.previous });
  // The proposals are in HEAD (or the work tree) now; the record keeps the tip to restore the branch.
  return { outcome, record, branch: await deleteReviewBranch(run, record) };
}

export async function mergeReview(
  repo: Repo,
  store: StorePaths,
  id: string,
  action: MergeAction,
  onUndo: (undo: string) => void,
): Promise<MergedReview> {
  return withStoreLock(store, action === "merge" ? `merge ${id}` : `merge --${action} ${id}`, async () => {
    const guard = holdSignals();
    try {
      const record = await findRecord(store, id);
      return await runAction(repo, store, record, action, { guard, onUndo });
    } catch (error) {
      // Ctrl-C from a terminal reaches the child gits too: the one that died says so, not why.
      if (guard.received && error instanceof GitError)
        throw new InterruptedError(messages.interruptedNothingChanged, { cause: error });
      throw error;
    } finally {
      guard.dispose();
    }
  });
}
