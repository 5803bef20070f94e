// The source state of an export: a commit, or a synthetic commit of the work tree.
import { copyFile, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { commitTree, readHead } from "../git/commits.js";
import { SYNTHETIC_IDENTITY } from "../git/identity.js";
import { privateObjectEnv } from "../git/objects.js";
import { git, splitNul } from "../git/run.js";
import type { Scratch } from "../git/scratch.js";
import { readTree, writeTree } from "../git/trees.js";
import { type Repo, requireWorkTree } from "../repo.js";
import { type Exclusion, nameExclusion } from "./filter.js";

export const SnapshotKind = { commit: "commit", worktree: "worktree" } as const;
export type SnapshotKind = (typeof SnapshotKind)[keyof typeof SnapshotKind];

export interface Snapshot {
  kind: SnapshotKind;
  /** The commit the bundle is built from and proposals apply to. */
  commit: string;
  /** For a work-tree snapshot: the HEAD it was taken on (undefined in a repo with no commits). */
  parent?: string | undefined;
}

/**
 * Starting from a copy of the real index keeps its stat data, so only changed files are re-hashed.
 * The copy keeps the original's mtime: git treats entries as "racily clean" by comparing them with
 * the index file's own mtime, and a fresh mtime would hide a same-size edit made in the same second.
 */
async function copyIndex(from: string, to: string): Promise<boolean> {
  try {
    const { atime, mtime } = await stat(from);
    await copyFile(from, to);
    await utimes(to, atime, mtime);
    return true;
  } catch {
    return false;
  }
}

/**
 * Uncommitted changes to paths that never leave (secret names, the policy's `exclude`) stay out of
 * the snapshot: it becomes the parent of the review branch, and a branch is easily pushed. Those
 * paths keep their HEAD version (or stay absent) in the snapshot.
 */
async function keepSecretsOut(
  run: { cwd: string; env: Record<string, string | undefined> },
  parent: string | undefined,
  exclude: readonly string[],
): Promise<Exclusion[]> {
  const listed = parent
    ? await git(["diff-index", "--cached", "-z", "--name-only", "--no-renames", parent], run)
    : await git(["ls-files", "-z", "--cached"], run);
  const kept: Exclusion[] = [];
  for (const path of splitNul(listed.stdout)) {
    const reason = nameExclusion(path, exclude);
    if (reason !== undefined) kept.push({ path, reason });
  }
  if (kept.length === 0) return kept;
  const input = kept.map(({ path }) => `${path}\0`).join("");
  if (parent) {
    // Literal pathspecs: a file named `*.pem` must reset only itself.
    await git(["reset", "-q", parent, "--pathspec-from-file=-", "--pathspec-file-nul"], {
      ...run,
      env: { ...run.env, GIT_LITERAL_PATHSPECS: "1" },
      input,
    });
  } else {
    await git(["update-index", "-z", "--force-remove", "--stdin"], { ...run, input });
  }
  return kept;
}

const NESTED_REPOSITORY = "nested repository (untracked, with its own history)";

/** The untracked, not-ignored repositories in the work tree: git lists each as one `dir/`. */
async function untrackedRepositories(run: {
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<string[]> {
  const listed = await git(["ls-files", "-z", "--others", "--exclude-standard", "--", ":/"], run);
  return splitNul(listed.stdout)
    .filter((path) => path.endsWith("/"))
    .map((path) => path.slice(0, -1));
}

/**
 * Snapshot tracked changes and untracked, not-ignored files through a private index and the
 * scratch object dir: the user's index, work tree and object store are never written. `keptOut`
 * names the uncommitted paths left out of it by their names (an untracked `.env`), with the rule.
 */
export async function snapshotWorktree(
  repo: Repo,
  scratch: Scratch,
  exclude: readonly string[] = [],
): Promise<{ snapshot: Snapshot; keptOut: Exclusion[] }> {
  const top = requireWorkTree(repo);
  const index = join(scratch.dir, "worktree-index");
  const env = { ...privateObjectEnv(repo.env, { ...scratch.objects, index }), ...SYNTHETIC_IDENTITY };
  const run = { cwd: top, env };
  const parent = await readHead({ cwd: repo.cwd, env: repo.env });
  if (!(await copyIndex(join(repo.gitDir, "index"), index))) await readTree(run, parent);
  // An untracked repository inside the work tree (a scratch `git init`, a clone in a subdirectory)
  // has its own history: `git add` would make it a gitlink, with a warning, or fail outright when it
  // has no commit yet. It stays out, and the listing says so.
  const nested = await untrackedRepositories(run);
  await git(["add", "--all", "--", ":/", ...nested.map((dir) => `:(top,exclude,literal)${dir}/`)], run);
  const keptOut = [
    ...nested.map((path) => ({ path, reason: NESTED_REPOSITORY })),
    ...(await keepSecretsOut(run, parent, exclude)),
  ];
  const tree = await writeTree(run);
  const commit = await commitTree(run, tree, parent ? [parent] : [], "git-review-remote work-tree snapshot");
  return { snapshot: { kind: SnapshotKind.worktree, commit, parent }, keptOut };
}
