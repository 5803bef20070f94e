// Merging the proposals of a work-tree snapshot: a 3-way merge per file into the work tree, decided
// in full before anything is written, with an undo point recorded first. The index is never touched.
import { lstat, mkdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GitError, MergeConflictError, ReviewRemoteError } from "../errors.js";
import { commitTree, readHead } from "../git/commits.js";
import { SYNTHETIC_IDENTITY } from "../git/identity.js";
import { nullOid, privateObjectEnv } from "../git/objects.js";
import { diffTrees, type TreeChange } from "../git/raw-diff.js";
import { type GitOptions, git, gitBuffer } from "../git/run.js";
import { type IndexEntry, readTree, updateIndex, writeTree } from "../git/trees.js";
import { messages } from "../messages.js";
import { shellQuote } from "../os/shell.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree } from "../repo.js";
import type { ReviewRecord } from "../store/records.js";
import { quoteForDisplay } from "../validate/sanitize.js";
import { MergeKind, type MergeOutcome } from "./outcome.js";
import { recordUndo } from "./undo.js";

/** `Promise.all` over a few items at a time: each may start git processes. */
async function mapInChunks<T, R>(
  items: readonly T[],
  fn: (item: T, n: number) => Promise<R> | R,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += 8) {
    const chunk = items.slice(start, start + 8);
    results.push(...(await Promise.all(chunk.map((item, i) => fn(item, start + i)))));
  }
  return results;
}

