// The hygiene reviewer's checks on one file's bytes: pure functions, no I/O, so every rule is unit-tested.
// Text is handled as latin1 (one char per byte) so no byte of the blob is ever re-encoded.

export interface ConflictBlock {
  line: number;
  endLine: number;
}

export interface TextReport {
  /** The fixed bytes, when trailing whitespace or the final newline needed fixing. */
  fixed?: Buffer;
  trailingWhitespaceLines: number;
  missingFinalNewline: boolean;
  conflicts: ConflictBlock[];
  /** Set when both CRLF and bare LF line endings occur. */
  mixedLineEndings?: { crlf: number; lf: number; firstMinorityLine: number };
}

/** git's own heuristic (xdiff): a NUL in the first 8000 bytes means binary. */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const CONFLICT_START = Buffer.from("<<<<<<<");

/**
 * Whether a file has nothing any check could find, by searches of its bytes: it ends with a newline
 * (or is empty), has no CR, no run of seven `<` (a conflict block's start) and no blank before a
 * newline. Most files of a tree are so, and then neither the lines nor the fix rules are worked out
 * at all (the lines of 20k files cost the built-in reviewer some 0.2 s of CPU). The blanks are found
 * from each newline (memchr, a line at a time): a search for " \n" itself stops at every space.
 */
export function isCleanText(content: Buffer): boolean {
  if (content.length > 0 && content[content.length - 1] !== NEWLINE) return false;
  if (content.indexOf(CR) !== -1 || content.includes(CONFLICT_START)) return false;
  for (let at = content.indexOf(NEWLINE); at !== -1; at = content.indexOf(NEWLINE, at + 1)) {
    const before = content[at - 1];
    if (before === SPACE || before === TAB) return false;
  }
  return true;
}

/**
 * isCleanText over a file's bytes as they stream by, for the unpack to note which files the built-in
 * reviewer need not read back: the same answer as isCleanText of all of them (tested on every split).
 */
export class CleanTextStream {
  private clean = true;
  /** The bytes written so far. */
  bytes = 0;
  /** The last bytes so far (at most six): a conflict start or a blank may straddle two chunks. */
  private tail = Buffer.alloc(0);

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (!this.clean || chunk.length === 0) return;
    if (chunk.indexOf(CR) !== -1 || chunk.includes(CONFLICT_START)) {
      this.clean = false;
      return;
    }
    const seam = this.tail.length > 0 ? Buffer.concat([this.tail, chunk.subarray(0, 6)]) : undefined;
    if (seam?.includes(CONFLICT_START)) {
      this.clean = false;
      return;
    }
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
      const before = at > 0 ? chunk[at - 1] : this.tail[this.tail.length - 1];
      if (before === SPACE || before === TAB) {
        this.clean = false;
        return;
      }
    }
    this.tail =
      chunk.length >= 6
        ? Buffer.from(chunk.subarray(chunk.length - 6))
        : Buffer.concat([this.tail, chunk]).subarray(-6);
  }

  /** Whether the bytes written, all of them, are clean text. */
  isClean(): boolean {
    return this.clean && (this.bytes === 0 || this.tail[this.tail.length - 1] === NEWLINE);
  }
}

const START = /^<{7}(?: |$)/;
const MIDDLE = /^={7}$/;
const END = /^>{7}(?: |$)/;

/** `<<<<<<< ` ... a lone `=======` ... `>>>>>>> ` in that order; lines are 1-based. */
export function findConflictMarkers(lines: readonly string[]): ConflictBlock[] {
  const blocks: ConflictBlock[] = [];
  let start = -1;
  let middle = false;
  lines.forEach((line, index) => {
    if (START.test(line)) {
      start = index;
      middle = false;
    } else if (start !== -1 && MIDDLE.test(line)) {
      middle = true;
    } else if (start !== -1 && middle && END.test(line)) {
      blocks.push({ line: start + 1, endLine: index + 1 });
      start = -1;
      middle = false;
    }
  });
  return blocks;
}

