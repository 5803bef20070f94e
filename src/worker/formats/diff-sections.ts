// Splits a unified diff into its file sections the way patch(1) and git apply read one: hunks are
// counted against their @@ headers (so a removed line "-- x" is never taken for a "--- x" header), and
// text between sections is set aside instead of being glued to the file before it.

const HUNK_HEADER = /^@@ -[0-9]+(?:,([0-9]+))? \+[0-9]+(?:,([0-9]+))? @@/;

export interface DiffSection {
  /** True when the tool wrote a `diff --git` line; otherwise the section starts at `---`/`+++`. */
  git: boolean;
  lines: string[];
  /** The report's 1-based line number of each line. */
  origins: number[];
}

export interface SplitDiff {
  sections: DiffSection[];
  /** Line numbers of non-blank text outside every section. */
  skipped: number[];
}

class Splitter {
  readonly result: SplitDiff = { sections: [], skipped: [] };
  private section: DiffSection | undefined;
  private sawHunk = false;
  private oldLeft = 0;
  private newLeft = 0;

  private start(git: boolean): void {
    this.section = { git, lines: [], origins: [] };
    this.result.sections.push(this.section);
    this.sawHunk = false;
  }

  private keep(line: string, origin: number): void {
    this.section?.lines.push(line);
    this.section?.origins.push(origin);
  }

  /** Inside a hunk: counts the line; a line that cannot be in a hunk is kept for the gate to name. */
  private hunkLine(line: string, origin: number): void {
    this.keep(line, origin);
    const kind = line[0] ?? " ";
    if (kind === " " || kind === "-") this.oldLeft--;
    if (kind === " " || kind === "+") this.newLeft--;
    if (kind !== " " && kind !== "-" && kind !== "+" && kind !== "\\") this.section = undefined;
  }

  private hunkHeader(line: string, origin: number): void {
    const match = HUNK_HEADER.exec(line);
    this.oldLeft = Number(match?.[1] ?? "1");
    this.newLeft = Number(match?.[2] ?? "1");
    this.sawHunk = true;
    this.keep(line, origin);
  }

  line(line: string, next: string | undefined, origin: number): number {
    if (this.section && (this.oldLeft > 0 || this.newLeft > 0)) {
      this.hunkLine(line, origin);
      return 1;
    }
    const inGitHeader = this.section?.git === true && !this.sawHunk;
    if (line.startsWith("diff --git ")) this.start(true);
    else if (line.startsWith("--- ") && next?.startsWith("+++ ") && !inGitHeader) {
      this.start(false);
      this.keep(line, origin);
      this.keep(next, origin + 1);
      return 2;
    } else if (this.section && line.startsWith("@@")) {
      this.hunkHeader(line, origin);
      return 1;
    } else if (!this.section || (!inGitHeader && !line.startsWith("\\"))) {
      this.section = undefined;
      // The `diff <options> <a> <b>` line diff -r and gofmt -d write before a file's ---/+++ is its header.
      const diffLine = line.startsWith("diff ") && next?.startsWith("--- ") === true;
      if (line.trim() !== "" && !diffLine) this.result.skipped.push(origin);
      return 1;
    }
    this.keep(line, origin);
    return 1;
  }
}

/** `lines` without their LF; a CR before it stays, as patch content. */
export function splitDiff(lines: readonly string[]): SplitDiff {
  const splitter = new Splitter();
  let i = 0;
  while (i < lines.length) i += splitter.line(lines[i] ?? "", lines[i + 1], i + 1);
  return splitter.result;
}
