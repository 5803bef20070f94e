// Decides what leaves: every path of the snapshot is kept or excluded with the rule that excluded it.
// Past the secret names and the policy, the bundle rules (src/paths/bundle.ts) keep back what the
// worker would refuse: a name a checkout could misread, a symlink that leaves the tree or reaches a
// `.git` look-alike, a name that folds onto another one.
import { Mode, type TreeEntry } from "../git/trees.js";
import { checkEntryPath, checkSymlink, FoldedTree, type RuleViolation } from "../paths/bundle.js";
import { matchGlobList } from "../paths/glob.js";
import { matchSecretName } from "../secrets/names.js";

export interface Exclusion {
  path: string;
  reason: string;
  /** The name the reason quotes, to print as the listing prints paths; left out of JSON. */
  quoted?: { text: string; as: string };
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

/** Why a path never leaves by its name: a secret name or the policy's `exclude`; undefined if neither. */
export function nameExclusion(path: string, exclude: readonly string[]): string | undefined {
  const secret = matchSecretName(path);
  if (secret) return `secret name: ${secret.id} (${secret.description})`;
  const excluded = matchGlobList(exclude, path);
  if (excluded !== undefined) return `policy exclude: ${excluded}`;
  return undefined;
}

/** The reasons that only say a path was not asked for (`-- <pathspec>`, the policy's include). */
export const OUTSIDE_PATHSPECS = "outside the pathspecs";
export const NOT_INCLUDED = "not in policy include";

/** The reason the user's rules (secret names, policy, pathspecs) keep `entry` back, if any. */
function ruleExclusion(entry: TreeEntry, rules: FilterRules): string | undefined {
  if (entry.mode === Mode.gitlink) return "gitlink (submodule)";
  const named = nameExclusion(entry.path, rules.exclude);
  if (named !== undefined) return named;
  if (rules.include.length > 0 && matchGlobList(rules.include, entry.path) === undefined) {
    return NOT_INCLUDED;
  }
  if (rules.selected && !rules.selected.has(entry.path)) return OUTSIDE_PATHSPECS;
  return undefined;
}

/** What the bundle rules say of `entry`: the worker refuses a bundle holding what they refuse. */
function bundleViolation(entry: TreeEntry, rules: FilterRules): RuleViolation | undefined {
  const name = checkEntryPath(entry.path, false);
  if (!Array.isArray(name)) return name;
  if (entry.mode !== Mode.symlink) return undefined;
  return checkSymlink(entry.path, rules.symlinkTargets.get(entry.path) ?? "", rules.symlinkTargets);
}

function exclusionOf(entry: TreeEntry, rules: FilterRules, names: FoldedTree): Exclusion | undefined {
  const ruled = ruleExclusion(entry, rules);
  if (ruled !== undefined) return { path: entry.path, reason: ruled };
  const violation = bundleViolation(entry, rules) ?? names.claimWithParents(entry.path);
  if (!violation) return undefined;
  const reason = `${violation.reason} (rule: ${violation.rule})`;
  return { path: entry.path, reason, ...(violation.quoted ? { quoted: violation.quoted } : {}) };
}

export function filterEntries(
  entries: readonly TreeEntry[],
  rules: FilterRules,
): { kept: TreeEntry[]; excluded: Exclusion[] } {
  const kept: TreeEntry[] = [];
  const excluded: Exclusion[] = [];
  // In tree order, as git archive writes them: of two names that fold together, the first stays.
  const names = new FoldedTree();
  for (const entry of entries) {
    const exclusion = exclusionOf(entry, rules, names);
    if (exclusion === undefined) kept.push(entry);
    else excluded.push(exclusion);
  }
  return { kept, excluded };
}
