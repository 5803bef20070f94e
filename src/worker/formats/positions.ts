// Turns a report's positions (lines and columns in bytes, UTF-16 units or code points; offsets) into
// byte offsets of one file, refusing anything past the end or inside a character rather than guessing.
// Lines end at LF (CRLF's CR belongs to the newline), as ESLint's, Biome's and ast-grep's lines do.

import { workerMessages as m } from "../messages.js";
import type { ColumnUnit, EditRange, LineColumn } from "./types.js";

/** A byte range of the file and the text to put there. */
export interface ByteEdit {
  start: number;
  end: number;
  text: string;
}

export type Resolved = { ok: true; edit: ByteEdit } | { ok: false; reason: string };
type Offset = number | string;

const decoder = new TextDecoder("utf-8", { fatal: true });

export class TextIndex {
  /** Byte offset where each line starts; a file ending in a newline has an empty last line. */
  private readonly starts: number[] = [0];

  constructor(readonly bytes: Uint8Array) {
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** True for UTF-8 text without NUL: the only files edits touch. */
  isText(): boolean {
    if (this.bytes.includes(0)) return false;
    try {
      decoder.decode(this.bytes);
      return true;
    } catch {
      return false;
    }
  }

  /** Every newline is CRLF (and there is one): text inserted with LF newlines gets CRLF. */
  usesCrlf(): boolean {
    if (this.starts.length < 2) return false;
    return this.starts.slice(1).every((start) => start >= 2 && this.bytes[start - 2] === 0x0d);
  }

  lineStart(line: number): number {
    return this.starts[line - 1] ?? this.bytes.length;
  }

  /** Where the line's content ends, before its LF or CRLF. */
  contentEnd(line: number): number {
    const next = this.starts[line];
    if (next === undefined) return this.bytes.length;
    return next >= 2 && this.bytes[next - 2] === 0x0d ? next - 2 : next - 1;
  }

  /** The 1-based line holding byte `offset`. */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  isBoundary(offset: number): boolean {
    const byte = this.bytes[offset];
    return byte === undefined || (byte & 0xc0) !== 0x80;
  }

  /** Byte offset of a 1-based column on a line, or why there is none. */
  columnOffset(line: number, column: number, unit: ColumnUnit): Offset {
    if (line < 1 || line > this.lineCount) return m.lineOutOfRange(line, this.lineCount);
    if (column < 1) return m.columnOutOfRange(line, column);
    const start = this.lineStart(line);
    const end = this.contentEnd(line);
    const offset = unit === "utf8" ? start + column - 1 : walk(this.bytes, start, end, column - 1, unit);
    if (offset === PAST_END || (typeof offset === "number" && offset > end))
      return m.columnOutOfRange(line, column);
    if (offset === SPLIT || !this.isBoundary(offset)) return m.columnSplitsCharacter(line, column);
    return offset;
  }

  /** Byte offset of `count` UTF-16 units or code points from the start of the file. */
  charOffset(count: number, unit: ColumnUnit): Offset {
    if (unit === "utf8") return this.byteOffset(count);
    const offset = walk(this.bytes, 0, this.bytes.length, count, unit);
    if (offset === PAST_END) return m.offsetOutOfRange(count, this.bytes.length);
    return offset === SPLIT ? m.splitsCharacter(count) : offset;
  }

  byteOffset(offset: number): Offset {
    if (offset > this.bytes.length) return m.offsetOutOfRange(offset, this.bytes.length);
    return this.isBoundary(offset) ? offset : m.splitsCharacter(offset);
  }
}

const PAST_END = "past the end";
const SPLIT = "inside a character";

/** Byte offset after `count` units from `start`, within `end`: UTF-16 counts a 4-byte character twice. */
function walk(
  bytes: Uint8Array,
  start: number,
  end: number,
  count: number,
  unit: ColumnUnit,
): number | typeof PAST_END | typeof SPLIT {
  let offset = start;
  let units = 0;
  while (units < count) {
    if (offset >= end) return PAST_END;
    const lead = bytes[offset] ?? 0;
    const length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    const width = unit === "utf16" && length === 4 ? 2 : 1;
    if (units + width > count) return SPLIT;
    units += width;
    offset += length;
  }
  return offset;
}

function position(index: TextIndex, at: LineColumn, unit: ColumnUnit, isEnd: boolean): Offset {
  if (at.column === undefined && isEnd) {
    if (at.line < 1 || at.line > index.lineCount) return m.lineOutOfRange(at.line, index.lineCount);
    return index.contentEnd(at.line);
  }
  return index.columnOffset(at.line, at.column ?? 1, unit);
}

function byteRange(index: TextIndex, range: EditRange): { start: Offset; end: Offset; eol?: string } {
  switch (range.kind) {
    case "bytes":
      return { start: index.byteOffset(range.offset), end: index.byteOffset(range.offset + range.length) };
    case "chars":
      return {
        start: index.charOffset(range.offset, range.unit),
        end: index.charOffset(range.offset + range.length, range.unit),
      };
    case "lineColumn":
      return {
        start: position(index, range.start, range.unit, false),
        end: position(index, range.end, range.unit, true),
      };
    case "lines": {
      const { startLine, endLine } = range;
      if (endLine < startLine) return { start: m.endBeforeStart, end: 0 };
      if (startLine < 1 || endLine > index.lineCount)
        return { start: m.lineOutOfRange(endLine, index.lineCount), end: 0 };
      const end = index.lineStart(endLine + 1);
      const eol = new TextDecoder().decode(index.bytes.subarray(index.contentEnd(endLine), end));
      return { start: index.lineStart(startLine), end, eol };
    }
  }
}

/** Checks a SARIF region's line numbers against its byte offsets: a cheap test for stale reports. */
function checkLines(index: TextIndex, range: EditRange, start: number, end: number): string | undefined {
  if (range.kind !== "bytes") return undefined;
  if (range.startLine !== undefined && index.lineOf(start) !== range.startLine)
    return m.lineMismatch(start, range.startLine);
  // An end right after a newline may be given as the end of that line or the start of the next.
  const { endLine } = range;
  if (endLine !== undefined && index.lineOf(end) !== endLine && index.lineStart(endLine + 1) !== end)
    return m.lineMismatch(end, endLine);
  return undefined;
}

/** The byte edit an edit's range and text make on this file, or why it does not fit the file. */
export function resolveEdit(index: TextIndex, range: EditRange, text: string, expected?: string): Resolved {
  const { start, end, eol } = byteRange(index, range);
  if (typeof start === "string") return { ok: false, reason: start };
  if (typeof end === "string") return { ok: false, reason: end };
  if (end < start) return { ok: false, reason: m.endBeforeStart };
  const mismatch = checkLines(index, range, start, end);
  if (mismatch) return { ok: false, reason: mismatch };
  if (expected !== undefined && decoder.decode(index.bytes.subarray(start, end)) !== expected)
    return { ok: false, reason: m.textMismatch };
  // rdjson's whole-line suggestions (GitHub suggestion blocks) end with the newline they replaced.
  const replacement = eol !== undefined && text !== "" ? text + eol : text;
  return { ok: true, edit: { start, end, text: replacement } };
}
