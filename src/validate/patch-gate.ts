// Validation layer 2 (design §9): the patch text itself, before git reads it. Only `git diff` output
// passes: every line is a known header, a hunk line counted against its @@ header, or binary data when
// allowed. git apply would also take a traditional `--- /etc/x` patch glued after a git one, copies from
// files the worker never saw, and names with control bytes; none of these get through here.

import { checkPath } from "../paths/result.js";
import { readFileLineName, readGitLineNames, readPlainLineName } from "./patch-headers.js";

export interface PatchGateOptions {
  maxPatchBytes: number;
  allowBinary?: boolean;
  /** File sections per patch; the byte cap bounds them too, this keeps error lists and work short. */
  maxFiles?: number;
}

const DEFAULT_MAX_FILES_PER_PATCH = 5000;
const MAX_PROBLEMS = 20;

/** Extended header lines of `git diff` (diff-generate-patch(5)), name-bearing ones handled apart. */
const PLAIN_HEADER = [
  /^(?:old|new) mode [0-7]{6}$/,
  /^(?:deleted|new) file mode [0-7]{6}$/,
  /^(?:dis)?similarity index [0-9]{1,3}%$/,
  /^index [0-9a-f]{4,64}\.\.[0-9a-f]{4,64}(?: [0-7]{6})?$/,
];
const HUNK_HEADER = /^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@/;

type State = "header" | "minus" | "plus" | "hunk" | "afterHunk" | "binary" | "end";

/** One file section of a patch as the gate read it: its text, every name its headers claim, its hunks. */
export interface PatchSection {
  text: string;
  names: string[];
  hunks: number;
}

interface SectionSpan {
  firstLine: number;
  names: string[];
  hunks: number;
}

class PatchScanner {
  readonly problems: string[] = [];
  private readonly reported = new Set<string>();
  private state: State = "header";
  private files = 0;
  private sectionNames = new Set<string>();
  private oldLeft = 0;
  private newLeft = 0;
  private lineNo = 0;
  private sectionLine = 0;
  /** Where each file section starts (0-based line), with what the gate read of it. */
  readonly sections: SectionSpan[] = [];

  constructor(private readonly options: PatchGateOptions) {}

  scan(lines: readonly string[]): void {
    for (const line of lines) {
      this.lineNo++;
      this.scanLine(line);
      if (this.problems.length >= MAX_PROBLEMS) return;
    }
    if (this.state === "minus" || this.state === "plus") this.problem("patch ends before its first hunk");
    if (this.state === "hunk") this.problem("patch ends inside a hunk (truncated?)");
    this.endSection();
  }

