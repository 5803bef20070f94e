// Decides what leaves: every path of the snapshot is kept or excluded with the rule that excluded it.
import { posix } from "node:path";
import { Mode, type TreeEntry } from "../git/trees.js";
import { matchGlobList } from "../paths/glob.js";
import { matchSecretName } from "../secrets/names.js";

export interface Exclusion {
  path: string;
  reason: string;
}

export interface FilterRules {
  exclude: readonly string[];
  /** gitignore-style allowlist from the policy; empty means everything. */
  include: readonly string[];
  /** Paths selected by the command-line pathspecs, when any were given. */
  selected?: ReadonlySet<string>;
  /** Symlink targets by path, for the symlinks of the tree. */
  symlinkTargets: ReadonlyMap<string, string>;
}

const MAX_SYMLINK_HOPS = 40;

function isSafeTarget(target: string): boolean {
  return !target.startsWith("/") && !target.includes("\\");
}

/** Walk a path component by component as the kernel would, substituting the tree's symlinks. */
function walk(path: string, targets: ReadonlyMap<string, string>, hops: number): string | undefined {
  if (hops > MAX_SYMLINK_HOPS) return undefined;
  const parts = path.split("/");
  const resolved: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (resolved.pop() === undefined) return undefined;
      continue;
    }
    if (part.toLowerCase() === ".git") return undefined;
    resolved.push(part);
    const here = resolved.join("/");
    const link = targets.get(here);
    if (link !== undefined) {
      if (!isSafeTarget(link)) return undefined;
      const rest = parts.slice(i + 1);
      return walk([posix.dirname(here), link, ...rest].join("/"), targets, hops + 1);
    }
  }
  return resolved.join("/");
}

/**
 * Where a symlink leads, followed through the tree's other symlinks; undefined when it leaves the
 * tree, enters a `.git` directory or loops. A link to a path that is not exported is harmless: the
 * worker gets a dangling link and no content.
 */
export function resolveSymlink(path: string, targets: ReadonlyMap<string, string>): string | undefined {
  const target = targets.get(path);
  if (target === undefined) return path;
  if (!isSafeTarget(target)) return undefined;
  return walk(`${posix.dirname(path)}/${target}`, targets, 1);
}

function exclusionReason(entry: TreeEntry, rules: FilterRules): string | undefined {
  if (entry.mode === Mode.gitlink) return "gitlink (submodule)";
  const secret = matchSecretName(entry.path);
  if (secret) return `secret name: ${secret.id} (${secret.description})`;
  const excluded = matchGlobList(rules.exclude, entry.path);
  if (excluded !== undefined) return `policy exclude: ${excluded}`;
  if (rules.include.length > 0 && matchGlobList(rules.include, entry.path) === undefined) {
    return "not in policy include";
  }
  if (rules.selected && !rules.selected.has(entry.path)) return "outside the pathspecs";
  if (entry.mode === Mode.symlink && resolveSymlink(entry.path, rules.symlinkTargets) === undefined) {
    return "symlink pointing outside the tree";
  }
  return undefined;
}

export function filterEntries(
  entries: readonly TreeEntry[],
  rules: FilterRules,
): { kept: TreeEntry[]; excluded: Exclusion[] } {
  const kept: TreeEntry[] = [];
  const excluded: Exclusion[] = [];
  for (const entry of entries) {
    const reason = exclusionReason(entry, rules);
    if (reason === undefined) kept.push(entry);
    else excluded.push({ path: entry.path, reason });
  }
  return { kept, excluded };
}