/** A path as one line of `--stdin-paths` input: git C-unquotes a line that starts with `"`. */
function toPathLine(path: string): string {
  if (!/[\n\r"\\]/.test(path)) return path;
  return `"${path.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

/**
 * Store files as blobs and return their oids, in order. With filters (the default), each file is
 * converted as `git add` would convert it at its own path (clean filters, eol), which is how the
 * snapshot's blobs were made; `--no-filters` stores the bytes as they are.
 */
async function hashFiles(run: GitOptions, files: readonly string[], filters: boolean): Promise<string[]> {
  if (files.length === 0) return [];
  const args = ["hash-object", "-w", "--stdin-paths", ...(filters ? [] : ["--no-filters"])];
  const hashed = await git(args, { ...run, input: files.map((file) => `${toPathLine(file)}\n`).join("") });
  return hashed.stdout.split("\n").filter(Boolean);
}

/** The files the proposals change; a rename is a deletion and an addition. */
async function readFileChanges(run: GitOptions, from: string, to: string): Promise<TreeChange[]> {
  const changes = await diffTrees(run, from, to, { renames: false });
  // Validation let only these through (design §9, layer 4): anything else is a bug.
  const unexpected = changes.find(
    (change) =>
      !["A", "M", "D"].includes(change.status) ||
      (change.status === "M" && change.oldMode !== change.newMode),
  );
  if (unexpected)
    throw new ReviewRemoteError(
      messages.unexpectedChange(unexpected.status, quoteForDisplay(unexpected.path)),
    );
  return changes;
}

/** What a path holds in the work tree now. `oid`: its content as git stores it (clean form). */
type Current = { kind: "absent" } | { kind: "file"; oid: string } | { kind: "other" };

/**
 * The kind of each path, by lstat, without following a symbolic link anywhere on the way: a path
 * under a link (or under a file) is "other", so nothing is ever read or written outside the work tree.
 */
async function statPath(top: string, path: string): Promise<"absent" | "file" | "other"> {
  const parts = path.split("/");
  for (let depth = 1; depth <= parts.length; depth++) {
    const stats = await lstat(join(top, ...parts.slice(0, depth))).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
      throw error;
    });
    if (stats === undefined) return "absent";
    if (depth === parts.length) return stats.isFile() ? "file" : "other";
    if (!stats.isDirectory()) return "other";
  }
  return "other";
}

/** The current state of every changed path; regular files are hashed into the scratch objects. */
async function readCurrent(
  top: string,
  scratchRun: GitOptions,
  changes: readonly TreeChange[],
): Promise<Map<string, Current>> {
  const current = new Map<string, Current>();
  const files: string[] = [];
  for (const { path } of changes) {
    // A name that was not valid UTF-8 cannot be written back under the same bytes.
    const kind = path.includes("\ufffd") ? "other" : await statPath(top, path);
    if (kind === "file") files.push(path);
    else current.set(path, { kind });
  }
  const oids = await hashFiles(scratchRun, files, true);
  files.forEach((path, i) => {
    current.set(path, { kind: "file", oid: oids[i] as string });
  });
  return current;
}

/** One path the merge changes: its content now (undefined: absent) and after (null: deleted). */
interface Step {
  change: TreeChange;
  before: string | undefined;
  after: string | null;
}

/** A path whose new content is the result of `git merge-file`, in a temp file not yet stored. */
interface MergedStep {
  change: TreeChange;
  before: string;
  merged: string;
}

interface Conflict {
  change: TreeChange;
  conflict: string;
}

/** undefined: the work tree already holds what the proposals want. */
type Verdict = Step | MergedStep | Conflict | undefined;

interface MergeScratch {
  dir: string;
  /** cwd the work tree, objects written to the scratch dir (the repository's are borrowed). */
  run: GitOptions;
}

async function writeBlob(run: GitOptions, oid: string, file: string): Promise<Buffer> {
  const content = await gitBuffer(["cat-file", "blob", oid], run);
  await writeFile(file, content);
  return content;
}

/**
 * A 3-way merge of one file, on temp files: ours is the work tree (clean form), base the snapshot,
 * theirs the tip. `git merge-file` writes the result over ours and exits with the number of
 * conflicts (at most 127), or -1 (255) on an error such as a binary file.
 */
async function mergeFile(
  scratch: MergeScratch,
  change: TreeChange,
  ours: string,
  n: number,
): Promise<Verdict> {
  const [oursFile, baseFile, theirsFile] = ["ours", "base", "theirs"].map((side) =>
    join(scratch.dir, `${n}.${side}`),
  ) as [string, string, string];
  const oursContent = await writeBlob(scratch.run, ours, oursFile);
  await writeBlob(scratch.run, change.oldOid, baseFile);
  await writeBlob(scratch.run, change.newOid, theirsFile);
  const merged = await git(["merge-file", "--quiet", "--marker-size=7", oursFile, baseFile, theirsFile], {
    ...scratch.run,
    allowFailure: true,
  });
  if (merged.exitCode === 0) {
    // The work tree may hold the proposals already (a second merge): then there is nothing to write.
    if ((await readFile(oursFile)).equals(oursContent)) return undefined;
    return { change, before: ours, merged: oursFile };
  }
  if (merged.exitCode < 128)
    return { change, conflict: "changed both in the work tree and by the proposals" };
  if (merged.stderr.includes("Cannot merge binary files"))
    return { change, conflict: "binary, changed both in the work tree and by the proposals" };
  throw new GitError(["merge-file"], merged.exitCode, merged.stderr);
}

/** Decide one path: take the tip, merge, delete, nothing to do, or a conflict. Writes nothing. */
async function planChange(
  scratch: MergeScratch,
  change: TreeChange,
  current: Current,
  n: number,
): Promise<Verdict> {
  const oid = current.kind === "file" ? current.oid : undefined;
  if (change.status === "M") {
    if (oid === undefined) return { change, conflict: "missing or not a regular file in the work tree" };
    if (oid === change.newOid) return undefined;
    if (oid === change.oldOid) return { change, before: oid, after: change.newOid };
    return mergeFile(scratch, change, oid, n);
  }
  if (change.status === "A") {
    if (current.kind === "absent") return { change, before: undefined, after: change.newOid };
    if (oid === change.newOid) return undefined;
    return { change, conflict: "added by the proposals, but already in the work tree" };
  }
  if (current.kind === "absent") return undefined;
  if (oid === change.oldOid) return { change, before: oid, after: null };
  return { change, conflict: "deleted by the proposals, but changed in the work tree" };
}

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

/** Plan every path in memory; refuse with every conflict before anything is written. */
async function planWorktreeMerge(
  repo: Repo,
  record: ReviewRecord,
  tip: string,
  scratch: MergeScratch,
): Promise<(Step | MergedStep)[]> {
  const changes = await readFileChanges(scratch.run, record.snapshot.commit, tip);
  const current = await readCurrent(requireWorkTree(repo), scratch.run, changes);
  const verdicts = await mapInChunks(changes, (change, n) =>
    planChange(scratch, change, current.get(change.path) ?? { kind: "other" }, n),
  );
  const conflicts = verdicts.filter(
    (verdict): verdict is Conflict => verdict !== undefined && "conflict" in verdict,
  );
  if (conflicts.length > 0) {
    throw new MergeConflictError(messages.conflictWithWorkTree(record.id), {
      details: conflicts.map(
        ({ change, conflict }) => `conflict: ${quoteForDisplay(change.path)} (${conflict})`,
      ),
      hints: [
        messages.hintInspectRange(`${record.snapshot.commit} ${record.branch}`),
        messages.hintApplyByHand,
      ],
    });
  }
  return verdicts.filter((verdict): verdict is Step | MergedStep => verdict !== undefined);
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
