// A reader of JSON5 (pnpm's `package.json5` manifest): JSON with comments, trailing commas,
// unquoted keys, single-quoted strings and their escapes, and JSON5's numbers. A key written twice
// keeps its last value, as JSON5's own parser does.

export type Json5Value = string | number | boolean | null | Json5Value[] | { [key: string]: Json5Value };

/** The value `text` holds, or why it is not JSON5. */
export function readJson5(text: string): { value: Json5Value } | { unread: string } {
  const reader = new Json5Reader(text.replace(/^\ufeff/, ""));
  try {
    const value = reader.value();
    reader.end();
    return { value };
  } catch (error) {
    if (error instanceof SyntaxError) return { unread: error.message };
    throw error;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "0": "\0",
};

class Json5Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  private fail(what: string): never {
    throw new SyntaxError(`${what} at offset ${this.at}`);
  }

  /** Skips whitespace (JSON5's: any of JavaScript's) and comments. */
  private skip(): void {
    for (;;) {
      const rest = this.text.slice(this.at, this.at + 2);
      if (/^\s/.test(rest)) this.at++;
      else if (rest === "//") {
        const end = this.text.slice(this.at).search(/[\n\r\u2028\u2029]/);
        this.at = end === -1 ? this.text.length : this.at + end;
      } else if (rest === "/*") {
        const end = this.text.indexOf("*/", this.at + 2);
        if (end === -1) this.fail("a comment that does not close");
        this.at = end + 2;
      } else return;
    }
  }

  end(): void {
    this.skip();
    if (this.at < this.text.length) this.fail("text after the value");
  }

  value(): Json5Value {
    this.skip();
    const char = this.text[this.at];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"' || char === "'") return this.string();
    const word = /^(?:true|false|null)(?![\w$])/.exec(this.text.slice(this.at))?.[0];
    if (word !== undefined) {
      this.at += word.length;
      return word === "null" ? null : word === "true";
    }
    const number =
      /^[+-]?(?:Infinity|NaN|0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?![\w$])/.exec(
        this.text.slice(this.at),
      )?.[0];
    if (number === undefined) this.fail("no value");
    this.at += number.length;
    return Number(number.replace(/^\+/, ""));
  }

  private object(): { [key: string]: Json5Value } {
    this.at++;
    const object: { [key: string]: Json5Value } = Object.create(null) as { [key: string]: Json5Value };
    for (;;) {
      this.skip();
      if (this.text[this.at] === "}") {
        this.at++;
        return object;
      }
      const char = this.text[this.at];
      let key: string;
      if (char === '"' || char === "'") key = this.string();
      else {
        // An identifier; one spelled with a `\u` escape is not read here.
        const name = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]*/u.exec(
          this.text.slice(this.at),
        )?.[0];
        if (name === undefined) this.fail("no key");
        if (this.text[this.at + name.length] === "\\") this.fail("an escape in a key");
        key = name;
        this.at += name.length;
      }
      this.skip();
      if (this.text[this.at] !== ":") this.fail("no colon after a key");
      this.at++;
      object[key] = this.value();
      this.skip();
      if (this.text[this.at] === ",") this.at++;
      else if (this.text[this.at] !== "}") this.fail("no comma between members");
    }
  }

  private array(): Json5Value[] {
    this.at++;
    const items: Json5Value[] = [];
    for (;;) {
      this.skip();
      if (this.text[this.at] === "]") {
        this.at++;
        return items;
      }
      items.push(this.value());
      this.skip();
      if (this.text[this.at] === ",") this.at++;
      else if (this.text[this.at] !== "]") this.fail("no comma between items");
    }
  }

  private string(): string {
    const quote = this.text[this.at];
    this.at++;
    let out = "";
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined || char === "\n" || char === "\r") this.fail("a string that does not close");
      this.at++;
      if (char === quote) return out;
      if (char !== "\\") {
        out += char;
        continue;
      }
      const escaped = this.text[this.at];
      if (escaped === undefined) this.fail("a string that does not close");
      this.at++;
      if (escaped === "x" || escaped === "u") {
        const digits = this.text.slice(this.at, this.at + (escaped === "x" ? 2 : 4));
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (escaped === "x" ? 2 : 4)) {
          this.fail("a bad escape");
        }
        out += String.fromCharCode(Number.parseInt(digits, 16));
        this.at += digits.length;
      } else if (escaped === "\r") {
        // A line continuation: the line break is no part of the string.
        if (this.text[this.at] === "\n") this.at++;
      } else if (escaped === "\n" || escaped === "\u2028" || escaped === "\u2029") {
        // A line continuation.
      } else if (/[1-9]/.test(escaped)) {
        this.fail("a digit escape");
      } else if (escaped === "0" && /[0-9]/.test(this.text[this.at] ?? "")) {
        this.fail("a digit escape");
      } else {
        out += SIMPLE_ESCAPES[escaped] ?? escaped;
      }
    }
  }
}
