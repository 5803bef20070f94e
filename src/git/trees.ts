// Named operations on trees and private indexes: list a tree, read one into an index, edit the
// index, write it back as a tree. Callers point GIT_INDEX_FILE at an index of their own.

import { StringDecoder } from "node:string_decoder";
import { GitError } from "../errors.js";
import type { GitRun } from "./commits.js";
import { git, spawnGit, splitNul } from "./run.js";

/** Tree entry modes (gitformat-index(5)); raw diffs use the same. */
export const Mode = {
  regular: "100644",
  executable: "100755",
  symlink: "120000",
  gitlink: "160000",
  /** The "old" mode of an added path and the "new" mode of a deleted one. */
  none: "000000",
} as const;

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  path: string;
}

/** The modes and types a listing repeats on every line, shared rather than made for each entry. */
const SHARED: ReadonlyMap<string, string> = new Map(
  [...Object.values(Mode), "blob", "tree", "commit"].map((word) => [word, word]),
);

/** `text.slice(from, to)`, or the shared copy of it. */
function word(text: string, from: number, to: number): string {
  const value = text.slice(from, to);
  return SHARED.get(value) ?? value;
}

/**
 * `ls-tree -r -z` output: records `<mode> SP <type> SP <oid> TAB <path>`, each ending in NUL. Read
 * in place, without a string per record: a large tree's listing is tens of thousands of them. Only
 * whole records are read; returns where the first one not ended in `output` starts.
 */
function parseLsTree(output: string, entries: TreeEntry[]): number {
  let start = 0;
  for (let end = output.indexOf("\0"); end !== -1; end = output.indexOf("\0", start)) {
    const space = output.indexOf(" ", start);
    const second = output.indexOf(" ", space + 1);
    const tab = output.indexOf("\t", second + 1);
    entries.push({
      mode: word(output, start, space),
      type: word(output, space + 1, second),
      oid: output.slice(second + 1, tab),
      path: output.slice(tab + 1, end),
    });
    start = end + 1;
  }
  return start;
}

/**
 * Every file of a tree-ish. -r: files, not subtrees; -z: raw paths, no quoting. (No -l: sizes would
 * cost a read of every blob.) Read as git writes it, a pipe's read at a time: a large tree's listing
 * is MBs, that were held as chunks, then joined, then as one string, at once.
 */
export async function listTree(run: GitRun, treeish: string): Promise<TreeEntry[]> {
  const args = ["ls-tree", "-r", "-z", "--full-tree", treeish];
  const child = spawnGit(args, run);
  const entries: TreeEntry[] = [];
  const decoder = new StringDecoder("utf8");
  let rest = "";
  try {
    for await (const chunk of child.stdout) {
      const text = rest + decoder.write(chunk as Buffer);
      rest = text.slice(parseLsTree(text, entries));
    }
  } catch (error) {
    child.kill();
    await child.exited.catch(() => undefined);
    throw error;
  }
  rest += decoder.end();
  const { exitCode, stderr } = await child.exited;
  if (exitCode !== 0) throw new GitError(args, exitCode, stderr);
  // -z ends every record in NUL: anything after the last one is a record cut short.
  if (rest !== "") throw new GitError(args, exitCode, "ls-tree output ends inside a record");
  return entries;
}

/** The file paths of a tree-ish only. */
export async function listTreePaths(run: GitRun, treeish: string): Promise<string[]> {
  const { stdout } = await git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", treeish], run);
  return splitNul(stdout);
}

/** Replace the index with a tree-ish, or empty it (`undefined`). */
export async function readTree(run: GitRun, treeish: string | undefined): Promise<void> {
  await git(["read-tree", treeish ?? "--empty"], run);
}

/**
 * Move the index from `from` to `to` with a two-tree merge that compares with the index only (-i):
 * entries that did not change keep their stat data (git-read-tree(1), "Two Tree Merge").
 */
export async function readTreeMerge(run: GitRun, from: string, to: string): Promise<void> {
  await git(["read-tree", "-m", "-i", from, to], run);
}

/**
 * The same move, in the work tree too (-u): a file that differs from the index is refused, not
 * overwritten, so only what `from` put there is taken back.
 */
export async function checkoutTreeMerge(run: GitRun, from: string, to: string): Promise<void> {
  await git(["read-tree", "-m", "-u", from, to], run);
}

/**
 * Write the index entries of `paths` under `prefix` (a directory ending in "/") as a checkout
 * writes them, smudge filters and eol conversion included, in one git (git-checkout-index(1)).
 */
export async function checkoutIndexTo(run: GitRun, prefix: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const input = paths.map((path) => `${path}\0`).join("");
  await git(["checkout-index", "-f", "-z", "--stdin", `--prefix=${prefix}`], { ...run, input });
}

/** `missingOk`: entries may name blobs the object store does not hold (git-write-tree(1)). */
export async function writeTree(run: GitRun, { missingOk = false } = {}): Promise<string> {
  return (await git(["write-tree", ...(missingOk ? ["--missing-ok"] : [])], run)).stdout.trim();
}

/** One `update-index --index-info` record: `<mode> SP <oid> TAB <path>`; a null oid with mode 0 removes. */
export interface IndexEntry {
  mode: string;
  oid: string;
  path: string;
}

/** Set or remove index entries (git-update-index(1), "USING --INDEX-INFO"); paths are taken as they are. */
export async function updateIndex(run: GitRun, entries: readonly IndexEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const input = entries.map((entry) => `${entry.mode} ${entry.oid}\t${entry.path}\0`).join("");
  await git(["update-index", "-z", "--index-info"], { ...run, input });
}
