// A range review: the changed paths and their patch, both limited to what the bundle holds, so a
// file kept back (an excluded `.env`, an export-ignore path) never leaks through the patch. The
// patch is made of the head's blobs, scanned in the archive pass, and of the base's: those are
// scanned here, file by file under their real paths, so that a secret removed in the range is
// caught as surely as one added.
import { join } from "node:path";
import { readAttributes } from "../git/attributes.js";
import { git, splitNul } from "../git/run.js";
import type { Scratch } from "../git/scratch.js";
import { listTree, Mode, readTree, type TreeEntry } from "../git/trees.js";
import type { Finding } from "../secrets/finding.js";
import type { FileScanner } from "./archive.js";
import { type FilterRules, filterEntries } from "./filter.js";
import { readBlobs, readSymlinkTargets, writeFilteredTree } from "./tree.js";

export interface RangeInfo {
  base: string;
  head: string;
  paths: string[];
  patch: string;
}

/** The paths whose export-ignore attribute is set in `commit`'s own .gitattributes. */
async function exportIgnored(
  scratch: Scratch,
  commit: string,
  paths: readonly string[],
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // check-attr --cached reads .gitattributes from the index: a private index of that commit.
  const run = {
    cwd: scratch.dir,
    env: { ...scratch.env, GIT_INDEX_FILE: join(scratch.dir, "range-attr-index") },
  };
  await readTree(run, commit);
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

/** Scan the base's version of each changed file: what the patch's removed and context lines carry. */
async function scanBaseBlobs(
  scratch: Scratch,
  entries: readonly TreeEntry[],
  scanner: FileScanner,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const blobs = await readBlobs(scratch, entries);
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
  return findings;
}

export async function createRange(options: {
  scratch: Scratch;
  base: string;
  head: string;
  /** The paths the head bundle left out (its rules and its export-ignore). */
  headRemoved: readonly string[];
  rules: Omit<FilterRules, "symlinkTargets">;
  scanner: FileScanner;
}): Promise<{ range: RangeInfo; findings: Finding[] }> {
  const { scratch } = options;
  const baseEntries = await listTree({ cwd: scratch.dir, env: scratch.env }, options.base);
  const { kept, excluded } = filterEntries(baseEntries, {
    ...options.rules,
    selected: undefined,
    symlinkTargets: await readSymlinkTargets(scratch, baseEntries),
  });
  const selected = options.rules.selected;
  // Left out of the base: what its own rules exclude, whatever the head left out, and what the
  // base's own attributes mark export-ignore.
  const removed = new Set([...excluded.map((entry) => entry.path), ...options.headRemoved]);
  for (const entry of kept) if (selected && !selected.has(entry.path)) removed.add(entry.path);
  const headTree = await writeFilteredTree(scratch, options.head, options.headRemoved, "range-head");
  let baseTree = await writeFilteredTree(scratch, options.base, [...removed], "range-base");
  let paths = await changedPaths(scratch, baseTree, headTree);
  const ignored = await exportIgnored(scratch, options.base, paths);
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
  return {
    range: { base: options.base, head: options.head, paths, patch: patch.stdout },
    findings: await scanBaseBlobs(scratch, baseBlobs, options.scanner),
  };
}
