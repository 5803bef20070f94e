// A linter that fixes before it reports (ruff with `fix = true`, `biome lint --write`, `eslint --fix`)
// numbers its findings in the files it left, and a reviewer after another one numbers them in the tree
// the one before left; a comment's line is the snapshot's (the client filters and shows comments
// against it). The work tree's `git diff -U0` against the snapshot maps each line back (design §8).

import type { ReviewComment } from "../protocol/result.js";
import { readFileLineName } from "../validate/patch-headers.js";

/** One `-U0` hunk: the snapshot's lines [oldFirst, oldFirst + oldCount) became [newFirst, newFirst + newCount). */
interface Hunk {
  oldFirst: number;
  oldCount: number;
  newFirst: number;
  newCount: number;
}

const HUNK = /^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@/;

/** The hunks of a `git diff -U0` by the file they change (its name on the `+++` line). */
export function parseZeroContextDiff(text: string): Map<string, Hunk[]> {
  const byPath = new Map<string, Hunk[]>();
  let hunks: Hunk[] | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) hunks = undefined;
    else if (line.startsWith("+++ ") && hunks === undefined) {
      const [name] = readFileLineName(line.slice(4), "b/").names;
      if (name === undefined) continue;
      hunks = [];
      byPath.set(name, hunks);
    } else if (hunks && line.startsWith("@@ ")) {
      const match = HUNK.exec(line);
      if (!match) continue;
      const [oldStart, oldCount, newStart, newCount] = [match[1], match[2], match[3], match[4]].map((n, i) =>
        n === undefined ? (i % 2 === 1 ? 1 : 0) : Number(n),
      ) as [number, number, number, number];
      // With no line on a side, git names the line before the gap.
      hunks.push({
        oldFirst: oldCount === 0 ? oldStart + 1 : oldStart,
        oldCount,
        newFirst: newCount === 0 ? newStart + 1 : newStart,
        newCount,
      });
    }
  }
  return byPath;
}

/** The snapshot's line for a line of the changed file: a changed line goes to the lines it replaced. */
export function toSnapshotLine(hunks: readonly Hunk[], line: number): number {
  for (const hunk of hunks) {
    if (line < hunk.newFirst) return line + hunk.oldFirst - hunk.newFirst;
    if (line < hunk.newFirst + hunk.newCount) {
      // Lines put where there were none: the snapshot's line before them (the first, at the top).
      if (hunk.oldCount === 0) return Math.max(1, hunk.oldFirst - 1);
      return hunk.oldFirst + Math.min(line - hunk.newFirst, hunk.oldCount - 1);
    }
  }
  const last = hunks.at(-1);
  return last ? line + last.oldFirst + last.oldCount - (last.newFirst + last.newCount) : line;
}

/** The comments with their lines made the snapshot's, where the diff changed their file. */
export function commentsOnSnapshot(
  comments: readonly ReviewComment[],
  diff: Map<string, Hunk[]>,
): ReviewComment[] {
  return comments.map((comment) => {
    const hunks = comment.path === undefined ? undefined : diff.get(comment.path);
    if (!hunks || hunks.length === 0 || comment.line === undefined) return comment;
    const line = toSnapshotLine(hunks, comment.line);
    if (comment.endLine === undefined) return { ...comment, line };
    return { ...comment, line, endLine: Math.max(line, toSnapshotLine(hunks, comment.endLine)) };
  });
}
