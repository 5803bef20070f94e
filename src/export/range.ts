// A range review: the changed paths and their patch, both limited to what the bundle holds, so a
// file kept back (an excluded `.env`, an export-ignore path) never leaks through the patch. The
// patch is made of the head's blobs, scanned in the archive pass, and of the base's: those are
// scanned here, file by file under their real paths, so that a secret removed in the range is
// caught as surely as one added.
import { join } from "node:path";
import { readAttributes } from "../git/attributes.js";
import { readBlobs } from "../git/blobs.js";
import { diffTrees } from "../git/raw-diff.js";
import { git, splitNul } from "../git/run.js";
import type { Scratch } from "../git/scratch.js";
import { listTree, Mode, type TreeEntry, updateIndex } from "../git/trees.js";
import type { Finding } from "../secrets/finding.js";
import type { FileScanner } from "./archive.js";
import { type Exclusion, type FilterRules, filterEntries } from "./filter.js";
import { readSymlinkTargets, writeFilteredTree } from "./tree.js";

export interface RangeInfo {
  base: string;
  head: string;
  paths: string[];
  patch: string;
}

/** The paths whose export-ignore attribute is set by the .gitattributes of a tree listed as `entries`. */
async function exportIgnored(
  scratch: Scratch,
  entries: readonly TreeEntry[],
  paths: readonly string[],
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // check-attr --cached reads .gitattributes from the index, and nothing else of it: a private index
  // of that tree's .gitattributes alone answers as one of the whole tree (a read-tree of 27k paths).
  const run = {
    cwd: scratch.dir,
    env: { ...scratch.env, GIT_INDEX_FILE: join(scratch.dir, "range-attr-index") },
  };
  await updateIndex(
    run,
    entries.filter((entry) => entry.path === ".gitattributes" || entry.path.endsWith("/.gitattributes")),
  );
  const attributes = await readAttributes(run, ["export-ignore"], paths, { cached: true });
  const ignored = new Set<string>();
  for (const [path, values] of attributes) if (values.get("export-ignore") === "set") ignored.add(path);
  return ignored;
}

async function changedPaths(scratch: Scratch, from: string, to: string): Promise<string[]> {
  const out = await git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to], {
    cwd: scratch.dir,
    env: scratch.env,
  });
  return splitNul(out.stdout);
}

/**
 * Scan the base's version of each changed file: what the patch's removed and context lines carry; and
 * the name of each path the head's bundle lacks (a file the change deletes), which leaves in the
 * patch's headers and the request's paths, never as a tar entry whose name the archive pass reads.
 */
async function scanBaseBlobs(
  scratch: Scratch,
  entries: readonly TreeEntry[],
  baseOnlyPaths: readonly string[],
  scanner: FileScanner,
): Promise<Finding[]> {
  const findings: Finding[] = baseOnlyPaths.flatMap((path) => scanner.scanPath(path));
  const blobs = await readBlobs(
    { cwd: scratch.dir, env: scratch.env },
    entries.map((entry) => entry.oid),
  );
  for (const [index, entry] of entries.entries()) {
    const content = blobs[index] as Buffer;
    if (entry.mode === Mode.symlink) {
      findings.push(...scanner.scanLinkTarget(entry.path, content.toString("utf8")));
      continue;
    }
    const scan = scanner.scanFile(entry.path);
    scan.write(content);
    findings.push(...scan.end());
  }
  // Their lines are the base's, not those of the file the listing shows.
  return findings.map((finding) => ({ ...finding, inBase: true }));
}

/** The type ls-tree names for a mode. */
function typeOf(mode: string): string {
  return mode === Mode.gitlink ? "commit" : "blob";
}

/** Any UTF-16 unit past U+D7FF: where `<` on strings and git's byte order of paths may disagree. */
const PAST_D7FF = /[\ud800-\uffff]/;

/**
 * The base's listing and link targets, and the paths that changed (in git's order), from the head's
 * listing and one diff of the two commits rather than a listing of the whole base tree. Both listings
 * are in git's path order (UTF-8 bytes), which `<` keeps as long as no changed path holds a unit past
 * U+D7FF; such a range lists the base whole.
 */