  /** Each distinct problem once, at its first line (a bad name shows up on up to four lines). */
  private problem(message: string, lineNo = this.lineNo): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.problems.push(`line ${lineNo}: ${message}`);
  }

  private scanLine(line: string): void {
    if (this.state === "hunk") this.hunkLine(line);
    else if (line.startsWith("diff --git ")) this.startSection(line.slice("diff --git ".length));
    else if (this.state === "binary") this.binaryLine(line);
    else if (line.includes("\r")) this.problem("carriage return in a header line");
    else this.structureLine(line);
  }

  private structureLine(line: string): void {
    switch (this.state) {
      case "header":
        this.headerLine(line);
        break;
      case "minus":
        this.fileLine(line, "+++ ", "b/", "plus");
        break;
      case "plus":
        this.hunkHeader(line);
        break;
      case "afterHunk":
        this.afterHunkLine(line);
        break;
      default:
        this.problem("unexpected line after a binary file section");
    }
  }

  private binaryLine(line: string): void {
    if (line.includes("\r")) this.problem("carriage return in binary patch data");
  }

  private startSection(rest: string): void {
    if (this.state === "minus" || this.state === "plus") this.problem("file section without hunks");
    this.endSection();
    this.files++;
    this.sectionLine = this.lineNo;
    this.sections.push({ firstLine: this.lineNo - 1, names: [], hunks: 0 });
    if (this.files === (this.options.maxFiles ?? DEFAULT_MAX_FILES_PER_PATCH) + 1) {
      this.problem(`more than ${this.options.maxFiles ?? DEFAULT_MAX_FILES_PER_PATCH} files in one patch`);
    }
    this.state = "header";
    if (rest.includes("\r")) {
      this.problem("carriage return in a header line");
      return;
    }
    this.addNames(readGitLineNames(rest));
  }

  private endSection(): void {
    for (const name of this.sectionNames) {
      for (const problem of checkPath(name)) this.problem(problem, this.sectionLine);
    }
    if (this.files > 0 && this.sectionNames.size === 0) {
      this.problem("cannot tell which file this section is for", this.sectionLine);
    }
    const section = this.sections.at(-1);
    if (section) section.names = [...this.sectionNames];
    this.sectionNames = new Set();
  }

  private addNames(found: { names: string[]; problems: string[] }): void {
    for (const problem of found.problems) this.problem(problem);
    for (const name of found.names) this.sectionNames.add(name);
  }

  private headerLine(line: string): void {
    if (PLAIN_HEADER.some((pattern) => pattern.test(line))) return;
    const rename = /^rename (?:from|to) /.exec(line);
    if (rename) {
      this.addNames(readPlainLineName(line.slice(rename[0].length)));
      return;
    }
    if (/^copy (?:from|to) /.test(line)) {
      this.problem("copies are not accepted (a copy can duplicate a file the worker never saw)");
      return;
    }
    if (line.startsWith("--- ")) {
      this.fileLine(line, "--- ", "a/", "minus");
      return;
    }
    if (line.startsWith("Binary files ") || line === "GIT binary patch") {
      this.binaryStart(line);
      return;
    }
    this.problem("not a line of git diff output");
  }

  private binaryStart(line: string): void {
    if (!this.options.allowBinary) {
      this.problem("binary patches are not accepted");
      return;
    }
    this.state = line === "GIT binary patch" ? "binary" : "end";
  }

  private fileLine(line: string, marker: "--- " | "+++ ", prefix: "a/" | "b/", next: State): void {
    if (!line.startsWith(marker)) {
      this.problem(`expected a "${marker.trim()}" line`);
      return;
    }
    this.addNames(readFileLineName(line.slice(marker.length), prefix));
    this.state = next;
  }

  private hunkHeader(line: string): void {
    const match = HUNK_HEADER.exec(line);
    if (!match) {
      this.problem("expected a hunk header (@@ -a,b +c,d @@)");
      return;
    }
    this.oldLeft = Number(match[2] ?? "1");
    this.newLeft = Number(match[4] ?? "1");
    if (this.oldLeft === 0 && this.newLeft === 0) {
      this.problem("empty hunk");
      return;
    }
    const section = this.sections.at(-1);
    if (section) section.hunks++;
    this.state = "hunk";
  }

  private hunkLine(line: string): void {
    const kind = line[0] ?? " ";
    if (kind === "\\") return;
    if (kind === " " || kind === "-") this.oldLeft--;
    if (kind === " " || kind === "+") this.newLeft--;
    if (kind !== " " && kind !== "-" && kind !== "+") {
      this.problem("unexpected line inside a hunk");
      return;
    }
    if (this.oldLeft < 0 || this.newLeft < 0) {
      this.problem("hunk is longer than its header says");
      return;
    }
    if (this.oldLeft === 0 && this.newLeft === 0) this.state = "afterHunk";
  }

  private afterHunkLine(line: string): void {
    if (line.startsWith("\\")) return;
    if (line.startsWith("@@ ")) {
      this.hunkHeader(line);
      return;
    }
    this.problem("unexpected line after a hunk");
  }
}

/** The checks that need no parsing; undefined when the patch may be scanned line by line. */
function checkPatchBytes(patch: string, options: PatchGateOptions): string[] | undefined {
  const bytes = Buffer.byteLength(patch, "utf8");
  if (bytes > options.maxPatchBytes) {
    return [`patch is ${bytes} bytes, over the limit of ${options.maxPatchBytes}`];
  }
  if (patch.includes("\0")) return ["patch contains a NUL byte"];
  // JSON's \ud800 escapes survive UTF-8 validation; git would get U+FFFD instead of what was checked.
  if (/\p{Cs}/u.test(patch)) return ["patch contains a lone surrogate (not valid Unicode)"];
  if (!patch.startsWith("diff --git ")) {
    return ['patch does not start with "diff --git " (only git diff output is accepted)'];
  }
  if (!patch.endsWith("\n")) return ["patch does not end with a newline (truncated?)"];
  return undefined;
}

/** The gate's reading of a patch: its problems, and, when it was scanned, its lines and sections. */
function scanPatch(
  patch: string,
  options: PatchGateOptions,
): { problems: string[]; lines: string[]; sections: SectionSpan[] } {
  const refused = checkPatchBytes(patch, options);
  if (refused) return { problems: refused, lines: [], sections: [] };
  const lines = patch.slice(0, -1).split("\n");
  const scanner = new PatchScanner(options);
  scanner.scan(lines);
  return { problems: scanner.problems, lines, sections: scanner.sections };
}

/** Layer-2 problems with one commit's patch text; empty when it may be handed to git apply. */
export function checkPatchText(patch: string, options: PatchGateOptions): string[] {
  return scanPatch(patch, options).problems;
}

/**
 * The file sections of a patch that passes the gate, each with the names the gate read from its
 * headers (both of a rename) and its hunk count; undefined when the gate refuses the patch. Each
 * section's text is a patch of its own: the sections joined again are the patch.
 */
export function readPatchSections(patch: string, options: PatchGateOptions): PatchSection[] | undefined {
  const { problems, lines, sections } = scanPatch(patch, options);
  if (problems.length > 0) return undefined;
  return sections.map((section, i) => {
    const end = sections[i + 1]?.firstLine ?? lines.length;
    const text = `${lines.slice(section.firstLine, end).join("\n")}\n`;
    return { text, names: section.names, hunks: section.hunks };
  });
}
