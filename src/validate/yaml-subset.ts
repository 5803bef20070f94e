// A reader of the YAML that package managers' settings are written in (pnpm-workspace.yaml,
// pnpm-lock.yaml, a package.yaml manifest), for the checks that must know what such a file names:
// block mappings and sequences, flow mappings and sequences over any number of lines, plain and
// quoted scalars, comments. What YAML reads in other ways (anchors and aliases, tags, block and
// multi-line scalars, escapes, explicit and merge keys, a key written twice, several documents)
// is refused with the reason, never guessed at: a value read wrong is a path left unprotected.

/** A YAML value as read here: a scalar's text (untyped: `1.0`, `null` and `true` stay text), a list, a map. */
export type YamlValue = string | YamlValue[] | YamlMap;

interface YamlMap {
  [key: string]: YamlValue;
}

class Unread extends Error {}

/** The documents `text` holds (none for an empty one), or why it is not in the subset read here. */
export function readYamlSubset(text: string): { documents: YamlValue[] } | { unread: string } {
  try {
    return { documents: new Reader(text.replace(/^\ufeff/, "")).documents() };
  } catch (error) {
    if (error instanceof Unread) return { unread: error.message };
    throw error;
  }
}

/** YAML's one-letter escapes in a double-quoted scalar. */
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};

/**
 * The double-quoted scalar at `column` of `line`, its escapes read as YAML reads them, with the
 * column after its closing quote; or why it is not read (one over several lines, a bad escape).
 */
function doubleQuoted(line: string, column: number): { value: string; end: number } | string {
  let value = "";
  for (let at = column + 1; at < line.length; at++) {
    const char = line[at] as string;
    if (char === '"') return { value, end: at + 1 };
    if (char !== "\\") {
      value += char;
      continue;
    }
    const escaped = line[at + 1];
    const width = escaped === "x" ? 2 : escaped === "u" ? 4 : escaped === "U" ? 8 : 0;
    if (width > 0) {
      const digits = line.slice(at + 2, at + 2 + width);
      const code =
        /^[0-9a-fA-F]+$/.test(digits) && digits.length === width ? Number.parseInt(digits, 16) : -1;
      if (code < 0 || code > 0x10ffff) return "a bad escape in a double-quoted scalar";
      value += String.fromCodePoint(code);
      at += 1 + width;
      continue;
    }
    const simple = escaped === undefined ? undefined : ESCAPES[escaped];
    if (simple === undefined)
      return escaped === undefined
        ? "a quoted scalar over several lines"
        : "a bad escape in a double-quoted scalar";
    value += simple;
    at++;
  }
  return "a quoted scalar over several lines";
}