async function baseListing(
  scratch: Scratch,
  base: string,
  head: { commit: string; entries: readonly TreeEntry[]; links: ReadonlyMap<string, string> },
): Promise<{ entries: TreeEntry[]; links: Map<string, string>; changed: Set<string> }> {
  const run = { cwd: scratch.dir, env: scratch.env };
  const changes = await diffTrees(run, base, head.commit, { renames: false });
  const changed = new Set(changes.map((change) => change.path));
  let entries: TreeEntry[];
  if (changes.some((change) => PAST_D7FF.test(change.path))) {
    entries = await listTree(run, base);
  } else {
    const before: TreeEntry[] = changes
      .filter((change) => change.oldMode !== Mode.none)
      .map(({ oldMode, oldOid, path }) => ({ mode: oldMode, type: typeOf(oldMode), oid: oldOid, path }));
    // Two lists in path order merged: the head's unchanged entries and the base's side of the changes.
    entries = [];
    let next = 0;
    for (const entry of head.entries) {
      if (changed.has(entry.path)) continue;
      for (; next < before.length && (before[next] as TreeEntry).path < entry.path; next++) {
        entries.push(before[next] as TreeEntry);
      }
      entries.push(entry);
    }
    entries.push(...before.slice(next));
  }
  const links = new Map<string, string>();
  const unread: TreeEntry[] = [];
  for (const entry of entries) {
    if (entry.mode !== Mode.symlink) continue;
    const known = head.links.get(entry.path);
    if (known !== undefined && !changed.has(entry.path)) links.set(entry.path, known);
    else unread.push(entry);
  }
  for (const [path, target] of await readSymlinkTargets(scratch, unread)) links.set(path, target);
  return { entries, links, changed };
}

export async function createRange(options: {
  scratch: Scratch;
  base: string;
  /** The head: the snapshot's commit, its whole listing and its symlinks' targets. */
  head: { commit: string; entries: readonly TreeEntry[]; links: ReadonlyMap<string, string> };
  /** The paths the head bundle left out (its rules and its export-ignore). */
  headRemoved: readonly string[];
  rules: Omit<FilterRules, "symlinkTargets">;
  scanner: FileScanner;
}): Promise<{ range: RangeInfo; findings: Finding[]; baseExcluded: Exclusion[] }> {
  const { scratch } = options;
  const baseEntries = await baseListing(scratch, options.base, options.head);
  const { kept, excluded } = filterEntries(baseEntries.entries, {
    ...options.rules,
    selected: undefined,
    symlinkTargets: baseEntries.links,
  });
  const selected = options.rules.selected;
  // Left out of the base: what its own rules exclude, whatever the head left out, and what the
  // base's own attributes mark export-ignore.
  const removed = new Set([...excluded.map((entry) => entry.path), ...options.headRemoved]);
  for (const entry of kept) if (selected && !selected.has(entry.path)) removed.add(entry.path);
  const headTree = await writeFilteredTree(scratch, options.head.commit, options.headRemoved, "range-head");
  let baseTree = await writeFilteredTree(scratch, options.base, [...removed], "range-base");
  // Nothing left out on either side: the filtered trees are the commits' own, and so is the diff.
  let paths =
    removed.size === 0 && options.headRemoved.length === 0
      ? [...baseEntries.changed]
      : await changedPaths(scratch, baseTree, headTree);
  const ignored = await exportIgnored(scratch, baseEntries.entries, paths);
  if (ignored.size > 0) {
    for (const path of ignored) removed.add(path);
    baseTree = await writeFilteredTree(scratch, options.base, [...removed], "range-base");
    paths = await changedPaths(scratch, baseTree, headTree);
  }
  const run = { cwd: scratch.dir, env: scratch.env };
  // Text only (no --binary): binary changes show as "Binary files differ".
  const patch = await git(
    ["diff-tree", "-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", baseTree, headTree],
    run,
  );
  const changed = new Set(paths);
  // A link's old target is a `-` line of the patch: scanned as the link target it is.
  const baseBlobs = kept.filter((entry) => changed.has(entry.path) && !removed.has(entry.path));
  // Kept back on the base's side alone (a `.env` the change deletes): its side of the patch is not
  // sent either, and the listing says so as it does for the head's.
  const headSide = new Set(options.headRemoved);
  const bundled = new Set(
    options.head.entries.map((entry) => entry.path).filter((path) => !headSide.has(path)),
  );
  const baseOnly = paths.filter((path) => !bundled.has(path));
  return {
    range: { base: options.base, head: options.head.commit, paths, patch: patch.stdout },
    findings: await scanBaseBlobs(scratch, baseBlobs, baseOnly, options.scanner),
    baseExcluded: excluded.filter((entry) => !headSide.has(entry.path)),
  };
}
