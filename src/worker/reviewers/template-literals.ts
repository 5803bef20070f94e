// Lines that end inside a literal whose trailing spaces are its content (test inputs compared byte
// for byte), not whitespace errors: JavaScript and TypeScript template literals, Go raw strings,
// Rust strings, Python's triple-quoted strings, shell and Ruby here-documents (and Ruby's strings), Kotlin, Scala and
// C# raw strings, Swift's multi-line strings, C++ raw strings, PHP's, Perl's, HCL's and a
// Dockerfile's heredocs, YAML's block scalars, and the languages `literal-syntaxes.ts` describes in
// a table. Small lexers of each language's strings and comments (for JavaScript, regular
// expressions and `${}` nesting too); when one cannot tell (a file that ends inside a string, JSX
// text with a quote), it says so and hygiene leaves every line of the file alone (`literalLines`).

import { perlQuoteLines, rubyQuoteLines, tabledLiteralLines } from "./literal-syntaxes.js";

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

/** Where a C-family lexer's `read` leaves it: in code, or in a literal that may span lines or may not. */
type Place = "code" | "multi-line" | "one-line";

/** How a language's comments differ from C's. */
interface CommentSyntax {
  /** A block comment inside a block comment needs its own end (Rust, Kotlin, Scala, Swift). */
  nests?: boolean;
  /**
   * A backslash ending a line joins the next to it, so a line comment goes on there (C and C++; GCC
   * and Clang allow spaces after the backslash).
   */
  splices?: boolean;
}

/** True when the line break at `i` follows a backslash, spaces and tabs (and a CR) at most between. */
function splicedAt(text: string, i: number): boolean {
  let end = i;
  while (end > 0 && /[ \t\r]/.test(text[end - 1] as string)) end--;
  return text[end - 1] === "\\";
}

/**
 * The walk the lexers of Go, Rust, Kotlin, Scala, C#, Swift and C++ share: `//` line comments, `/*`
 * block comments (as `comments` says), the line count, and the answer: the lines whose line break lies
 * inside a multi-line literal, or undefined when a one-line literal meets a line break, or the file
 * ends inside a literal or a comment. `read` reads the language's code and literals outside
 * comments: from the character at `i`, in `place`, it returns the index it ended on (past an escape
 * pair or a delimiter, never past a line break) and where that leaves the lexer.
 */
function cFamilyLiteralLines(
  text: string,
  comments: CommentSyntax,
  read: (i: number, place: Place) => [end: number, place: Place],
): Set<number> | undefined {
  const lines = new Set<number>();
  let place: Place | "line comment" | "block comment" = "code";
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "\n") {
      if (place === "multi-line") lines.add(line);
      else if (place === "one-line") return undefined;
      else if (place === "line comment" && !(comments.splices && splicedAt(text, i))) place = "code";
      line++;
    } else if (place === "block comment") {
      if (comments.nests && c === "/" && next === "*") {
        depth++;
        i++;
      } else if (c === "*" && next === "/") {
        depth--;
        i++;
        if (depth === 0) place = "code";
      }
    } else if (place === "code" && c === "/" && next === "/") place = "line comment";
    else if (place === "code" && c === "/" && next === "*") {
      place = "block comment";
      depth = 1;
      i++;
    } else if (place !== "line comment") [i, place] = read(i, place);
  }
  return place === "code" || place === "line comment" ? lines : undefined;
}

const GO_EXTENSION = /\.go$/i;

function isGoPath(path: string): boolean {
  return GO_EXTENSION.test(path);
}

/**
 * The same for Go's raw strings (`` `...` ``: no escapes, no interpolation, test inputs and embedded
 * YAML kept byte for byte), past comments, interpreted strings and runes; undefined when the file
 * ends inside one.
 */
function goRawStringLines(text: string): Set<number> | undefined {
  // The quote that ends the literal the lexer is in: a raw string's `, a string's " or a rune's '.
  let quote = "";
  return cFamilyLiteralLines(text, {}, (i, place) => {
    const c = text[i] as string;
    if (place === "code") {
      if (c !== "`" && c !== '"' && c !== "'") return [i, "code"];
      quote = c;
      return [i, c === "`" ? "multi-line" : "one-line"];
    }
    // An escape pair, not in a raw string; a `\` ending a line leaves the line break to the walk.
    if (c === "\\" && quote !== "`" && text[i + 1] !== "\n") return [i + 1, place];
    return [i, c === quote ? "code" : place];
  });
}