/** Characters that start a node this reader does not follow: anchor, alias, tag, block scalar, directive, reserved. */
const UNREAD_START = /^[&*!|>%@`]/;

class Reader {
  private readonly lines: string[];
  /** The line being read. */
  private row = 0;

  constructor(text: string) {
    this.lines = text.split(/\r\n|\r|\n/);
  }

  private fail(what: string): never {
    throw new Unread(`${what} (line ${this.row + 1})`);
  }

  /** The next line that holds more than a comment, from `row` on, or undefined at the end. */
  private nextContent(): number | undefined {
    while (this.row < this.lines.length) {
      const line = this.lines[this.row] as string;
      if (/^[ \t]*(?:#.*)?$/.test(line)) {
        this.row++;
        continue;
      }
      if (/^ *\t/.test(line)) this.fail("a tab in a line's indentation");
      return this.row;
    }
    return undefined;
  }

  private indentOf(row: number): number {
    return /^ */.exec(this.lines[row] as string)?.[0].length ?? 0;
  }

  /** The documents of the stream, each started by `---` after the first (pnpm 10's lockfile writes two). */
  documents(): YamlValue[] {
    const documents: YamlValue[] = [];
    let ended = false;
    for (;;) {
      const row = this.nextContent();
      if (row === undefined) return documents;
      const line = this.lines[row] as string;
      if (/^%/.test(line)) this.fail("a directive");
      const start = /^---(?:[ \t]|$)/.test(line);
      if (/^\.\.\.(?:[ \t]|$)/.test(line)) {
        if (!/^\.\.\.[ \t]*(?:#.*)?$/.test(line)) this.fail("a node on the document's end line");
        this.row++;
        ended = true;
        continue;
      }
      if (start) {
        if (!/^---[ \t]*(?:#.*)?$/.test(line)) this.fail("a node on the document's start line");
        this.row++;
      } else if (documents.length > 0 && !ended) {
        this.fail("a line out of its block's indentation");
      }
      ended = false;
      const value = this.block(0);
      if (value !== undefined) documents.push(value);
      const next = this.nextContent();
      if (next !== undefined && !/^(?:---|\.\.\.)(?:[ \t]|$)/.test(this.lines[next] as string)) {
        this.fail("a line out of its block's indentation");
      }
      if (next === undefined) return documents;
    }
  }

  /** The block node whose first line is the next content line, indented at least `min`; undefined if none. */
  private block(min: number): YamlValue | undefined {
    const row = this.nextContent();
    if (row === undefined) return undefined;
    const indent = this.indentOf(row);
    if (indent < min) return undefined;
    const content = (this.lines[row] as string).slice(indent);
    if (/^-(?:\s|$)/.test(content)) return this.sequence(indent);
    if (this.keyAt(row, indent) !== undefined) return this.mapping(indent, false);
    // A scalar or flow node on a line of its own (a key's value below it).
    return this.inline(row, indent, min - 1);
  }

  /**
   * The key of a mapping entry that starts at `column` of `row`, with the column its value starts at,
   * or undefined where the line holds no `key:`.
   */
  private keyAt(row: number, column: number): { key: string; after: number } | undefined {
    const line = this.lines[row] as string;
    const rest = line.slice(column);
    let key: string;
    let end: number;
    if (rest.startsWith("'") || rest.startsWith('"')) {
      const quoted = this.quoted(line, column, row);
      key = quoted.value;
      end = quoted.end;
      const colon = /^[ ]*:(?=\s|$)/.exec(line.slice(end));
      if (!colon) return undefined;
      end += colon[0].length;
    } else {
      const plain = /^([^\s#:][^#]*?|:[^\s#][^#]*?)[ ]*:(?=\s|$)/.exec(rest);
      if (!plain) {
        if (/^\?(?:\s|$)/.test(rest)) this.fail("an explicit key (`? `)");
        return undefined;
      }
      key = plain[1] as string;
      // `a: b: c`: the first `: ` ends the key; anything else such a line says is not read here.
      if (/[{}[\],]/.test(key[0] as string) || UNREAD_START.test(key))
        this.fail("a key in a form not read here");
      if (/\s#|:\s/.test(key)) this.fail("a key in a form not read here");
      end = column + plain[0].length;
    }
    if (key === "<<") this.fail("a merge key (`<<`)");
    return { key, after: end };
  }

  private mapping(indent: number, inlineFirst: boolean): YamlMap {
    const map: YamlMap = Object.create(null) as YamlMap;
    let first = inlineFirst;
    for (;;) {
      const row = this.nextContent();
      if (row === undefined) break;
      // The first entry may start mid-line (`- key: value` in a sequence); the rest at `indent`.
      if (!first) {
        const lineIndent = this.indentOf(row);
        if (lineIndent < indent) break;
        if (lineIndent > indent) this.fail("a line indented deeper than its mapping's keys");
        if (/^-(?:\s|$)/.test((this.lines[row] as string).slice(indent))) break;
      }
      if (/^(?:---|\.\.\.)(?:\s|$)/.test(this.lines[row] as string)) break;
      const found = this.keyAt(row, first ? indent : this.indentOf(row));
      if (found === undefined) this.fail("a line in a mapping that is no `key: value`");
      if (Object.hasOwn(map, found.key)) this.fail(`the key ${JSON.stringify(found.key)} written twice`);
      first = false;
      const line = this.lines[row] as string;
      const rest = line.slice(found.after);
      if (/^(?:[ \t]+#.*)?[ \t]*$/.test(rest)) {
        // The value is below: a block indented deeper, or a sequence at the key's own indent.
        this.row = row + 1;
        const next = this.nextContent();
        let value: YamlValue | undefined;
        if (
          next !== undefined &&
          this.indentOf(next) === indent &&
          /^-(?:\s|$)/.test((this.lines[next] as string).slice(indent))
        ) {
          value = this.sequence(indent);
        } else {
          value = this.block(indent + 1);
        }
        map[found.key] = value ?? "";
        continue;
      }
      const start = found.after + (/^[ \t]*/.exec(rest)?.[0].length ?? 0);
      map[found.key] = this.inline(row, start, indent);
    }
    return map;
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (;;) {
      const row = this.nextContent();
      if (row === undefined || this.indentOf(row) !== indent) {
        if (row !== undefined && this.indentOf(row) > indent)
          this.fail("a line indented deeper than its list's items");
        break;
      }
      const line = this.lines[row] as string;
      if (!/^-(?:\s|$)/.test(line.slice(indent))) break;
      const rest = line.slice(indent + 1);
      if (/^[ \t]*(?:#.*)?$/.test(rest)) {
        this.row = row + 1;
        items.push(this.block(indent + 1) ?? "");
        continue;
      }
      const column = indent + 1 + (/^[ ]*/.exec(rest)?.[0].length ?? 0);
      if (/^-(?:\s|$)/.test(line.slice(column))) this.fail("a list item that starts a list on its line");
      if (this.keyAt(row, column) !== undefined) items.push(this.mapping(column, true));
      else items.push(this.inline(row, column, indent));
    }
    return items;
  }

  /**
   * The scalar or flow node that starts at `column` of `row` and ends that line (or, a flow node, a
   * later one), leaving `row` after it. A plain scalar the next line goes on with (indented deeper
   * than `parent`, the block it is a value in) is a multi-line scalar: not read.
   */
  private inline(row: number, column: number, parent: number): YamlValue {
    const line = this.lines[row] as string;
    const rest = line.slice(column);
    if (rest.startsWith("|") || rest.startsWith(">")) return this.blockScalar(row, rest, parent);
    if (UNREAD_START.test(rest)) this.fail("an anchor, alias, tag or block scalar");
    if (rest.startsWith("{") || rest.startsWith("[")) {
      const flow = new FlowReader(this.lines, row, column, (what, at) => {
        this.row = at;
        this.fail(what);
      });
      const value = flow.node();
      const end = flow.position();
      if (!/^[ \t]*(?:#.*)?$/.test((this.lines[end.row] as string).slice(end.column))) {
        this.row = end.row;
        this.fail("text after a flow node");
      }
      this.row = end.row + 1;
      return value;
    }
    let value: string;
    if (rest.startsWith("'") || rest.startsWith('"')) {
      const quoted = this.quoted(line, column, row);
      if (!/^[ \t]*(?:#.*)?$/.test(line.slice(quoted.end))) this.fail("text after a quoted scalar");
      value = quoted.value;
    } else {
      value = (/^(.*?)(?:[ \t]+#.*)?$/.exec(rest)?.[1] ?? "").trimEnd();
      if (/:(?:\s|$)|[ \t]#/.test(value) || /^[-?](?:\s|$)/.test(value))
        this.fail("a scalar in a form not read here");
    }
    this.row = row + 1;
    // YAML reads a scalar on to the lines indented deeper than the block it is a value in.
    const next = this.nextContent();
    if (next !== undefined && this.indentOf(next) > parent) this.fail("a scalar over several lines");
    return value;
  }

  /**
   * A literal (`|`) or folded (`>`) block scalar whose header `rest` is on `row`, with its chomping
   * indicator (`-`, `+`): its lines are those after, indented deeper than `parent` (pnpm writes a
   * package's `deprecated:` message so). One with an explicit indentation is not read.
   */
  private blockScalar(row: number, rest: string, parent: number): string {
    const header = /^([|>])([-+]?)(?:[ \t]+#.*)?[ \t]*$/.exec(rest);
    if (!header) this.fail("a block scalar's header in a form not read here");
    const [, style, chomp] = header;
    const lines: string[] = [];
    let indent: number | undefined;
    let next = row + 1;
    for (; next < this.lines.length; next++) {
      const line = this.lines[next] as string;
      if (/^ *$/.test(line)) {
        lines.push("");
        continue;
      }
      const lineIndent = this.indentOf(next);
      if (lineIndent <= parent || (indent !== undefined && lineIndent < indent)) break;
      if (/^ *\t/.test(line) && indent === undefined) {
        this.row = next;
        this.fail("a tab in a line's indentation");
      }
      indent ??= lineIndent;
      lines.push(line.slice(indent));
    }
    // Blank lines after the last line of text are the chomping's to keep or drop.
    let trailing = 0;
    while (lines.length > 0 && lines.at(-1) === "") {
      lines.pop();
      trailing++;
    }
    this.row = next;
    let text = "";
    for (const [index, line] of lines.entries()) {
      if (index === 0) text = line;
      else if (
        style === "|" ||
        line === "" ||
        /^\s/.test(line) ||
        lines[index - 1] === "" ||
        /^\s/.test(lines[index - 1] as string)
      ) {
        text += `\n${line}`;
      } else text += ` ${line}`;
    }
    if (style === ">") text = text.replace(/(^|[^\n])\n\n/g, "$1\n");
    if (lines.length === 0) return "";
    if (chomp === "-") return text;
    if (chomp === "+") return `${text}\n${"\n".repeat(trailing)}`;
    return `${text}\n`;
  }

  /** A quoted scalar at `column` of `line`: its value and the column after its closing quote. */
  private quoted(line: string, column: number, row: number): { value: string; end: number } {
    const quote = line[column] as string;
    if (quote === "'") {
      const match = /^'((?:[^']|'')*)'/.exec(line.slice(column));
      if (!match) {
        this.row = row;
        this.fail("a quoted scalar over several lines");
      }
      return { value: (match[1] as string).replaceAll("''", "'"), end: column + match[0].length };
    }
    const read = doubleQuoted(line, column);
    if (typeof read === "string") {
      this.row = row;
      this.fail(read);
    }
    return read;
  }
}

/** A flow node (`{...}`, `[...]`) over any number of lines. */
class FlowReader {
  private row: number;
  private column: number;

  constructor(
    private readonly lines: readonly string[],
    row: number,
    column: number,
    private readonly failAt: (what: string, row: number) => never,
  ) {
    this.row = row;
    this.column = column;
  }

  position(): { row: number; column: number } {
    return { row: this.row, column: this.column };
  }

  private fail(what: string): never {
    return this.failAt(what, this.row);
  }

  private peek(): string | undefined {
    return this.lines[this.row]?.[this.column];
  }

  /** Skips spaces, line ends and comments (a `#` after a space or at a line's start). */
  private skip(): void {
    for (;;) {
      const line = this.lines[this.row];
      if (line === undefined) this.fail("a flow node that does not close");
      const char = line[this.column];
      if (
        char === undefined ||
        (char === "#" && (this.column === 0 || /\s/.test(line[this.column - 1] as string)))
      ) {
        this.row++;
        this.column = 0;
        continue;
      }
      if (char === " " || char === "\t") {
        this.column++;
        continue;
      }
      return;
    }
  }

  node(): YamlValue {
    this.skip();
    const char = this.peek();
    if (char === "{") return this.collection("}");
    if (char === "[") return this.collection("]");
    return this.scalar();
  }

  private collection(close: "}" | "]"): YamlValue {
    this.column++;
    const map: YamlMap = Object.create(null) as YamlMap;
    const list: YamlValue[] = [];
    for (;;) {
      this.skip();
      if (this.peek() === close) {
        this.column++;
        return close === "}" ? map : list;
      }
      if (this.peek() === "?" && /^\?(?:\s|$)/.test((this.lines[this.row] as string).slice(this.column))) {
        this.fail("an explicit key (`? `)");
      }
      const first = this.node();
      this.skip();
      if (this.peek() === ":") {
        if (typeof first !== "string") this.fail("a flow node as a key");
        this.column++;
        this.skip();
        const value = this.peek() === "," || this.peek() === close ? "" : this.node();
        if (close === "]") this.fail("a `key: value` pair in a flow list");
        if (first === "<<") this.fail("a merge key (`<<`)");
        if (Object.hasOwn(map, first)) this.fail(`the key ${JSON.stringify(first)} written twice`);
        map[first] = value;
        this.skip();
      } else if (close === "}") {
        if (typeof first !== "string") this.fail("a flow node as a key");
        if (Object.hasOwn(map, first)) this.fail(`the key ${JSON.stringify(first)} written twice`);
        map[first] = "";
      } else {
        list.push(first);
      }
      if (this.peek() === ",") {
        this.column++;
        continue;
      }
      if (this.peek() !== close) this.fail("a flow node in a form not read here");
    }
  }

  private scalar(): string {
    const line = this.lines[this.row] as string;
    const rest = line.slice(this.column);
    if (UNREAD_START.test(rest)) this.fail("an anchor, alias, tag or block scalar");
    if (rest.startsWith("'")) {
      const match = /^'((?:[^']|'')*)'/.exec(rest);
      if (!match) this.fail("a quoted scalar over several lines");
      this.column += match[0].length;
      return (match[1] as string).replaceAll("''", "'");
    }
    if (rest.startsWith('"')) {
      const read = doubleQuoted(line, this.column);
      if (typeof read === "string") this.fail(read);
      this.column = read.end;
      return read.value;
    }
    // A plain scalar in flow: up to a flow indicator, a `:` before a space or one, a ` #`, the line's end.
    if (/^[-?:](?:\s|$)/.test(rest)) this.fail("a flow node in a form not read here");
    let end = 0;
    while (end < rest.length) {
      const char = rest[end] as string;
      const after = rest[end + 1];
      if (/[,[\]{}]/.test(char)) break;
      if (char === ":" && (after === undefined || /[\s,[\]{}]/.test(after))) break;
      if (/\s/.test(char) && (after === undefined || after === "#")) break;
      end++;
    }
    const value = rest.slice(0, end).trimEnd();
    if (value === "") this.fail("a flow node in a form not read here");
    this.column += end;
    // What follows on a later line, other than a separator or the end, would go on with the scalar.
    const row = this.row;
    const column = this.column;
    this.skip();
    const next = this.peek();
    if (this.row !== row && next !== undefined && !/[,\]}:]/.test(next)) {
      this.fail("a plain scalar over several lines");
    }
    this.row = row;
    this.column = column;
    return value;
  }
}
