// Merging the proposals of a work-tree snapshot: a 3-way merge per file into the work tree, decided
// in full before anything is written, with an undo point recorded first. The index is never touched.
import { mkdir, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { commitTree, readHead } from "../git/commits.js";
import { SYNTHETIC_IDENTITY } from "../git/identity.js";
import { nullOid, privateObjectEnv } from "../git/objects.js";
import { type GitOptions, gitBuffer } from "../git/run.js";
import { type IndexEntry, readTree, updateIndex, writeTree } from "../git/trees.js";
import { messages } from "../messages.js";
import { shellQuote } from "../os/shell.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree } from "../repo.js";
import type { ReviewRecord } from "../store/records.js";
import { quoteForDisplay } from "../validate/sanitize.js";
import { MergeKind, type MergeOutcome } from "./outcome.js";
import { recordUndo } from "./undo.js";
import { hashFiles, type MergedStep, mapInChunks, planWorktreeMerge, type Step } from "./worktree-plan.js";

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

/**
 * Write the new contents, converted for the work tree as a checkout would (smudge filters, eol):
 * all of them are read first, so a failing filter leaves every file as it was. New files are 0644;
 * a rewritten file keeps its mode.
 */
async function writeSteps(run: GitOptions, top: string, steps: readonly Step[]): Promise<void> {
  const contents = await mapInChunks(steps, (step) =>
    step.after === null
      ? null
      : gitBuffer(["cat-file", "--filters", `--path=${step.change.path}`, step.after], run),
  );
  for (const [i, { change, before }] of steps.entries()) {
    const file = join(top, change.path);
    const content = contents[i];
    if (content === null || content === undefined) {
      await rm(file);
      await removeEmptyParents(top, dirname(file));
    } else if (before === undefined) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, { mode: 0o644, flag: "wx" });
    } else {
      await writeFile(file, content);
    }
  }
}

/** As git does after removing a file: leading directories left empty go too. */
async function removeEmptyParents(top: string, dir: string): Promise<void> {
  for (let current = dir; current.startsWith(`${top}/`); current = dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
  }
}

/**
 * The undo command. `git apply` reads the patch's paths relative to where it runs (and silently
 * skips those outside it), so from a subdirectory it must run at the top: `-C ../..`. It refuses
 * to touch a file that changed since the merge, and applies all of the patch or nothing.
 */
function undoCommand(repo: Repo, undo: string): string {
  const depth = repo.prefix.split("/").filter(Boolean).length;
  const apply = depth > 0 ? `git -C ${shellQuote(Array(depth).fill("..").join("/"))} apply` : "git apply";
  return `git diff-tree -p --binary --no-commit-id ${undo} | ${apply} --whitespace=nowarn`;
}

/**
 * A work-tree snapshot has no commit to merge into: each changed file is merged into the work tree
 * in memory (base: the snapshot, theirs: the tip), the index is never touched, and either every
 * file is written or, on any conflict, none.
 */
export async function mergeWorktreeSnapshot(
  repo: Repo,
  record: ReviewRecord,
  tip: string,
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
    const steps = await storeSteps(run, planned);
    const undo = await recordWorktreeUndo(run, nullOid(repo.objectFormat), dir, record, steps, head);
    await writeSteps(run, run.cwd, steps).catch((error: unknown) => {
      throw new ReviewRemoteError(messages.workTreeUnwritable((error as Error).message), {
        cause: error,
        hints: [messages.hintRestoreWorkTree(undoCommand(repo, undo))],
      });
    });
    return { kind: MergeKind.applied, reviewId: record.id, previous: undo, undo: undoCommand(repo, undo) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
