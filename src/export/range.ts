// A range review: the changed paths and their patch, both limited to what the bundle holds, so a
// file kept back (an excluded `.env`) never leaks through the patch.
import { git, splitNul } from "../git.js";
import type { Finding } from "../secrets/scanner.js";
import { type FilterRules, filterEntries } from "./filter.js";
import type { Scratch } from "./scratch.js";
import { listTree, readSymlinkTargets, writeFilteredTree } from "./tree.js";

export interface RangeInfo {
  base: string;
  head: string;
  paths: string[];
  patch: string;
}

export interface TextScanner {
  scanText(path: string, text: string): Finding[];
}

export const RANGE_PATCH_LABEL = "range patch";

export async function createRange(options: {
  scratch: Scratch;
  base: string;
  head: string;
  /** The paths the head bundle left out. */
  headRemoved: readonly string[];
  rules: Omit<FilterRules, "symlinkTargets">;
  scanner: TextScanner;
}): Promise<{ range: RangeInfo; findings: Finding[] }> {
  const { scratch } = options;
  const baseEntries = await listTree(scratch, options.base);
  const { kept, excluded } = filterEntries(baseEntries, {
    ...options.rules,
    selected: undefined,
    symlinkTargets: await readSymlinkTargets(scratch, baseEntries),
  });
  const selected = options.rules.selected;
  // Left out of the base: what its own rules exclude, and whatever the head left out (export-ignore).
  const removed = new Set([...excluded.map((entry) => entry.path), ...options.headRemoved]);
  for (const entry of kept) if (selected && !selected.has(entry.path)) removed.add(entry.path);
  const baseRemoved = baseEntries.map((entry) => entry.path).filter((path) => removed.has(path));
  const baseTree = await writeFilteredTree(scratch, options.base, baseRemoved, "range-base");
  const headTree = await writeFilteredTree(scratch, options.head, options.headRemoved, "range-head");
  const run = { cwd: scratch.dir, env: scratch.env };
  const names = await git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", baseTree, headTree], run);
  // Text only (no --binary): binary changes show as "Binary files differ".
  const patch = await git(
    ["diff-tree", "-p", "--no-color", "--no-ext-diff", "--no-renames", baseTree, headTree],
    run,
  );
  return {
    range: { base: options.base, head: options.head, paths: splitNul(names.stdout), patch: patch.stdout },
    findings: options.scanner.scanText(RANGE_PATCH_LABEL, patch.stdout),
  };
}
