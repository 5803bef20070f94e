// The only JSON parser for worker output: JSON.parse silently keeps the last of duplicate keys, accepts
// lone surrogate escapes and builds objects whose `__proto__` key is special, so a result could mean one
// thing to us and another to a streaming checker. This parser refuses every such ambiguity.

import { formatPath, quoteForMessage } from "./quote.js";

const MAX_JSON_DEPTH = 64;

/** Why a document was refused, and where: `jsonPath` is like `commits.0`, `line`/`column` are 1-based. */
export class StrictJsonError extends Error {
  constructor(
    readonly reason: string,
    readonly jsonPath: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(
      `${jsonPath ? `${jsonPath}: ` : ""}${reason}${line > 0 ? ` (line ${line}, column ${column})` : ""}`,
    );
    this.name = "StrictJsonError";
  }
}

export interface StrictJsonOptions {
  /** Deepest nesting of arrays and objects allowed (the top-level container is depth 1). */
  maxDepth?: number;
}

/**
 * Parses UTF-8 JSON bytes. Throws StrictJsonError on invalid UTF-8, a BOM, lone surrogates (raw or as
 * escapes), duplicate keys at any depth, a `__proto__` key, nesting deeper than `maxDepth`, numbers that
 * overflow to infinity, and anything after the value. Objects are plain: with `__proto__` refused, an
 * assignment can only create own data properties, never reach Object.prototype.
 */
export function parseStrictJson(bytes: Uint8Array, options: StrictJsonOptions = {}): unknown {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new StrictJsonError("starts with a byte order mark (BOM)", "", 1, 1);
  }
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the text instead of silently dropping it (it is refused above anyway).
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new StrictJsonError(`not valid UTF-8 (byte offset ${invalidUtf8Offset(bytes)})`, "", 0, 0);
  }
  return new Parser(text, options.maxDepth ?? MAX_JSON_DEPTH).parseDocument();
}

/** Offset of the first byte that breaks UTF-8 (RFC 3629 §4), or -1. Only called after decoding failed. */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const extra = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 ? 3 : 0;
    if (extra === 0 || lead > 0xf4) return i;
    // The second byte's range excludes overlong forms, UTF-16 surrogates and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= extra; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += extra + 1;
  }
  return -1;
}