const RUST_EXTENSION = /\.rs$/i;

function isRustPath(path: string): boolean {
  return RUST_EXTENSION.test(path);
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;

/**
 * The `#`s of a raw string that starts at `i` (`r"`, `r#"`, `br##"`, `cr"`), or -1: an `r` that
 * begins a word (or follows a `b`/`c` prefix that does), then hashes, then the quote. A raw
 * identifier (`r#type`) has no quote after its hash.
 */
function rustRawHashes(text: string, i: number): number {
  let start = i;
  if (text[start] === "b" || text[start] === "c") start++;
  if (text[start] !== "r" || (i > 0 && IDENTIFIER_CHAR.test(text[i - 1] as string))) return -1;
  let end = start + 1;
  while (text[end] === "#") end++;
  return text[end] === '"' ? end - start - 1 : -1;
}

/**
 * The end of a character literal that starts at the `'` at `i`, or `i` for a lifetime or a label
 * (`'a`, `'static`): an escape, or one character (up to 4 bytes of UTF-8) and the closing quote.
 */
function rustCharEnd(text: string, i: number): number {
  if (text[i + 1] === "\\") {
    const close = text.indexOf("'", i + 3);
    const newline = text.indexOf("\n", i);
    return close !== -1 && (newline === -1 || close < newline) ? close : i;
  }
  for (let end = i + 2; end <= i + 5 && end < text.length; end++) {
    if (text[end] === "'") return end;
    if ((text.charCodeAt(end) & 0xc0) !== 0x80) break;
  }
  return i;
}

/**
 * The same for Rust's string literals, whose line breaks and trailing spaces are all content: raw
 * strings (`r#"..."#`, ripgrep's expected outputs), and plain and byte strings, which span lines
 * too. Past comments (block comments nest), character literals and lifetimes; undefined when the
 * file ends inside a string or a comment.
 */
function rustStringLines(text: string): Set<number> | undefined {
  // In a raw string: the `#`s its closing quote must be followed by; in a plain one, escapes.
  let raw = false;
  let hashes = 0;
  return cFamilyLiteralLines(text, { nests: true }, (i, place) => {
    const c = text[i] as string;
    if (place === "code") {
      const rawHashes = rustRawHashes(text, i);
      if (rawHashes >= 0) {
        raw = true;
        hashes = rawHashes;
        return [text.indexOf('"', i), "multi-line"];
      }
      if (c === '"') {
        raw = false;
        hashes = 0;
        return [i, "multi-line"];
      }
      return [c === "'" ? rustCharEnd(text, i) : i, "code"];
    }
    // An escape pair; a `\` ending a line leaves the line break to the walk.
    if (!raw && c === "\\" && text[i + 1] !== "\n") return [i + 1, place];
    if (c === '"' && text.startsWith("#".repeat(hashes), i + 1)) return [i + hashes, "code"];
    return [i, place];
  });
}

const PYTHON_EXTENSION = /\.pyi?$/i;

function isPythonPath(path: string): boolean {
  return PYTHON_EXTENSION.test(path);
}

/**
 * The same for Python's triple-quoted strings (`"""..."""`, `'''...'''`: docstrings whose doctest
 * output keeps its spaces, and string values), past comments and one-line strings; a backslash
 * escapes the next character in every string, raw ones too, as Python's tokenizer reads them.
 * Undefined when a one-line string meets a line break, or the file ends inside a string.
 */
function pythonStringLines(text: string): Set<number> | undefined {
  const lines = new Set<number>();
  let mode: "code" | "comment" | "single" | "triple" = "code";
  let quote = "";
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\n") {
      if (mode === "triple") lines.add(line);
      else if (mode === "comment") mode = "code";
      else if (mode === "single") return undefined;
      line++;
    } else if (mode === "code") {
      if (c === "#") mode = "comment";
      else if (c === '"' || c === "'") {
        const triple = text.startsWith(c.repeat(3), i);
        mode = triple ? "triple" : "single";
        quote = triple ? c.repeat(3) : c;
        if (triple) i += 2;
      }
    } else if (mode === "single" || mode === "triple") {
      if (c === "\\") {
        // An escape pair; a `\` ending a line continues the string (a one-line one too) on the next.
        i++;
        if (text[i] === "\n") {
          lines.add(line);
          line++;
        }
      } else if (text.startsWith(quote, i)) {
        mode = "code";
        i += quote.length - 1;
      }
    }
  }
  return mode === "code" || mode === "comment" ? lines : undefined;
}

