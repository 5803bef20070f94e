// What changed between two trees, as git records it: `diff-tree --raw` parsed into one value per
// change. Plumbing never applies the user's diff config (noprefix, textconv, external diff).
import type { GitRun } from "./commits.js";
import { git, splitNul } from "./run.js";

export interface TreeChange {
  /** A added, M modified, D deleted, R renamed, T type changed (C, U, X never expected). */
  status: string;
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  /** The path after the change (the destination of a rename), or the deleted path. */
  path: string;
  /** The source of a rename or copy. */
  fromPath?: string;
}

/**
 * Parses `git diff-tree -z -r --raw` output, one record per change:
 * `:100644 100644 c7a0d71... a3852f2... M\0src/app.ts\0` or `:... R066\0src/old.ts\0src/new.ts\0`.
 */
export function parseRawDiff(records: readonly string[]): TreeChange[] {
  const changes: TreeChange[] = [];
  for (let i = 0; i < records.length; i++) {
    const meta = records[i] as string;
    const [oldMode = "", newMode = "", oldOid = "", newOid = "", score = ""] = meta
      .replace(/^:/, "")
      .split(" ");
    const status = score.slice(0, 1);
    if (status === "R" || status === "C") {
      const fromPath = records[++i] ?? "";
      changes.push({ status, oldMode, newMode, oldOid, newOid, fromPath, path: records[++i] ?? "" });
    } else {
      changes.push({ status, oldMode, newMode, oldOid, newOid, path: records[++i] ?? "" });
    }
  }
  return changes;
}

/**
 * The file changes from one tree-ish to another. -r: files, not trees; -z: paths as they are;
 * renames: a rename is one change (its source judged too), else a deletion and an addition.
 */
export async function diffTrees(
  run: GitRun,
  from: string,
  to: string,
  options: { renames: boolean },
): Promise<TreeChange[]> {
  const renames = options.renames ? "-M" : "--no-renames";
  const raw = await git(["diff-tree", "-z", "-r", renames, "--raw", from, to], run);
  return parseRawDiff(splitNul(raw.stdout));
}