const WS_SPACE = 0x20;
const WS_TAB = 0x09;
const WS_LF = 0x0a;
const WS_CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// After a backslash: '"', '\\', '/', 'b', 'f', 'n', 'r', 't' ('u' is handled apart).
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
// Characters a string may hold as they are: not '"', '\\', a C0 control or half of a surrogate pair.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range of controls JSON strings may not hold.
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly path: (string | number)[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail("empty document");
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail("unexpected data after the JSON value");
    return value;
  }

  private parseValue(): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b) return this.parseObject();
    if (c === 0x5b) return this.parseArray();
    if (c === QUOTE) return this.parseString();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    if (this.text.startsWith("true", this.pos)) return this.literal(4, true);
    if (this.text.startsWith("false", this.pos)) return this.literal(5, false);
    if (this.text.startsWith("null", this.pos)) return this.literal(4, null);
    if (Number.isNaN(c)) this.fail("unexpected end of input");
    return this.fail(`unexpected character ${describeChar(this.text, this.pos)}`);
  }

  private literal<T>(length: number, value: T): T {
    this.pos += length;
    return value;
  }

  private parseObject(): Record<string, unknown> {
    this.enter();
    // Plain objects keep V8's fast properties (null-prototype ones are dictionaries, 3-4x slower here).
    const object: Record<string, unknown> = {};
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) return this.leave(object);
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== QUOTE) this.fail("expected a string key");
      const keyAt = this.pos;
      const key = this.parseString();
      if (key === "__proto__") this.fail('key "__proto__" is not allowed', keyAt);
      if (Object.hasOwn(object, key)) this.fail(`duplicate key ${quoteForMessage(key)}`, keyAt);
      this.skipWhitespace();
      this.expect(0x3a, "':' after a key");
      this.skipWhitespace();
      this.path.push(key);
      object[key] = this.parseValue();
      this.path.pop();
      if (this.endOfList(0x7d, "'}'")) return this.leave(object);
    }
  }

  private parseArray(): unknown[] {
    this.enter();
    const array: unknown[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) return this.leave(array);
    for (;;) {
      this.skipWhitespace();
      this.path.push(array.length);
      array.push(this.parseValue());
      this.path.pop();
      if (this.endOfList(0x5d, "']'")) return this.leave(array);
    }
  }

  /** After a member: true at the closing bracket (left for leave()), false after a comma. */
  private endOfList(close: number, name: string): boolean {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    if (c === close) return true;
    if (c !== 0x2c) this.fail(`expected ',' or ${name}`);
    this.pos++;
    return false;
  }

  private enter(): void {
    this.depth++;
    if (this.depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`);
    this.pos++;
  }

  private leave<T>(value: T): T {
    this.depth--;
    this.pos++;
    return value;
  }

  private parseString(): string {
    const text = this.text;
    const open = this.pos;
    let pos = open + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        pos = this.skipEscape(pos);
        escaped = true;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        // Cannot come from valid UTF-8, but the parser does not rely on that.
        const next = text.charCodeAt(pos + 1);
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) this.fail("lone surrogate in a string", pos);
        pos += 2;
      } else if (c >= 0x20) {
        // Skip the whole run of characters that need no attention in one native regex step.
        PLAIN_RUN.lastIndex = pos;
        PLAIN_RUN.test(text);
        pos = PLAIN_RUN.lastIndex;
      } else {
        // charCodeAt past the end is NaN.
        this.fail(
          Number.isNaN(c) ? "unterminated string" : `unescaped control character U+${hex4(c)} in a string`,
          pos,
        );
      }
    }
    this.pos = pos + 1;
    // Every escape was validated above, so the native decoder reads exactly what this parser accepted.
    return escaped ? (JSON.parse(text.slice(open, pos + 1)) as string) : text.slice(open + 1, pos);
  }

  /** Validates the escape at the backslash `at`; returns the position after it. */
  private skipEscape(at: number): number {
    const kind = this.text.charCodeAt(at + 1);
    if (kind !== 0x75) {
      if (!SIMPLE_ESCAPES.has(kind)) this.fail(`invalid escape ${describeChar(this.text, at + 1)}`, at + 1);
      return at + 2;
    }
    const unit = this.hex4At(at + 2, at);
    if (unit < 0xd800 || unit > 0xdfff) return at + 6;
    if (unit >= 0xdc00) this.fail(`lone surrogate escape \\u${hex4(unit)}`, at);
    const text = this.text;
    const paired = text.charCodeAt(at + 6) === BACKSLASH && text.charCodeAt(at + 7) === 0x75;
    const low = paired ? this.hex4At(at + 8, at + 6) : -1;
    if (!(low >= 0xdc00 && low <= 0xdfff)) this.fail(`lone surrogate escape \\u${hex4(unit)}`, at);
    return at + 12;
  }

  private hex4At(from: number, escapeAt: number): number {
    let value = 0;
    for (let i = from; i < from + 4; i++) {
      const digit = hexDigit(this.text.charCodeAt(i));
      if (digit < 0) this.fail("invalid \\u escape: expected 4 hex digits", escapeAt);
      value = value * 16 + digit;
    }
    return value;
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail("invalid number");
    const value = Number(match[0]);
    if (!Number.isFinite(value)) this.fail("number out of range");
    this.pos += match[0].length;
    const next = this.text.charCodeAt(this.pos);
    // "01", "1.", "1e" and "-" stop the match early; the leftover would otherwise read as garbage later.
    if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45) {
      this.fail("invalid number");
    }
    return value;
  }

  private expect(code: number, what: string): void {
    if (this.text.charCodeAt(this.pos) !== code) this.fail(`expected ${what}`);
    this.pos++;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c !== WS_SPACE && c !== WS_LF && c !== WS_CR && c !== WS_TAB) break;
      pos++;
    }
    this.pos = pos;
  }

  private fail(reason: string, at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = this.text.indexOf("\n"); i !== -1 && i < at; i = this.text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    const jsonPath = formatPath(this.path, "");
    throw new StrictJsonError(reason, jsonPath, line, at - lineStart + 1);
  }
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}

function describeChar(text: string, at: number): string {
  const code = text.codePointAt(at);
  if (code === undefined) return "end of input";
  return code >= 0x21 && code < 0x7f ? `'${String.fromCodePoint(code)}'` : `U+${hex4(code)}`;
}
