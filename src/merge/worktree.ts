// Merging the proposals of a work-tree snapshot: a 3-way merge per file into the work tree, decided
// in full before anything is written; the undo point and the journal (every file's bytes before and
// after) recorded first, then each file replaced by rename. The index is never touched.
import { lstat, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { debug } from "../debug.js";
import { InterruptedError, ReviewRemoteError } from "../errors.js";
import { commitTree, readHead } from "../git/commits.js";
import { SYNTHETIC_IDENTITY } from "../git/identity.js";
import { nullOid, privateObjectEnv } from "../git/objects.js";
import type { GitOptions } from "../git/run.js";
import { checkoutIndexTo, type IndexEntry, readTree, updateIndex, writeTree } from "../git/trees.js";
import { messages } from "../messages.js";
import { currentOwner } from "../os/process.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree } from "../repo.js";
import { finishJournal, type JournalFile, type MergeJournal, writePendingJournal } from "../store/journal.js";
import type { StorePaths } from "../store/layout.js";
import type { ReviewRecord } from "../store/records.js";
import { quoteForDisplay } from "../validate/sanitize.js";
import { type MergeHooks, MergeKind, type MergeOutcome } from "./outcome.js";
import { abortCommand, recordUndo } from "./undo.js";
import { applyJournal } from "./worktree-apply.js";
import { hashFiles, type MergedStep, planWorktreeMerge, type Step } from "./worktree-plan.js";

/** An index entry for `path`; without an oid, mode 0 and the null oid remove the path. */
function indexEntry(path: string, mode: string, oid: string | null | undefined, none: string): IndexEntry {
  return oid ? { mode, oid, path } : { mode: "0", oid: none, path };
}

/**
 * The undo point: commit "after" (HEAD with the changed paths as the merge leaves them) and on top
 * of it "before" (the same paths as they are now), through a private index. `git diff-tree -p
 * <before>` is then exactly the patch that takes the changed files back, and nothing else.
 */
async function recordWorktreeUndo(
  run: GitOptions,
  none: string,
  scratchDir: string,
  record: ReviewRecord,
  steps: readonly Step[],
  head: string | undefined,
): Promise<string> {
  const index = {
    ...run,
    env: { ...run.env, GIT_INDEX_FILE: join(scratchDir, "undo-index"), ...SYNTHETIC_IDENTITY },
  };
  await readTree(index, head);
  const commit = async (entries: IndexEntry[], parent: string | undefined, message: string) => {
    await updateIndex(index, entries);
    return commitTree(index, await writeTree(index), parent ? [parent] : [], message);
  };
  const after = await commit(
    steps.map(({ change, after }) => indexEntry(change.path, change.newMode, after, none)),
    head,
    `review-remote: review ${record.id} applied to the work tree`,
  );
  const before = await commit(
    steps.map(({ change, before }) => indexEntry(change.path, change.oldMode, before, none)),
    after,
    `review-remote: the work tree before merging review ${record.id}`,
  );
  await recordUndo(run, record, before);
  return before;
}

/**
 * Store the merge results and check that no file changed since it was read, this time in the
 * repository's own objects (the undo point needs them). Returns every step with its final oid.
 */
async function storeSteps(run: GitOptions, planned: readonly (Step | MergedStep)[]): Promise<Step[]> {
  const existing = planned.filter((step) => step.before !== undefined);
  const now = await hashFiles(
    run,
    existing.map((step) => step.change.path),
    true,
  );
  const changed = existing.find((step, i) => now[i] !== step.before);
  if (changed)
    throw new ReviewRemoteError(messages.changedDuringMerge(quoteForDisplay(changed.change.path)), {
      hints: [messages.hintMergeAgain],
    });
  const merged = planned.filter((step): step is MergedStep => "merged" in step);
  const oids = await hashFiles(
    run,
    merged.map((step) => step.merged),
    false,
  );
  return planned.map((step) =>
    "merged" in step
      ? { change: step.change, before: step.before, after: oids[merged.indexOf(step)] as string }
      : step,
  );
}

/** The exact bytes the work tree holds now, or will hold: blobs, and their permission bits. */
async function journalFiles(
  run: GitOptions,
  scratchDir: string,
  steps: readonly Step[],
  undo: string,
): Promise<JournalFile[]> {
  const existing = steps.filter((step) => step.before !== undefined).map((step) => step.change.path);
  const beforeOids = await hashFiles(run, existing, false);
  const perms = await Promise.all(
    existing.map(async (path) => (await lstat(join(run.cwd, path))).mode & 0o7777),
  );
  // The new contents as a checkout would write them (smudge filters, eol), stored as they are: the
  // undo point's parent holds them, checked out from a private index into the scratch dir.
  const written = steps.filter((step) => step.after !== null).map((step) => step.change.path);
  const index = { ...run, env: { ...run.env, GIT_INDEX_FILE: join(scratchDir, "after-index") } };
  const prefix = join(scratchDir, "after/");
  await readTree(index, `${undo}^`);
  await checkoutIndexTo(index, prefix, written);
  const afterOids = await hashFiles(
    run,
    written.map((path) => join(prefix, path)),
    false,
  );
  const before = new Map(
    existing.map((path, i) => [path, { oid: beforeOids[i] as string, perm: perms[i] as number }]),
  );
  const after = new Map(written.map((path, i) => [path, afterOids[i] as string]));
  return steps.map(({ change }) => {
    const was = before.get(change.path) ?? null;
    const oid = after.get(change.path);
    const perm = was?.perm ?? (change.newMode === "100755" ? 0o755 : 0o644);
    return { path: change.path, before: was, after: oid === undefined ? null : { oid, perm } };
  });
}

/** The directories a new file needs that are not there yet: the undo removes them again. */
async function missingDirs(top: string, steps: readonly Step[]): Promise<string[]> {
  /** Each directory looked at once: whether it is missing. */
  const missing = new Map<string, boolean>();
  for (const step of steps) {
    if (step.before !== undefined) continue;
    const parts = step.change.path.split("/").slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const dir = parts.slice(0, depth).join("/");
      if (missing.has(dir)) continue;
      const absent = await lstat(join(top, dir)).then(
        () => false,
        () => true,
      );
      missing.set(dir, absent);
    }
  }
  return [...missing].filter(([, absent]) => absent).map(([dir]) => dir);
}

