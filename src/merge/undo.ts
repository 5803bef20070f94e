// The undo point of a merge, `refs/review-remote/<id>/pre-merge`, recorded before anything moves;
// and for a work-tree merge, `merge --abort` and `merge --continue`: its journal walked back to
// every file's "before", or on to its "after", from wherever a run stopped.
import { ReviewRemoteError } from "../errors.js";
import type { GitRun } from "../git/commits.js";
import { updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import { currentOwner } from "../os/process.js";
import { gitIn } from "../os/shell.js";
import type { Repo } from "../repo.js";
import {
  discardJournal,
  finishJournal,
  type MergeJournal,
  readDoneJournal,
  readPendingJournal,
  writePendingJournal,
} from "../store/journal.js";
import type { StorePaths } from "../store/layout.js";
import type { ReviewRecord } from "../store/records.js";
import { type MergeHooks, MergeKind, type MergeOutcome } from "./outcome.js";
import { applyJournal, verifyJournalFiles } from "./worktree-apply.js";

export async function recordUndo(run: GitRun, record: ReviewRecord, oid: string): Promise<string> {
  const ref = `refs/review-remote/${record.id}/pre-merge`;
  const done = await updateRefs(run, [{ op: "update", ref, oid }], "review-remote: before merge");
  if (!done.ok) throw new ReviewRemoteError(messages.undoNotRecorded(ref, done.reason));
  return ref;
}

/** A merge that changed nothing leaves no undo point behind (unless the ref moved since). */
export async function forgetUndo(run: GitRun, record: ReviewRecord, oid: string): Promise<void> {
  await updateRefs(run, [{ op: "delete", ref: `refs/review-remote/${record.id}/pre-merge`, oldOid: oid }]);
}

export function abortCommand(id: string): string {
  return `git review-remote merge --abort ${id}`;
}

/** An interrupted merge (or undo) waits for the user: nothing else may write that work tree first. */
/** `here`: the work tree the command runs in (none in a bare repository); the hints run in the merge's. */
export function pendingMergeError(journal: MergeJournal, here: string | undefined): ReviewRemoteError {
  const git = gitIn(journal.top, here);
  const hints = [messages.hintMergeAbort(journal.review, git)];
  if (journal.action === "merge") hints.push(messages.hintMergeContinue(journal.review, git));
  return new ReviewRemoteError(messages.mergePending(journal.review, journal.top, journal.action), { hints });
}

/**
 * The journal is rewritten first, naming this run (a stop from here on is noticed as this action),
 * then every file is walked to its "before" (abort) or its "after" (merge).
 */
async function walkJournal(
  repo: Repo,
  store: StorePaths,
  journal: MergeJournal,
  action: MergeJournal["action"],
  hooks: MergeHooks,
): Promise<{ journal: MergeJournal; run: GitRun }> {
  const mine: MergeJournal = { ...journal, action, owner: currentOwner() };
  const run = { cwd: mine.top, env: repo.env };
  const side = action === "abort" ? "before" : "after";
  await verifyJournalFiles(run, mine, side);
  await writePendingJournal(store, mine);
  await hooks.guard.wrote();
  await applyJournal(run, mine, side, hooks.guard);
  return { journal: mine, run };
}

/** A step of a merge that stopped: the review's journal walked one way or the other. */
type JournalStep = (
  repo: Repo,
  store: StorePaths,
  record: ReviewRecord,
  hooks: MergeHooks,
) => Promise<MergeOutcome>;

/** `merge --abort <id>`: every file the merge wrote back to its exact bytes before the merge. */
export const abortMerge: JournalStep = async (repo, store, record, hooks) => {
  const pending = await readPendingJournal(store);
  if (pending && pending.review !== record.id) throw pendingMergeError(pending, repo.top);
  const found = pending ?? (await readDoneJournal(store, record.id));
  if (found === undefined) {
    const hints =
      record.mergedFrom && record.snapshot.kind === "commit"
        ? [messages.hintUndoCommitMerge(record.mergedFrom)]
        : [];
    throw new ReviewRemoteError(messages.noMergeToUndo(record.id), { hints });
  }
  const { journal, run } = await walkJournal(repo, store, found, "abort", hooks);
  await forgetUndo(run, record, journal.undo);
  await discardJournal(store, record.id);
  return { kind: MergeKind.undone, reviewId: record.id, previous: journal.undo };
};

/** `merge --continue <id>`: an interrupted merge written to the end. */
export const continueMerge: JournalStep = async (repo, store, record, hooks) => {
  const pending = await readPendingJournal(store);
  if (pending === undefined) throw new ReviewRemoteError(messages.noMergeToContinue(record.id));
  if (pending.review !== record.id || pending.action === "abort") throw pendingMergeError(pending, repo.top);
  const { journal } = await walkJournal(repo, store, pending, "merge", hooks);
  await finishJournal(store, journal);
  const undo = abortCommand(record.id);
  return { kind: MergeKind.finished, reviewId: record.id, previous: journal.undo, undo };
};
