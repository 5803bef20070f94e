// The content scan of one text, streaming, in bounded memory.
//
// Content arrives in arbitrary chunks and is scanned in windows of WINDOW bytes. Each window is
// prefixed with the end of the previous one: CONTEXT characters that are only read (so a regex starts
// in step with the tokens) and TAIL characters that were not yet accepted (so a token split across
// windows is seen whole). A hit is accepted in exactly one window: the one where its secret starts
// before the cut. Bytes are decoded as latin1, one character per byte, so invalid UTF-8 cannot throw.
import { allowedInlineBy, type LineMarker, parseInlineAllow } from "./allow.js";
import type { FileScan, Finding } from "./finding.js";
import type { MarkerHit, WindowMatcher } from "./matcher.js";
import type { ContentRule } from "./rules/rule.js";
import { MAX_MATCH_LENGTH } from "./rules/rule.js";
import { createFinding, type ScanSite } from "./scan-settings.js";

const WINDOW = 256 * 1024;
const CONTEXT = MAX_MATCH_LENGTH;
const TAIL = MAX_MATCH_LENGTH + 512;
/** How much of a marker's line is read for its rule list. */
const MARKER_LIST_LENGTH = 512;

export class TextScan implements FileScan {
  private readonly matcher: WindowMatcher;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private ended = false;
  /** Bytes kept from the previous window, and where their not-yet-accepted part starts. */
  private carry: Buffer = Buffer.alloc(0);
  private carryAccept = 0;
  /** Newlines before the start of `carry`. */
  private linesBeforeCarry = 0;
  private readonly findings: Finding[] = [];
  private readonly seen = new Set<string>();
  /** Inline markers by line, kept only for lines that have a finding or may still get one. */
  private readonly markers = new Map<number, LineMarker[]>();

  /** `rulePath` names the text for the rules that apply to some files only (a member's own name). */
  constructor(
    private readonly site: ScanSite,
    rulePath = site.path,
  ) {
    this.matcher = site.settings.matcherFor(rulePath);
  }

  write(chunk: Buffer): void {
    if (this.ended) throw new Error(`content scan of ${this.site.path} written after end`);
    if (chunk.length === 0) return;
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(WINDOW - this.pendingBytes, chunk.length - offset);
      const part = chunk.subarray(offset, offset + take);
      // Kept, not copied (FileScan): tar chunks go on to gzip too, which only reads them.
      this.pending.push(part);
      this.pendingBytes += take;
      offset += take;
      if (this.pendingBytes === WINDOW) this.flush(false);
    }
  }

  end(): Finding[] {
    if (this.ended) throw new Error(`content scan of ${this.site.path} ended twice`);
    this.flush(true);
    this.ended = true;
    this.pending = [];
    this.carry = Buffer.alloc(0);
    const kept: Finding[] = [];
    for (const finding of this.findings) {
      const marker = allowedInlineBy(this.markers.get(finding.line) ?? [], finding);
      if (marker === undefined) kept.push(finding);
      else this.site.settings.onAllowed({ ...finding, allowedBy: marker });
    }
    return kept;
  }

  private flush(final: boolean): void {
    const bytes =
      this.carry.length === 0 && this.pending.length === 1
        ? (this.pending[0] as Buffer)
        : Buffer.concat([this.carry, ...this.pending]);
    this.pending = [];
    this.pendingBytes = 0;
    this.scanWindow(bytes, final);
  }

  private scanWindow(bytes: Buffer, final: boolean): void {
    // The window as text (latin1: a character per byte, so offsets agree), made only when needed: a
    // window without a keyword has no regex to run.
    let text: string | undefined;
    const textOf = () => {
      text ??= bytes.toString("latin1");
      return text;
    };
    const from = this.carryAccept;
    const cut = final ? bytes.length : Math.max(from, bytes.length - TAIL);
    const keepFrom = Math.max(0, cut - CONTEXT);
    const { hits, markers } = this.matcher.findMatches(bytes, textOf, from, cut);
    const marks = markers.length > 0 ? parseMarkers(textOf(), markers) : [];
    // The last window and nothing in it: no line number is needed (most files are one window).
    if (final && hits.length === 0 && marks.length === 0) {
      this.carry = Buffer.alloc(0);
      return;
    }
    const lines = lineNumbers(textOf(), this.linesBeforeCarry, [
      ...hits.map((hit) => hit.index),
      ...marks.map((mark) => mark.index),
      keepFrom,
      cut,
    ]);
    const lineOf = (offset: number) => lines.get(offset) as number;
    for (const hit of hits) this.addFinding(lineOf(hit.index), hit.rule, hit.secret);
    for (const mark of marks) {
      const line = lineOf(mark.index);
      this.markers.set(line, [...(this.markers.get(line) ?? []), mark]);
    }
    this.pruneMarkers(lineOf(cut));
    this.linesBeforeCarry = lineOf(keepFrom) - 1;
    this.carry = bytes.subarray(keepFrom);
    this.carryAccept = cut - keepFrom;
  }

  private addFinding(line: number, rule: ContentRule, secret: string): void {
    const key = `${line}:${rule.id}:${secret}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const finding = createFinding(this.site, { line, rule: rule.id, description: rule.description, secret });
    if (finding) this.findings.push(finding);
  }

  /** Markers on finished lines matter only where there is a finding. */
  private pruneMarkers(openLine: number): void {
    for (const line of this.markers.keys()) {
      if (line < openLine && !this.findings.some((finding) => finding.line === line))
        this.markers.delete(line);
    }
  }
}

interface Marker extends LineMarker {
  index: number;
}

/** The allow each marker occurrence expresses, read from the rest of its line. */
function parseMarkers(text: string, hits: readonly MarkerHit[]): Marker[] {
  const marks: Marker[] = [];
  for (const { index, marker } of hits) {
    const listStart = index + marker.length;
    const lineEnd = text.indexOf("\n", listStart);
    const listEnd = Math.min(lineEnd === -1 ? text.length : lineEnd, listStart + MARKER_LIST_LENGTH);
    const allow = parseInlineAllow(text.slice(listStart, listEnd), marker);
    if (allow) marks.push({ index, allow, marker });
  }
  return marks;
}

/**
 * A line's end: `\n` (the `\n` of `\r\n`) or a `\r` alone, as an old Mac file ends its lines. Counted
 * by git's rule alone (`\n`), a file of `\r` lines is one line, and a marker anywhere in it would
 * allow every secret in the file.
 */
const LINE_END = /\r(?!\n)|\n/g;

/** 1-based line number of each offset, given the line ends before the text; one pass over the text. */
function lineNumbers(text: string, linesBefore: number, offsets: number[]): Map<number, number> {
  const lines = new Map<number, number>();
  let line = linesBefore + 1;
  LINE_END.lastIndex = 0;
  let end = LINE_END.exec(text);
  for (const offset of offsets.sort((a, b) => a - b)) {
    while (end !== null && end.index < offset) {
      line++;
      end = LINE_END.exec(text);
    }
    lines.set(offset, line);
  }
  return lines;
}
