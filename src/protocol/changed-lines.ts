// The lines a focused review's change touched, derived from what the request already carries
// (`range.paths` and `range.patch`), so the worker and the local side read them the same way and
// wire protocol v1 needs no new field. The worker hands this document to every reviewer as
// $REVIEW_REMOTE_CHANGED_LINES (design §8); the local side keeps it to filter findings.
import { readFileLineName, readGitLineNames } from "../validate/patch-headers.js";

const CHANGED_LINES_SCHEMA = "git-review-remote/changed-lines@1";

/** Inclusive 1-based line numbers of the head version: [first, last]. */
export type LineSpan = [number, number];

interface ChangedFile {
  path: string;
  /** Lines the change added or changed; [] for a deleted file; null when unknown (binary, patch not sent). */
  added: LineSpan[] | null;
  /** The hunks' head-side spans, context lines included; null when unknown. */
  hunks: LineSpan[] | null;
}

export interface ChangedLines {
  schema: typeof CHANGED_LINES_SCHEMA;
  base: string;
  head: string;
  /** False when the patch was too large to send whole: the files it left out have null lines. */
  complete: boolean;
  files: ChangedFile[];
}

interface RangeText {
  base: string;
  head: string;
  paths: readonly string[];
  patch: string;
}

const HUNK_HEADER = /^@@ -[0-9]+(?:,[0-9]+)? \+([0-9]+)(?:,([0-9]+))? @@/;

/** Appends line `n` to sorted spans, joining it to the last span when adjacent. */
function addLine(spans: LineSpan[], n: number): void {
  const last = spans.at(-1);
  if (last && last[1] + 1 >= n) last[1] = Math.max(last[1], n);
  else spans.push([n, n]);
}

interface Section {
  path: string | undefined;
  added: LineSpan[] | null;
  hunks: LineSpan[] | null;
}

/** Walks one hunk from its header; returns the index of the first line after it. */
function readHunk(lines: readonly string[], start: number, section: Section): number {
  const match = HUNK_HEADER.exec(lines[start] as string);
  const first = Number(match?.[1] ?? 0);
  const count = match?.[2] === undefined ? 1 : Number(match[2]);
  // A hunk that only deletes has no head-side line: git names the line before the deletion (0: none).
  if (count > 0) section.hunks?.push([first, first + count - 1]);
  else if (first > 0) section.hunks?.push([first, first]);
  let next = first;
  let left = count;
  let i = start + 1;
  // Counted, not pattern-matched: an added line "+++ x" is content, not a header.
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("\\")) continue;
    if (left === 0 && !line.startsWith("-")) break;
    if (line.startsWith("+")) {
      if (section.added) addLine(section.added, next);
      next++;
      left--;
    } else if (line.startsWith(" ") || line === "") {
      next++;
      left--;
    } else if (!line.startsWith("-")) break;
  }
  return i;
}

/** The sections of a `git diff` patch, by head-side path. */
export function parsePatchLines(
  patch: string,
): Map<string, { added: LineSpan[] | null; hunks: LineSpan[] | null }> {
  const files = new Map<string, { added: LineSpan[] | null; hunks: LineSpan[] | null }>();
  const lines = patch.split("\n");
  let section: Section | undefined;
  const close = () => {
    if (section?.path !== undefined) files.set(section.path, { added: section.added, hunks: section.hunks });
  };
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as string;
    if (line.startsWith("diff --git ")) {
      close();
      const names = readGitLineNames(line.slice("diff --git ".length)).names;
      section = { path: names[1] ?? names[0], added: [], hunks: [] };
    } else if (section && line.startsWith("+++ ")) {
      const name = readFileLineName(line.slice(4), "b/").names[0];
      if (name !== undefined) section.path = name;
    } else if (section && line.startsWith("Binary files ")) {
      section.added = null;
      section.hunks = null;
    } else if (section && HUNK_HEADER.test(line)) {
      i = readHunk(lines, i, section);
      continue;
    }
    i++;
  }
  close();
  return files;
}

/**
 * What `range` says changed, line by line. Every changed path has a section in a whole patch (even
 * a binary or mode change prints one), so a path without one was left out of a patch too large to
 * send (design §6): the path is known, its lines are not.
 */
export function changedLinesOf(range: RangeText): ChangedLines {
  const parsed = parsePatchLines(range.patch);
  const files = range.paths.map((path): ChangedFile => {
    const found = parsed.get(path);
    return { path, added: found?.added ?? null, hunks: found?.hunks ?? null };
  });
  const complete = range.paths.every((path) => parsed.has(path));
  return { schema: CHANGED_LINES_SCHEMA, base: range.base, head: range.head, complete, files };
}

/** The file sections of a `git diff` patch, in order. */
function patchSections(patch: string): string[] {
  // Content lines start with " ", "+", "-" or a backslash: only a section starts "diff --git ".
  const starts: number[] = patch.startsWith("diff --git ") ? [0] : [];
  for (let at = patch.indexOf("\ndiff --git "); at !== -1; at = patch.indexOf("\ndiff --git ", at + 1)) {
    starts.push(at + 1);
  }
  return starts.map((start, i) => patch.slice(start, starts[i + 1] ?? patch.length));
}

/** The UTF-8 bytes of `text` as a JSON string's content: what it takes in the request line. */
function escapedBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}

/**
 * A patch cut to at most `maxBytes`, and to at most `maxEscaped` once escaped as a JSON string (a
 * patch of tabs and quotes grows in the request line): whole file sections, the largest left out
 * first, the rest in their order. `kept` counts the sections that stayed, `total` all of them.
 */
export function fitPatch(
  patch: string,
  maxBytes: number,
  maxEscaped = Number.POSITIVE_INFINITY,
): { patch: string; kept: number; total: number } {
  const sections = patchSections(patch);
  const sizes = sections.map((section) => Buffer.byteLength(section));
  const escaped = sections.map(escapedBytes);
  let bytes = sizes.reduce((sum, size) => sum + size, 0);
  let inLine = escaped.reduce((sum, size) => sum + size, 0);
  const dropped = new Set<number>();
  const largestFirst = sizes.map((_, i) => i).sort((a, b) => (sizes[b] as number) - (sizes[a] as number));
  for (const i of largestFirst) {
    if (bytes <= maxBytes && inLine <= maxEscaped) break;
    dropped.add(i);
    bytes -= sizes[i] as number;
    inLine -= escaped[i] as number;
  }
  const kept = sections.filter((_, i) => !dropped.has(i));
  return { patch: kept.join(""), kept: kept.length, total: sections.length };
}
