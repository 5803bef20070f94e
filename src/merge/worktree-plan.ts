// Planning a work-tree merge, in memory and writing nothing: each path the proposals change is
// taken, 3-way merged (git merge-file on temp files), left alone, or a conflict.
import { lstat, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { GitError, MergeConflictError, ReviewRemoteError } from "../errors.js";
import { conflictDetail } from "../git/quote.js";
import { diffTrees, type TreeChange } from "../git/raw-diff.js";
import { type GitOptions, git, gitBuffer } from "../git/run.js";
import { messages } from "../messages.js";
import { gitIn } from "../os/shell.js";
import { type Repo, requireWorkTree } from "../repo.js";
import type { ReviewRecord } from "../store/records.js";
import { quoteForDisplay } from "../validate/sanitize.js";

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
export async function hashFiles(
  run: GitOptions,
  files: readonly string[],
  filters: boolean,
): Promise<string[]> {
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
export interface Step {
  change: TreeChange;
  before: string | undefined;
  after: string | null;
}

/** A path whose new content is the result of `git merge-file`, in a temp file not yet stored. */
export interface MergedStep {
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

export interface MergeScratch {
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

/** The work tree a work-tree review was made in, when it is another one and still there. */
async function otherWorkTree(record: ReviewRecord, repo: Repo): Promise<string | undefined> {
  const made = record.workTree;
  if (made === undefined || made === repo.top) return undefined;
  const there = await stat(made).catch(() => undefined);
  return there?.isDirectory() ? made : undefined;
}

/** Plan every path in memory; refuse with every conflict before anything is written. */
export async function planWorktreeMerge(
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
    const details = conflicts.map(({ change, conflict }) => conflictDetail(change.path, conflict));
    const inspect = messages.hintInspectRange(`${record.snapshot.commit} ${record.branch}`);
    // Made of another linked work tree's uncommitted changes, which this one does not hold: there
    // it merges as planned.
    const made = await otherWorkTree(record, repo);
    if (made !== undefined) {
      throw new MergeConflictError(messages.conflictInOtherWorkTree(record.id, made, requireWorkTree(repo)), {
        details,
        hints: [
          messages.hintMergeInWorkTree(`${gitIn(made, repo.top)} review-remote merge ${record.id}`),
          inspect,
        ],
      });
    }
    throw new MergeConflictError(messages.conflictWithWorkTree(record.id), {
      details,
      hints: [inspect, messages.hintApplyByHand],
    });
  }
  return verdicts.filter((verdict): verdict is Step | MergedStep => verdict !== undefined);
}
