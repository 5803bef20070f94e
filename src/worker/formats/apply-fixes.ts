// Applies a report's fixes to file contents, deterministically: a fix is applied whole or not at all,
// of two overlapping fixes the first in the report wins, and nothing goes past the limits. Every fix
// left out becomes a comment at its place saying why, so the reviewer's intent is not lost.

import type { ReviewComment } from "../../protocol/result.js";
import { workerMessages as m } from "../messages.js";
import { type ByteEdit, resolveEdit, TextIndex } from "./positions.js";
import { toComment } from "./report-builder.js";
import type { Fix, FormatLimits } from "./types.js";

export interface FixesApplied {
  /** New contents of the files that changed, by tree path. */
  files: Map<string, Uint8Array>;
  applied: Fix[];
  /** One per fix not applied. */
  comments: ReviewComment[];
  warnings: string[];
}

interface Placed extends ByteEdit {
  path: string;
}

type FixLimits = Pick<FormatLimits, "maxEdits" | "maxInsertedBytes" | "maxFileBytes">;

/** Two insertions at one place have no order; an insertion inside a replaced span has no meaning. */
function overlaps(a: ByteEdit, b: ByteEdit): boolean {
  const aEmpty = a.start === a.end;
  const bEmpty = b.start === b.end;
  if (aEmpty && bEmpty) return a.start === b.start;
  if (aEmpty) return b.start < a.start && a.start < b.end;
  if (bEmpty) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

class FileIndexes {
  private readonly indexes = new Map<string, TextIndex | string>();

  constructor(
    private readonly files: ReadonlyMap<string, Uint8Array>,
    private readonly maxFileBytes: number,
  ) {}

  /** The file's index, or why it cannot be edited. */
  get(path: string): TextIndex | string {
    let index = this.indexes.get(path);
    if (index === undefined) {
      const bytes = this.files.get(path);
      if (bytes === undefined) index = m.noSuchFile(path);
      else if (bytes.length > this.maxFileBytes) index = m.fileTooLarge(path, this.maxFileBytes);
      else index = new TextIndex(bytes);
      if (typeof index !== "string" && !index.isText()) index = m.notText(path);
      this.indexes.set(path, index);
    }
    return index;
  }
}

/** The fix's edits as byte edits, or why it cannot be applied. */
function placeFix(fix: Fix, indexes: FileIndexes): Placed[] | string {
  const placed: Placed[] = [];
  for (const edit of fix.edits) {
    const index = indexes.get(edit.path);
    if (typeof index === "string") return index;
    const resolved = resolveEdit(index, edit.range, edit.text, edit.expected);
    if (!resolved.ok) return resolved.reason;
    // Keep the file's line endings: LF newlines in the new text become CRLF in a CRLF file.
    const text = index.usesCrlf() ? resolved.edit.text.replace(/(?<!\r)\n/g, "\r\n") : resolved.edit.text;
    const next = { ...resolved.edit, text, path: edit.path };
    // Within one fix, insertions at one place keep the fix's order (SARIF's replacements are ordered).
    const clash = placed.some(
      (other) =>
        other.path === next.path &&
        overlaps(other, next) &&
        !(other.start === other.end && next.start === next.end),
    );
    if (clash) return m.overlapsItself;
    placed.push(next);
  }
  return placed;
}

function notApplied(fix: Fix, reason: string): ReviewComment {
  const path = fix.path ?? fix.edits[0]?.path;
  return toComment({
    ...(path !== undefined ? { path } : {}),
    ...(fix.path !== undefined && fix.line !== undefined ? { line: fix.line } : {}),
    severity: "info",
    message: m.fixNotApplied(reason),
    ...(fix.rule !== undefined ? { rule: fix.rule } : {}),
  });
}

/** The file with its accepted edits, which never overlap; insertions go before a span at their place. */
function rewrite(bytes: Uint8Array, edits: readonly Placed[]): Uint8Array {
  const sorted = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.order - b.order);
  const pieces: Uint8Array[] = [];
  let cursor = 0;
  for (const { edit } of sorted) {
    pieces.push(bytes.subarray(cursor, edit.start), Buffer.from(edit.text, "utf8"));
    cursor = edit.end;
  }
  pieces.push(bytes.subarray(cursor));
  return Buffer.concat(pieces);
}

/** Takes fixes in report order and keeps those that fit: the file, the earlier fixes and the limits. */
class Applier {
  readonly result: FixesApplied = { files: new Map(), applied: [], comments: [], warnings: [] };
  private readonly indexes: FileIndexes;
  private readonly accepted = new Map<string, Placed[]>();
  private edits = 0;
  private inserted = 0;
  private overLimit = 0;

  constructor(
    private readonly files: ReadonlyMap<string, Uint8Array>,
    private readonly limits: FixLimits,
  ) {
    this.indexes = new FileIndexes(files, limits.maxFileBytes);
  }

  offer(fix: Fix): void {
    // Past the limit the rest is cut, not picked over: which fixes apply must not depend on their size.
    if (this.overLimit > 0) {
      this.overLimit++;
      return;
    }
    const placed = placeFix(fix, this.indexes);
    if (typeof placed === "string") {
      this.result.comments.push(notApplied(fix, placed));
      return;
    }
    if (placed.some((edit) => this.accepted.get(edit.path)?.some((other) => overlaps(other, edit)))) {
      this.result.comments.push(notApplied(fix, m.overlapsEarlier));
      return;
    }
    const bytes = placed.reduce((sum, edit) => sum + Buffer.byteLength(edit.text, "utf8"), 0);
    if (
      this.edits + placed.length > this.limits.maxEdits ||
      this.inserted + bytes > this.limits.maxInsertedBytes
    ) {
      this.overLimit = 1;
      return;
    }
    this.edits += placed.length;
    this.inserted += bytes;
    for (const edit of placed) {
      const list = this.accepted.get(edit.path);
      if (list) list.push(edit);
      else this.accepted.set(edit.path, [edit]);
    }
    this.result.applied.push(fix);
  }

  finish(): FixesApplied {
    const { limits, result } = this;
    if (this.overLimit > 0)
      result.warnings.push(m.editsOverLimit(this.overLimit, limits.maxEdits, limits.maxInsertedBytes));
    for (const [path, list] of this.accepted) {
      const original = this.files.get(path) ?? new Uint8Array();
      const rewritten = rewrite(original, list);
      // Fixes that change nothing (an empty insertion) leave the file out: it did not change.
      if (Buffer.compare(rewritten, original) !== 0) result.files.set(path, rewritten);
    }
    return result;
  }
}

/** `files` holds the current contents of the files the fixes name (by tree path); they are not changed. */
export function applyFixes(
  fixes: readonly Fix[],
  files: ReadonlyMap<string, Uint8Array>,
  limits: FixLimits,
): FixesApplied {
  const applier = new Applier(files, limits);
  for (const fix of fixes) applier.offer(fix);
  return applier.finish();
}
