import { describe, expect, it } from "vitest";
import { commentsOnSnapshot, parseZeroContextDiff, toSnapshotLine } from "../../src/worker/snapshot-lines.js";

// git diff -U0 of a 10-line file whose line 2 was deleted, lines 5-6 became one line, and two lines
// were put after line 8.
const diff = [
  "diff --git a/src/m.py b/src/m.py",
  "index 1111111..2222222 100644",
  "--- a/src/m.py",
  "+++ b/src/m.py",
  "@@ -2 +1,0 @@",
  "-import json",
  "@@ -5,2 +4 @@",
  "-a = 1",
  "-b = 2",
  "+a, b = 1, 2",
  "@@ -8,0 +7,2 @@",
  "+",
  "+",
  'diff --git "a/tab\\there.py" "b/tab\\there.py"',
  '--- "a/tab\\there.py"',
  '+++ "b/tab\\there.py"',
  "@@ -0,0 +1 @@",
  "+import os",
  "",
].join("\n");

describe("snapshot lines", () => {
  const hunks = parseZeroContextDiff(diff);

  it("maps each line of the changed file to the snapshot's", () => {
    const file = hunks.get("src/m.py") ?? [];
    // 1 unchanged; 2-3 after the deletion; 4 the replacement of 5-6; 5-6 unchanged; 7-8 put after 8.
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((line) => toSnapshotLine(file, line))).toEqual([
      1, 3, 4, 5, 7, 8, 8, 8, 9, 10,
    ]);
  });

  it("reads quoted names, and puts a line added at the top on the first", () => {
    expect(toSnapshotLine(hunks.get("tab\there.py") ?? [], 1)).toBe(1);
    expect(toSnapshotLine(hunks.get("tab\there.py") ?? [], 2)).toBe(1);
    expect(toSnapshotLine(hunks.get("tab\there.py") ?? [], 3)).toBe(2);
  });

  it("moves the comments on changed files, spans kept in order, and leaves the others", () => {
    const comments = commentsOnSnapshot(
      [
        { path: "src/m.py", line: 4, endLine: 6, severity: "warning", message: "span" },
        { path: "src/other.py", line: 4, severity: "info", message: "elsewhere" },
        { path: "src/m.py", severity: "info", message: "whole file" },
        { severity: "info", message: "whole change" },
      ],
      hunks,
    );
    expect(comments.map((comment) => [comment.line, comment.endLine])).toEqual([
      [5, 8],
      [4, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });
});