const SHELL_EXTENSION = /\.(?:sh|bash|zsh|ksh|bats)$/i;

function isShellPath(path: string): boolean {
  return SHELL_EXTENSION.test(path);
}

/**
 * `<<WORD`, `<<-WORD`, `<< 'WORD'`, `<<"WORD"`, `<<\WORD` (not a here-string, `<<<`), on a line that
 * is not a comment.
 */
const HEREDOC = /(?<!^[ \t]*#.*)(?<!<)<<(?!<)(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z0-9_.-]+))/g;

/** One here-document a line opens: the word that ends it, and what may stand before that word. */
interface Heredoc {
  word: string;
  indent: RegExp | undefined;
  /** What may follow the word on the line that ends it (PHP's `EOT;`); with none, nothing may. */
  after?: RegExp;
}

/** True when `line` ends the here-document `open`. */
function endsHeredoc(open: Heredoc, line: string): boolean {
  const rest = open.indent ? line.replace(open.indent, "") : line;
  if (!open.after) return rest === open.word;
  return rest.startsWith(open.word) && open.after.test(rest.slice(open.word.length));
}

/**
 * The lines of the bodies of the here-documents `opener` finds (several on one line are read in
 * order), to the line that ends each. Only ever more lines than none: an opener the pattern
 * misreads (in a string, a comment, a shift) finds no end, and then no line is said to be outside
 * one (undefined), as when the file ends inside a body.
 */
function heredocLines(
  text: string,
  opener: RegExp,
  read: (match: RegExpMatchArray) => Heredoc,
): Set<number> | undefined {
  const lines = new Set<number>();
  const source = text.split("\n");
  const pending: Heredoc[] = [];
  for (let index = 0; index < source.length; index++) {
    const line = source[index] as string;
    const open = pending[0];
    if (open) {
      if (!endsHeredoc(open, line)) {
        lines.add(index + 1);
        continue;
      }
      pending.shift();
      // The line that ends the last one may open the next (PHP's `EOT . <<<EOT`).
      if (pending.length > 0) continue;
    }
    for (const match of line.matchAll(opener)) pending.push(read(match));
  }
  return pending.length === 0 ? lines : undefined;
}

/** The bodies of a shell script's here-documents, whose lines are data (a test's expected output). */
function shellHeredocLines(text: string): Set<number> | undefined {
  return heredocLines(text, HEREDOC, (match) => ({
    word: (match[2] ?? match[3] ?? match[4]) as string,
    indent: match[1] === "-" ? /^\t+/ : undefined,
  }));
}

/** A Dockerfile or Containerfile, whose BuildKit heredocs (`RUN <<EOF`, `COPY <<EOF /a`) are the shell's. */
const DOCKERFILE_PATH =
  /(?:^|\/)(?:(?:Docker|Container)file(?:\.[^/]*)?|[^/]*\.(?:dockerfile|containerfile))$/i;

function isDockerfilePath(path: string): boolean {
  return DOCKERFILE_PATH.test(path);
}

const RUBY_PATH = /(?:\.(?:rb|rake|gemspec|ru)|(?:^|\/)(?:Rakefile|Gemfile))$/;

function isRubyPath(path: string): boolean {
  return RUBY_PATH.test(path);
}

/**
 * `<<~EOS`, `<<-EOS`, `<<EOS`, and the word quoted (`'EOS'`, `"EOS"`, `` `EOS` ``): no space after
 * `<<`; not on a comment's line, nor `class <<self`.
 */
const RUBY_HEREDOC =
  /(?<!^[ \t]*#.*)(?<!\bclass[ \t]*)<<([~-]?)(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * The bodies of Ruby's heredocs (a spec's expected output, a squiggly `<<~` one too), as for the
 * shell: with `~` or `-` the ending word may be indented; `class << self` and `a << b` (a space
 * after `<<`) open none.
 */
function rubyHeredocLines(text: string): Set<number> | undefined {
  return heredocLines(text, RUBY_HEREDOC, (match) => ({
    word: (match[2] ?? match[3] ?? match[4] ?? match[5]) as string,
    indent: match[1] === "" ? undefined : /^[ \t]+/,
  }));
}

/** The line after which the rest of a Ruby file is its data (`DATA`). */
const RUBY_END = /^__END__\r?$/;

/**
 * Ruby's multi-line literals: the bodies of its heredocs, then the strings, percent literals,
 * regular expressions and `=begin` blocks of the code outside those bodies (which are blanked, so
 * a quote in one does not put the walk out of step), and after `__END__`, every line: the script's
 * data. Undefined when either reader cannot tell.
 */
function rubyLiteralLines(text: string): Set<number> | undefined {
  const source = text.split("\n");
  const end = source.findIndex((line) => RUBY_END.test(line));
  const code = end === -1 ? source : source.slice(0, end + 1);
  const lines = rubyHeredocLines(code.join("\n"));
  if (lines === undefined) return undefined;
  const quotes = rubyQuoteLines(code.map((line, index) => (lines.has(index + 1) ? "" : line)).join("\n"));
  if (quotes === undefined) return undefined;
  for (const number of quotes) lines.add(number);
  if (end !== -1) for (let index = end + 1; index < source.length; index++) lines.add(index + 1);
  return lines;
}

const PHP_EXTENSION = /\.(?:php\d?|phpt|phtml)$/i;

function isPhpPath(path: string): boolean {
  return PHP_EXTENSION.test(path);
}

const PHP_LABEL = String.raw`[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*`;
/** `<<<EOT`, `<<<"EOT"`, `<<< 'EOT'` (a nowdoc): the label ends its line. */
const PHP_HEREDOC = new RegExp(
  String.raw`<<<[ \t]*(?:"(${PHP_LABEL})"|'(${PHP_LABEL})'|(${PHP_LABEL}))\r?$`,
  "g",
);

/**
 * The bodies of PHP's heredocs and nowdocs (a fixer's test input and expected output), as for the
 * shell: the label that ends one may be indented and followed by anything but a label's character
 * (`EOT;`, `EOT, $b)`), as PHP 7.3 reads it.
 */
function phpHeredocLines(text: string): Set<number> | undefined {
  return heredocLines(text, PHP_HEREDOC, (match) => ({
    word: (match[1] ?? match[2] ?? match[3]) as string,
    indent: /^[ \t]+/,
    after: /^(?![A-Za-z0-9_\x80-\xff])/,
  }));
}

const PERL_EXTENSION = /\.(?:pl|pm|t|psgi)$/i;

function isPerlPath(path: string): boolean {
  return PERL_EXTENSION.test(path);
}

/**
 * `<<"EOF"`, `<<'EOF'`, `<< "EOF"`, `<<EOF`, `<<\EOF`, and each with `~` (indented): no space before
 * a bare word, so `1 << WIDTH` opens none; not on a comment's line.
 */
const PERL_HEREDOC = /(?<!^[ \t]*#.*)(?<!<)<<(~?)(?:[ \t]*"([^"\n]*)"|[ \t]*'([^'\n]*)'|\\?([A-Za-z_]\w*))/g;
/** A POD block's first line (`=pod`, `=head1`), to its `=cut`. */
const POD_START = /^=[A-Za-z]/;
/** The line after which the rest of the file is the script's data. */
const PERL_DATA = /^__(?:END|DATA)__\r?$/;

/**
 * The bodies of Perl's heredocs (a test's expected output), as for the shell: with `~` the ending
 * word may be indented. POD is documentation: its lines are not read, so an example in it opens
 * nothing. What follows `__DATA__` is the script's data, and what follows `__END__` too but its POD.
 */
function perlHeredocLines(text: string): Set<number> | undefined {
  const source = text.split("\n");
  const end = source.findIndex((line) => PERL_DATA.test(line));
  const code = end === -1 ? source : source.slice(0, end + 1);
  // POD's lines are blanked, so the line numbers stay.
  let pod = false;
  const read = code.map((line) => {
    if (!pod && POD_START.test(line)) pod = true;
    if (!pod) return line;
    if (/^=cut\b/.test(line)) pod = false;
    return "";
  });
  const lines = heredocLines(read.join("\n"), PERL_HEREDOC, (match) => ({
    word: (match[2] ?? match[3] ?? match[4]) as string,
    indent: match[1] === "~" ? /^[ \t]+/ : undefined,
  }));
  if (lines === undefined) return undefined;
  // The strings of the code outside the heredocs' bodies, which are blanked as POD is.
  const quotes = perlQuoteLines(read.map((line, index) => (lines.has(index + 1) ? "" : line)).join("\n"));
  if (quotes === undefined) return undefined;
  for (const number of quotes) lines.add(number);
  if (end === -1) return lines;
  // After `__END__`, a module's documentation: POD is not data, the rest is.
  pod = false;
  for (let index = end + 1; index < source.length; index++) {
    const line = source[index] as string;
    if (!pod && POD_START.test(line) && (source[end] as string).startsWith("__END__")) pod = true;
    if (!pod) lines.add(index + 1);
    else if (/^=cut\b/.test(line)) pod = false;
  }
  return lines;
}

const HCL_EXTENSION = /\.(?:tf|tfvars|hcl)$/i;

function isHclPath(path: string): boolean {
  return HCL_EXTENSION.test(path);
}

/** `<<EOT` or `<<-EOT` ending its line, not on a comment's line. */
const HCL_HEREDOC = /(?<!^[ \t]*(?:#|\/\/).*)<<-?([A-Za-z_][\w-]*)[ \t]*\r?$/g;

/**
 * The bodies of HCL's heredocs (Terraform's `<<EOT`, `<<-EOT`: a policy, a script, a template),
 * as for the shell: the ending word may be indented in both forms.
 */
function hclHeredocLines(text: string): Set<number> | undefined {
  return heredocLines(text, HCL_HEREDOC, (match) => ({ word: match[1] as string, indent: /^[ \t]+/ }));
}

/**
 * Kotlin, Scala, C# and Swift: a `"""` string keeps its lines' trailing spaces (Java's text blocks
 * do not).
 */
const TRIPLE_QUOTE_EXTENSION = /\.(?:kts?|scala|sc|cs|swift)$/i;

function isTripleQuotePath(path: string): boolean {
  return TRIPLE_QUOTE_EXTENSION.test(path);
}

/** The length of the run of `"` that starts at `i`. */
function quoteRun(text: string, i: number): number {
  let end = i;
  while (text[end] === '"') end++;
  return end - i;
}

/** The number of `#` right before `i`: a Swift string's extended delimiter (`#"""`, `##"`). */
function hashesBefore(text: string, i: number): number {
  let start = i;
  while (text[start - 1] === "#") start--;
  return i - start;
}

/**
 * The same for the raw strings of Kotlin and Scala (`"""..."""`) and C# (`"""..."""`, or longer
 * runs of quotes), C#'s verbatim strings (`@"..."`, `""` a quote) and Swift's multi-line strings
 * (`"""..."""`, `\"""` inside one escaped; with an extended delimiter, `#"""..."""#`, none is),
 * past line and block comments (which nest in Kotlin, Scala and Swift, not in C#), one-line
 * strings and character literals; undefined when a one-line string meets a line break, or the file
 * ends inside a string or a comment.
 */
function tripleQuoteLines(path: string, text: string): Set<number> | undefined {
  const csharp = /\.cs$/i.test(path);
  const swift = /\.swift$/i.test(path);
  let literal: "string" | "verbatim" | "raw" = "string";
  let closer = 3;
  // Swift: the `#`s the string opened with, which its closing quote must be followed by.
  let hashes = 0;
  const closes = (end: number) => text.startsWith("#".repeat(hashes), end);
  return cFamilyLiteralLines(text, { nests: !csharp }, (i, place) => {
    const c = text[i] as string;
    const next = text[i + 1];
    if (place === "code") {
      if (c === "'") return [rustCharEnd(text, i), "code"];
      if (c !== '"') return [i, "code"];
      const run = quoteRun(text, i);
      hashes = swift ? hashesBefore(text, i) : 0;
      if (run >= 3) {
        literal = "raw";
        // Kotlin and Scala open with three, the rest being content; C# with the whole run.
        closer = csharp ? run : 3;
        return [i + closer - 1, "multi-line"];
      }
      if (csharp && (text[i - 1] === "@" || (text[i - 1] === "$" && text[i - 2] === "@"))) {
        literal = "verbatim";
        return [i, "multi-line"];
      }
      if (run === 2) return [i + 1, "code"];
      literal = "string";
      return [i, "one-line"];
    }
    if (literal === "string") {
      if (c === "\\" && next !== "\n" && hashes === 0) return [i + 1, place];
      return c === '"' && closes(i + 1) ? [i + hashes, "code"] : [i, place];
    }
    if (literal === "verbatim") {
      if (c === '"' && next === '"') return [i + 1, place];
      return [i, c === '"' ? "code" : place];
    }
    if (swift && c === "\\" && next !== "\n" && hashes === 0) return [i + 1, place];
    if (c !== '"') return [i, place];
    // A run as long as the opening one ends it; in Kotlin, Scala and Swift, its last three do (in
    // Swift, followed by the `#`s it opened with).
    const run = quoteRun(text, i);
    if (run >= closer && closes(i + run)) return [i + run - 1 + hashes, "code"];
    return [i + run - 1, place];
  });
}

/** C++ sources and headers (`.h` too: C has no `R"`, and a C header reads the same either way). */
const CPP_EXTENSION = /\.(?:cc|cpp|cxx|c\+\+|cppm|ixx|h|hh|hpp|hxx|h\+\+|ipp|tpp|inl)$/i;

function isCppPath(path: string): boolean {
  return CPP_EXTENSION.test(path);
}

/** A raw string's opening: an encoding prefix, `R"`, a delimiter of up to 16 characters, `(`. */
const CPP_RAW_OPENER = /(?:u8|[uUL])?R"([^ ()\\\t\v\f\r\n]{0,16})\(/y;

/**
 * The raw string that opens at `i` (`R"(`, `u8R"x(`, `LR"--(`), or undefined: the opening must
 * begin a word (`FOOR"(...)"` is an identifier and a plain string).
 */
function cppRawOpener(text: string, i: number): RegExpExecArray | undefined {
  if (!/[uULR]/.test(text[i] as string) || (i > 0 && IDENTIFIER_CHAR.test(text[i - 1] as string)))
    return undefined;
  CPP_RAW_OPENER.lastIndex = i;
  return CPP_RAW_OPENER.exec(text) ?? undefined;
}

/**
 * The same for C++'s raw strings (`R"(...)"`, `R"delim(...)delim"`: no escapes, every line break
 * and trailing space content, as a formatter's or a compiler's test holds its expected output),
 * past comments (a line comment goes on past a backslash that ends its line), one-line strings and
 * character literals; undefined when a one-line string meets a line break (a backslash continuing
 * one too), or the file ends inside a string or a comment.
 */
function cppRawStringLines(text: string): Set<number> | undefined {
  // What ends the raw string the lexer is in, `)delim"`; "" in a plain string, which has escapes.
  let closer = "";
  return cFamilyLiteralLines(text, { splices: true }, (i, place) => {
    const c = text[i] as string;
    if (place === "code") {
      const raw = cppRawOpener(text, i);
      if (raw) {
        closer = `)${raw[1]}"`;
        return [i + raw[0].length - 1, "multi-line"];
      }
      if (c === '"') {
        closer = "";
        return [i, "one-line"];
      }
      return [c === "'" ? rustCharEnd(text, i) : i, "code"];
    }
    if (closer === "") {
      // An escape pair; a `\` ending a line leaves the line break to the walk.
      if (c === "\\" && text[i + 1] !== "\n") return [i + 1, place];
      return [i, c === '"' ? "code" : place];
    }
    return text.startsWith(closer, i) ? [i + closer.length - 1, "code"] : [i, place];
  });
}

const YAML_EXTENSION = /\.ya?ml$/i;

function isYamlPath(path: string): boolean {
  return YAML_EXTENSION.test(path);
}

/** A block scalar's indicator (`|`, `>-`, `|2+`), after its tag and anchor, then a comment at most. */
const BLOCK_SCALAR = String.raw`(?:[&!]\S*[ \t]+)*[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?[ \t\r]*$`;
/**
 * A line that opens a block scalar: the value of a key (`run: |`, `"a: b": >-`), a sequence entry
 * (`- |`) or a complex key (`? |`), any of them after `- ` entries (`- key: |`); or the indicator
 * alone, a key's value on the line under it.
 */
const BLOCK_SCALAR_HEADER = new RegExp(
  String.raw`^ *(?:[-?][ \t]+)*(?:(?:[^#\s].*?)?(?<colon>:)[ \t]+)?` + BLOCK_SCALAR,
);
/** A block scalar at the top of a document (`--- |`): its lines may start in the first column. */
const DOCUMENT_SCALAR_HEADER = new RegExp(String.raw`^---[ \t]+` + BLOCK_SCALAR);
/** A node's tag and anchor on a line of their own, above its indicator. */
const PROPERTIES = /^[ \t]*(?:[&!]\S*[ \t]*)+\r?$/;
const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:[ \t\r]|$)/;
/** A template's directive (Helm's `{{ }}`, Jinja's `{% %}`), which may stand for any lines. */
const TEMPLATE_DIRECTIVE = /^[ \t]*\{[{%]/;

const indentOf = (line: string) => line.length - line.trimStart().length;
const isBlank = (line: string) => /^[ \t\r]*$/.test(line);

/**
 * The same for YAML's block scalars (`key: |`, `key: >`), whose lines' trailing spaces are content
 * (a literal block's, a folded one's), to the first line indented no deeper than the line that
 * opened it: deeper than the key or the `-` would be exact, the line's own indent keeps more. Blank
 * lines and a template's directives do not end one (a guess errs on keeping spaces); a header in a
 * string or a comment only keeps more lines. Never undefined: YAML ends a block scalar anywhere.
 */
function yamlBlockScalarLines(text: string): Set<number> {
  const lines = new Set<number>();
  const source = text.split("\n");
  // The indent a line must exceed to be in the open block scalar; undefined: none is open.
  let parent: number | undefined;
  let previous = -1;
  for (let index = 0; index < source.length; index++) {
    const line = source[index] as string;
    if (parent !== undefined) {
      const inside =
        isBlank(line) ||
        TEMPLATE_DIRECTIVE.test(line) ||
        (parent < 0 ? !DOCUMENT_MARKER.test(line) : indentOf(line) > parent);
      if (inside) {
        lines.add(index + 1);
        continue;
      }
      parent = undefined;
    }
    const header = BLOCK_SCALAR_HEADER.exec(line);
    if (DOCUMENT_SCALAR_HEADER.test(line)) parent = -1;
    else if (header) {
      // The indicator alone on its line: the scalar is the value of the key on the line above.
      const alone = header.groups?.colon === undefined && !/^ *[-?][ \t]/.test(line);
      parent = alone ? previous : indentOf(line);
    }
    // The key a lone indicator belongs to: not a comment, nor its tag or anchor on a line of their own.
    if (!isBlank(line) && !line.trimStart().startsWith("#") && !PROPERTIES.test(line))
      previous = indentOf(line);
  }
  return lines;
}

/**
 * The 1-based numbers of the lines of `path` whose trailing spaces belong to a literal of its
 * language (none for a language without such literals), or undefined when a lexer lost track and
 * no line can be said to be outside one.
 */
export function literalLines(path: string, text: string): Set<number> | undefined {
  if (isScriptPath(path)) return templateLiteralLines(text);
  if (isGoPath(path)) return goRawStringLines(text);
  if (isRustPath(path)) return rustStringLines(text);
  if (isPythonPath(path)) return pythonStringLines(text);
  if (isShellPath(path) || isDockerfilePath(path)) return shellHeredocLines(text);
  if (isRubyPath(path)) return rubyLiteralLines(text);
  if (isPhpPath(path)) return phpHeredocLines(text);
  if (isPerlPath(path)) return perlHeredocLines(text);
  if (isHclPath(path)) return hclHeredocLines(text);
  if (isTripleQuotePath(path)) return tripleQuoteLines(path, text);
  if (isCppPath(path)) return cppRawStringLines(text);
  if (isYamlPath(path)) return yamlBlockScalarLines(text);
  const tabled = tabledLiteralLines(path, text);
  return tabled === null ? new Set<number>() : tabled;
}
