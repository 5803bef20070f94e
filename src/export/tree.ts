// Reads the snapshot's tree and builds the filtered tree the bundle is archived from.
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { readBlobs } from "../git/blobs.js";
import { commitTree } from "../git/commits.js";
import { nullOid, privateObjectEnv } from "../git/objects.js";
import { git, splitNul } from "../git/run.js";
import type { Scratch } from "../git/scratch.js";
import { Mode, readTree, type TreeEntry, updateIndex, writeTree } from "../git/trees.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";

/** Symlink targets, read with one `cat-file --batch` for all links. */
export async function readSymlinkTargets(
  scratch: Scratch,
  entries: readonly TreeEntry[],
): Promise<Map<string, string>> {
  const links = entries.filter((entry) => entry.mode === Mode.symlink);
  const blobs = await readBlobs(
    { cwd: scratch.dir, env: scratch.env },
    links.map((link) => link.oid),
  );
  return new Map(links.map((link, index) => [link.path, (blobs[index] as Buffer).toString("utf8")]));
}

/** The paths the command-line pathspecs select, with git's own pathspec rules (globs, magic). */
export async function selectPathspecs(
  repo: Repo,
  scratch: Scratch,
  commit: string,
  pathspecs: readonly string[],
): Promise<Set<string>> {
  const index = join(scratch.dir, "pathspec-index");
  const run = { cwd: repo.cwd, env: privateObjectEnv(repo.env, { ...scratch.objects, index }) };
  await readTree(run, commit);
  const listed = await git(["ls-files", "-z", "--full-name", "--error-unmatch", "--", ...pathspecs], {
    ...run,
    allowFailure: true,
  });
  if (listed.exitCode !== 0) {
    const spec = /pathspec '(.*)' did not match/.exec(listed.stderr)?.[1] ?? pathspecs.join(" ");
    throw new UsageError(messages.pathspecNoMatch(spec), { hints: [messages.hintPathspec] });
  }
  return new Set(splitNul(listed.stdout));
}

/**
 * The tree of `commit` less the `removed` paths (a tree-ish: `<commit>^{tree}` when nothing is
 * removed, with no git call), built in a private index of its own: `read-tree` then removing only
 * what was excluded is much cheaper than listing every kept entry.
 */
export async function writeFilteredTree(
  scratch: Scratch,
  commit: string,
  removed: readonly string[],
  name: string,
): Promise<string> {
  const run = {
    cwd: scratch.dir,
    env: { ...scratch.env, GIT_INDEX_FILE: join(scratch.dir, `${name}-index`) },
  };
  if (removed.length === 0) return `${commit}^{tree}`;
  await readTree(run, commit);
  // Mode 0 removes a path (git-update-index(1), "USING --INDEX-INFO").
  const none = nullOid(scratch.objectFormat);
  await updateIndex(
    run,
    removed.map((path) => ({ mode: "0", oid: none, path })),
  );
  return writeTree(run);
}

/** A commit of the filtered tree, with the fixed identity and date of the scratch env. */
export async function commitFilteredTree(
  scratch: Scratch,
  snapshot: string,
  removed: readonly string[],
): Promise<string> {
  const tree = await writeFilteredTree(scratch, snapshot, removed, "bundle");
  return commitTree({ cwd: scratch.dir, env: scratch.env }, tree, [], "git-review-remote bundle");
}
