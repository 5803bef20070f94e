// Case and Unicode collisions (validation layer 4, design §9): two names git keeps apart but a
// case-insensitive or normalising file system (macOS, Windows) makes one file, so a checkout writes one
// over the other (cf. node-tar CVE-2021-37712).
import { collisionKey } from "../paths/fold.js";
import { quoteForDisplay } from "./sanitize.js";

/** Every file of a tree listing plus every directory above one. */
export function treeEntries(files: readonly string[]): Set<string> {
  const entries = new Set<string>();
  for (const file of files) {
    entries.add(file);
    for (let slash = file.indexOf("/"); slash !== -1; slash = file.indexOf("/", slash + 1)) {
      entries.add(file.slice(0, slash));
    }
  }
  return entries;
}

/**
 * Problems for names in `files` that collide with another name, when at least one of them is new
 * (not in `baseEntries`): a collision the repository already had is not the worker's doing. A
 * collision under an already reported directory is not reported again.
 */
export function findCollisions(files: readonly string[], baseEntries: ReadonlySet<string>): string[] {
  const groups = new Map<string, Set<string>>();
  for (const entry of treeEntries(files)) {
    const key = collisionKey(entry);
    const group = groups.get(key);
    if (group) group.add(entry);
    else groups.set(key, new Set([entry]));
  }
  const reported = new Set<string>();
  const problems: string[] = [];
  for (const key of [...groups.keys()].sort((a, b) => a.length - b.length)) {
    const group = [...(groups.get(key) ?? [])].sort();
    if (group.length < 2 || group.every((entry) => baseEntries.has(entry))) continue;
    if (isUnderReported(key, reported)) continue;
    reported.add(key);
    problems.push(
      `paths ${group.map(quoteForDisplay).join(" and ")} are the same file on case-insensitive or Unicode-normalising file systems`,
    );
  }
  return problems;
}

function isUnderReported(key: string, reported: ReadonlySet<string>): boolean {
  for (let slash = key.indexOf("/"); slash !== -1; slash = key.indexOf("/", slash + 1)) {
    if (reported.has(key.slice(0, slash))) return true;
  }
  return false;
}
