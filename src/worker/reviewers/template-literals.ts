// Lines of JavaScript and TypeScript that end inside a template literal: there, trailing spaces are
// the string's content (test inputs compared byte for byte), not whitespace errors. A small lexer of
// strings, comments, regular expressions and `${}` nesting; when it cannot tell (a file that ends
// inside a string, JSX text with a quote), it says so and hygiene leaves every line of the file alone.

const SCRIPT_EXTENSIONS = /\.(?:[cm]?[jt]sx?)$/i;

/** Characters after which `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const KEYWORDS_BEFORE_REGEX =
  /(?:^|[^\w$])(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;

export function isScriptPath(path: string): boolean {
  return SCRIPT_EXTENSIONS.test(path);
}

type Mode = "code" | "line" | "block" | "single" | "double" | "template" | "regex";

class Lexer {
  readonly lines = new Set<number>();
  private mode: Mode = "code";
  /** For each open `${`, the brace depth of its expression. */
  private readonly expressions: number[] = [];
  private depth = 0;
  private line = 1;
  private inClass = false;
  private code = "";

  constructor(private readonly text: string) {}

  run(): boolean {
    const { text } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c === "\n") {
        if (this.mode === "template") this.lines.add(this.line);
        if (this.mode === "line") this.mode = "code";
        if (this.mode === "single" || this.mode === "double" || this.mode === "regex") return false;
        this.line++;
        continue;
      }
      i = this.step(c, i);
    }
    return this.mode === "code" || this.mode === "line";
  }

  /** One character (or an escape pair) in the current mode; returns the index it ends on. */
  private step(c: string, i: number): number {
    const next = this.text[i + 1];
    switch (this.mode) {
      case "line":
        return i;
      case "block":
        if (c === "*" && next === "/") this.mode = "code";
        return c === "*" && next === "/" ? i + 1 : i;
      case "single":
      case "double":
        if (c === "\\") return this.escape(i);
        if (c === (this.mode === "single" ? "'" : '"')) this.enterCode("x");
        return i;
      case "regex":
        if (c === "\\") return this.escape(i);
        if (c === "[") this.inClass = true;
        else if (c === "]") this.inClass = false;
        else if (c === "/" && !this.inClass) this.enterCode("x");
        return i;
      case "template":
        if (c === "\\") return this.escape(i);
        if (c === "`") this.enterCode("x");
        else if (c === "$" && next === "{") {
          this.expressions.push(this.depth);
          this.enterCode("{");
          return i + 1;
        }
        return i;
      default:
        return this.codeStep(c, next, i);
    }
  }

  private codeStep(c: string, next: string | undefined, i: number): number {
    if (c === "/" && next === "/") this.mode = "line";
    else if (c === "/" && next === "*") {
      this.mode = "block";
      return i + 1;
    } else if (c === "/") {
      const before = this.code.trimEnd();
      if (before === "" || BEFORE_REGEX.has(before.at(-1) as string) || KEYWORDS_BEFORE_REGEX.test(before)) {
        this.mode = "regex";
        this.inClass = false;
      } else this.code += c;
    } else if (c === "'") this.mode = "single";
    else if (c === '"') this.mode = "double";
    else if (c === "`") this.mode = "template";
    else if (c === "{") {
      this.depth++;
      this.code += c;
    } else if (c === "}") {
      if (this.expressions.at(-1) === this.depth) {
        this.expressions.pop();
        this.mode = "template";
      } else {
        this.depth--;
        this.code += c;
      }
    } else this.code = (this.code + c).slice(-16);
    return i;
  }

  private escape(i: number): number {
    if (this.text[i + 1] === "\n") {
      if (this.mode === "template") this.lines.add(this.line);
      this.line++;
    }
    return i + 1;
  }

  /** Back in code after a literal: what came before behaves like an operand (`x`) or a `{`. */
  private enterCode(last: string): void {
    this.mode = "code";
    this.code = (this.code + last).slice(-16);
  }
}

/**
 * The 1-based numbers of the lines whose line break lies inside a template literal, or undefined
 * when the lexer lost track and no line can be said to be outside one.
 */
export function templateLiteralLines(text: string): Set<number> | undefined {
  const lexer = new Lexer(text);
  return lexer.run() ? lexer.lines : undefined;
}

const GO_EXTENSION = /\.go$/i;

export function isGoPath(path: string): boolean {
  return GO_EXTENSION.test(path);
}

/**
 * The same for Go's raw strings (`` `...` ``: no escapes, no interpolation, test inputs and embedded
 * YAML kept byte for byte), past comments, interpreted strings and runes; undefined when the file
 * ends inside one.
 */
export function goRawStringLines(text: string): Set<number> | undefined {
  const lines = new Set<number>();
  let mode: "code" | "line" | "block" | "double" | "rune" | "raw" = "code";
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "\n") {
      if (mode === "raw") lines.add(line);
      else if (mode === "line") mode = "code";
      else if (mode === "double" || mode === "rune") return undefined;
      line++;
    } else if (mode === "code") {
      if (c === "/" && next === "/") mode = "line";
      else if (c === "/" && next === "*") {
        mode = "block";
        i++;
      } else if (c === '"') mode = "double";
      else if (c === "'") mode = "rune";
      else if (c === "`") mode = "raw";
    } else if (mode === "block") {
      if (c === "*" && next === "/") {
        mode = "code";
        i++;
      }
    } else if (mode === "double" || mode === "rune") {
      if (c === "\\") i++;
      else if (c === (mode === "double" ? '"' : "'")) mode = "code";
    } else if (mode === "raw" && c === "`") mode = "code";
  }
  return mode === "code" || mode === "line" ? lines : undefined;
}