/**
 * A work-tree snapshot has no commit to merge into: each changed file is merged into the work tree
 * in memory (base: the snapshot, theirs: the tip), the index is never touched, and either every
 * file is written or, on any conflict, none.
 */
export async function mergeWorktreeSnapshot(
  repo: Repo,
  store: StorePaths,
  record: ReviewRecord,
  tip: string,
  hooks: MergeHooks,
): Promise<MergeOutcome> {
  const run = { cwd: requireWorkTree(repo), env: repo.env };
  const head = await readHead(run);
  const dir = await createTempDir(MERGE_PREFIX);
  try {
    const objects = join(dir, "objects");
    await mkdir(objects);
    const scratchEnv = privateObjectEnv(run.env, { objects, alternates: [join(repo.commonDir, "objects")] });
    const planned = await planWorktreeMerge(repo, record, tip, { dir, run: { ...run, env: scratchEnv } });
    if (planned.length === 0) {
      return {
        kind: MergeKind.alreadyApplied,
        reviewId: record.id,
        previous: head ?? record.snapshot.commit,
      };
    }
    debug(`merge: planned ${planned.length} files`);
    const steps = await storeSteps(run, planned);
    const undo = await recordWorktreeUndo(run, nullOid(repo.objectFormat), dir, record, steps, head);
    const journal: MergeJournal = {
      version: 1,
      review: record.id,
      action: "merge",
      top: run.cwd,
      undo,
      owner: currentOwner(),
      startedAt: new Date().toISOString(),
      dirs: await missingDirs(run.cwd, steps),
      files: await journalFiles(run, dir, steps, undo),
    };
    debug("merge: undo point and journal ready");
    if (hooks.guard.received) throw new InterruptedError(messages.interruptedNothingChanged);
    await writePendingJournal(store, journal);
    hooks.onUndo(abortCommand(record.id));
    await hooks.guard.wrote();
    await applyJournal(run, journal, "after", hooks.guard);
    debug("merge: every file written");
    await finishJournal(store, journal);
    return { kind: MergeKind.applied, reviewId: record.id, previous: undo, undo: abortCommand(record.id) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