/** Which fixes one file may get: the lines whose trailing whitespace may go, and the final newline. */
export interface FixRules {
  /** 1-based line number and the line without its line ending. */
  trims(line: number, body: string): boolean;
  finalNewline: boolean;
}

const FIX_ALL: FixRules = { trims: () => true, finalNewline: true };

/**
 * Where `body`'s trailing blanks (spaces and tabs) start: its length when it has none. What
 * /[ \t]+$/ finds, without a regex retried at every blank of every line (a tenth of the built-in
 * reviewer's time on a 200-file tree).
 */
function trailingStart(body: string): number {
  let end = body.length;
  for (let c = body.charCodeAt(end - 1); c === 0x20 || c === 0x09; c = body.charCodeAt(end - 1)) end--;
  return end;
}

const hasTrailing = (body: string) => trailingStart(body) < body.length;
const withoutTrailing = (body: string) => body.slice(0, trailingStart(body));

export function checkText(content: Buffer, rules: FixRules = FIX_ALL): TextReport {
  if (isCleanText(content)) return { trailingWhitespaceLines: 0, missingFinalNewline: false, conflicts: [] };
  const text = content.toString("latin1");
  const parts = text.split("\n");
  // parts[i] is line i+1 without "\n"; the last part is what follows the last "\n" (often "").
  const lastHasNewline = parts.at(-1) === "";
  if (lastHasNewline) parts.pop();
  let crlf = 0;
  let lf = 0;
  const endings: boolean[] = [];
  const bodies = parts.map((part, index) => {
    const isCrlf = part.endsWith("\r") && (index < parts.length - 1 || lastHasNewline);
    endings.push(isCrlf);
    if (index < parts.length - 1 || lastHasNewline) {
      if (isCrlf) crlf++;
      else lf++;
    }
    return isCrlf ? part.slice(0, -1) : part;
  });
  const trailing = bodies.filter(hasTrailing).length;
  const missingFinalNewline = text.length > 0 && !lastHasNewline;
  const report: TextReport = {
    trailingWhitespaceLines: trailing,
    missingFinalNewline,
    conflicts: findConflictMarkers(bodies.map(withoutTrailing)),
  };
  if (crlf > 0 && lf > 0) {
    const minorityIsCrlf = crlf < lf;
    report.mixedLineEndings = { crlf, lf, firstMinorityLine: endings.indexOf(minorityIsCrlf) + 1 };
  }
  const fixed = fixLines(bodies, endings, { missingFinalNewline, useCrlf: crlf > lf }, rules);
  if (fixed !== undefined) report.fixed = Buffer.from(fixed, "latin1");
  return report;
}

/** The text with the fixes `rules` allow, or undefined when none applies. */
function fixLines(
  bodies: readonly string[],
  endings: readonly boolean[],
  file: { missingFinalNewline: boolean; useCrlf: boolean },
  rules: FixRules,
): string | undefined {
  let changed = false;
  const stripped = bodies.map((body, index) => {
    if (!hasTrailing(body) || !rules.trims(index + 1, body)) return body;
    changed = true;
    return withoutTrailing(body);
  });
  // The line ending each line gets; the last stays without one unless the final newline is added.
  const ending = (index: number) => (endings[index] ? "\r\n" : "\n");
  let last = file.missingFinalNewline ? "" : undefined;
  if (file.missingFinalNewline && rules.finalNewline) {
    changed = true;
    // A last line of only blanks and no newline is dropped rather than turned into an empty line.
    if (stripped.at(-1) === "" && stripped.length > 1) stripped.pop();
    last = file.useCrlf ? "\r\n" : "\n";
  }
  if (!changed) return undefined;
  return stripped
    .map((body, index) => body + (index === stripped.length - 1 && last !== undefined ? last : ending(index)))
    .join("");
}
