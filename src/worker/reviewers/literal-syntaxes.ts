// The string and comment syntax of the languages whose multi-line literals one table can describe
// (Dart, Groovy, Elixir, Julia, Lua, Zig, Clojure and the other Lisps, TOML, R, Nim, Crystal, Nix,
// PowerShell, and Perl and Ruby outside their heredocs), and the one walk that reads them: which lines end inside a literal whose trailing
// spaces are data, or undefined when the walk cannot tell (a one-line string meets a line break,
// the file ends inside a literal, or an opener the table does not follow: Crystal's heredocs).

/**
 * One kind of literal or comment. `open` is tried at each character of code (sticky, so a
 * lookbehind sees what came before); what it captures may make the `close`. A close of "" makes the
 * match an atom (a character literal: nothing inside), one of "\n" a literal that ends with its line.
 */
interface Literal {
  open: RegExp;
  close: string | ((match: RegExpExecArray) => string);
  /**
   * `data`: its lines' trailing spaces are content; `one-line`: it may not meet a line break;
   * `comment`: neither; `unsure`: an opener the walk does not follow, so it gives up on the file.
   */
  kind: "data" | "one-line" | "comment" | "unsure";
  /** An escape (sticky) read as one unit inside, so the close it holds does not end the literal. */
  escape?: RegExp;
  /**
   * The opening inside the literal opens another that needs its own close (nested comments); a
   * function names that opening from the match (a bracket delimiter's own bracket), or none.
   */
  nests?: boolean | ((match: RegExpExecArray) => string | undefined);
  /**
   * How many delimited parts the literal has (Perl's `s/a/b/`, `tr{a}{b}`): a part's close opens
   * the next, or with brackets, the delimiter that follows it does.
   */
  parts?: (match: RegExpExecArray) => number;
  /**
   * What opens code inside the literal (Ruby's `#{`), to the `}` that matches its braces: strings
   * in it are walked as anywhere else, and the literal resumes after it.
   */
  interpolation?: string;
}

/** A backslash and the character after it, a line break too. */
const BACKSLASH = /\\[\s\S]/y;

const sticky = (source: string) => new RegExp(source.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "y");

/** A literal delimited by one string on each side. */
function quoted(delimiter: string, kind: Literal["kind"], escapes?: RegExp): Literal {
  return { open: sticky(delimiter), close: delimiter, kind, ...(escapes ? { escape: escapes } : {}) };
}

const lineComment = (start: string): Literal => ({ open: sticky(start), close: "\n", kind: "comment" });

const blockComment = (open: string, close: string, nests: boolean): Literal => ({
  open: sticky(open),
  close,
  kind: "comment",
  nests,
});

/** A character literal of one escape or one character (up to 4 bytes of UTF-8) between `'`s. */
const CHARACTER: Literal = { open: /'(?:\\.[^'\n]*|[^\\'\n]{1,4})'/y, close: "", kind: "comment" };

const PAIRS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const closerOf = (open: string) => PAIRS[open] ?? open;
/** A bracket delimiter's own bracket, which nests inside the literal it opens. */
const bracketOf = (match: RegExpExecArray) => {
  const delimiter = match[1] as string;
  return delimiter in PAIRS ? delimiter : undefined;
};

/** Dart: `'''` and `"""` strings span lines, raw ones (`r'''`) without escapes; comments nest. */
const DART: Literal[] = [
  lineComment("//"),
  blockComment("/*", "*/", true),
  { open: /(?<![\w$])r'''/y, close: "'''", kind: "data" },
  { open: /(?<![\w$])r"""/y, close: '"""', kind: "data" },
  { open: /(?<![\w$])r'/y, close: "'", kind: "one-line" },
  { open: /(?<![\w$])r"/y, close: '"', kind: "one-line" },
  quoted("'''", "data", BACKSLASH),
  quoted('"""', "data", BACKSLASH),
  quoted("'", "one-line", BACKSLASH),
  quoted('"', "one-line", BACKSLASH),
];

/**
 * Groovy (and Gradle's Groovy scripts): `'''` and `"""`, dollar-slashy strings (`$/.../$`, `$`
 * escaping) and slashy ones (`/.../`, where an operand cannot stand: after `=`, `(`, `,`, `~` and
 * the like, or `return`), all of which span lines.
 */
const GROOVY: Literal[] = [
  lineComment("//"),
  blockComment("/*", "*/", false),
  quoted("'''", "data", BACKSLASH),
  quoted('"""', "data", BACKSLASH),
  { open: /\$\//y, close: "/$", kind: "data", escape: /\$[\s\S]/y },
  { open: /(?<=(?:[=(,:!&|?{};[~]|\breturn)[ \t]*)\/(?![/*])/y, close: "/", kind: "data", escape: /\\\//y },
  quoted("'", "one-line", BACKSLASH),
  quoted('"', "one-line", BACKSLASH),
];

/**
 * Elixir: heredocs (`"""`, `'''`), strings and charlists, which span lines too, and sigils
 * (`~s(...)`, `~S"""`, `~r/.../`) with any of their delimiters; `?"` is a character, not a quote; a `#{}` in all but an
 * uppercase sigil is code to its matching brace, as Ruby's.
 */
const ELIXIR: Literal[] = [
  { open: /\?\\?[^\n]/y, close: "", kind: "comment" },
  lineComment("#"),
  {
    open: /~[a-z]("""|'''|["'/|([{<])/y,
    close: (match) => closerOf(match[1] as string),
    kind: "data",
    escape: BACKSLASH,
    interpolation: "#{",
  },
  {
    open: /~[A-Z]\w*("""|'''|["'/|([{<])/y,
    close: (match) => closerOf(match[1] as string),
    kind: "data",
    escape: BACKSLASH,
  },
  { ...quoted('"""', "data", BACKSLASH), interpolation: "#{" },
  { ...quoted("'''", "data", BACKSLASH), interpolation: "#{" },
  { ...quoted('"', "data", BACKSLASH), interpolation: "#{" },
  { ...quoted("'", "data", BACKSLASH), interpolation: "#{" },
];

/**
 * Julia: `"""` and `"` strings (both span lines) and commands (```` ``` ````, `` ` ``); `#=` comments
 * nest; a `'` after an operand is a transpose, not a character.
 */
const JULIA: Literal[] = [
  blockComment("#=", "=#", true),
  lineComment("#"),
  quoted('"""', "data", BACKSLASH),
  quoted("```", "data", BACKSLASH),
  quoted('"', "data", BACKSLASH),
  quoted("`", "data", BACKSLASH),
  { ...CHARACTER, open: /(?<![\w)\]}'.])'(?:\\.[^'\n]*|[^\\'\n]{1,4})'/y },
];

const longBracket = (match: RegExpExecArray) => `]${match[1]}]`;

/** Lua: long strings (`[[...]]`, `[==[...]==]`) and long comments (`--[[...]]`). */
const LUA: Literal[] = [
  { open: /--\[(=*)\[/y, close: longBracket, kind: "comment" },
  lineComment("--"),
  { open: /\[(=*)\[/y, close: longBracket, kind: "data" },
  quoted('"', "one-line", BACKSLASH),
  quoted("'", "one-line", BACKSLASH),
];

/** Zig: a multi-line string is a run of lines that each hold `\\` and the line's data after it. */
const ZIG: Literal[] = [
  lineComment("//"),
  { open: /\\\\/y, close: "\n", kind: "data" },
  quoted('"', "one-line", BACKSLASH),
  quoted("'", "one-line", BACKSLASH),
];

/** Clojure: strings (and `#"..."` regexes) span lines; `\"` outside one is a character. */
const CLOJURE: Literal[] = [
  lineComment(";"),
  { open: /\\[^\n]/y, close: "", kind: "comment" },
  quoted('"', "data", BACKSLASH),
];

/**
 * Common Lisp, Scheme and Racket: strings span lines (a docstring, a test's expected output);
 * `#|` comments nest; `#\"` is a character.
 */
const LISP: Literal[] = [
  blockComment("#|", "|#", true),
  lineComment(";"),
  { open: /#\\[^\n]/y, close: "", kind: "comment" },
  quoted('"', "data", BACKSLASH),
];

/** Emacs Lisp: strings span lines; `?"` and `?\"` are characters, a backslash escapes in a symbol. */
const EMACS_LISP: Literal[] = [
  lineComment(";"),
  { open: /\?\\?[^\n]|\\[^\n]/y, close: "", kind: "comment" },
  quoted('"', "data", BACKSLASH),
];

/**
 * TOML: multi-line basic (`"""`) and literal (`'''`) strings; a run of four or five quotes ends
 * one with its last three.
 */
const TOML: Literal[] = [
  lineComment("#"),
  quoted('"""', "data", /\\[\s\S]|"+(?=""")/y),
  quoted("'''", "data", /'+(?=''')/y),
  quoted('"', "one-line", BACKSLASH),
  quoted("'", "one-line"),
];

/** R: strings span lines, raw ones too (`r"(...)"`, `R"--[...]--"`). */
const R: Literal[] = [
  lineComment("#"),
  {
    open: /(?<![\w.])[rR](["'])(-*)([([{])/y,
    close: (match) => `${closerOf(match[3] as string)}${match[2]}${match[1]}`,
    kind: "data",
  },
  quoted('"', "data", BACKSLASH),
  quoted("'", "data", BACKSLASH),
  quoted("`", "one-line", BACKSLASH),
];

/**
 * Nim: `"""` strings (raw; a longer run of quotes ends one with its last three), one-line strings
 * (raw after an identifier, `r"..."`, with `""` a quote), characters; `#[` and `##[` comments nest.
 */
const NIM: Literal[] = [
  blockComment("##[", "]##", true),
  blockComment("#[", "]#", true),
  lineComment("#"),
  quoted('"""', "data", /"+(?=""")/y),
  { open: /(?<=\w)"/y, close: '"', kind: "one-line", escape: /""/y },
  quoted('"', "one-line", BACKSLASH),
  CHARACTER,
];

/**
 * Crystal: strings span lines, as do percent literals (`%(...)`, `%q[...]`, `puts %(...)`: a
 * modulo spaced so, `a % (b)`, is read as one too, which only keeps more); a `#{}` in a string or
 * `%()`, `%Q()` is code to its matching brace, as Ruby's; a heredoc (`<<-EOS`) is not followed, so
 * a file that opens one is unsure.
 */
const CRYSTAL: Literal[] = [
  lineComment("#"),
  { open: /<<-(?:'\w+'|"\w+"|\w+)/y, close: "", kind: "unsure" },
  {
    open: /(?<![\w)\]}])%[qwi]([([{<|])/y,
    close: (match) => closerOf(match[1] as string),
    kind: "data",
    nests: bracketOf,
    escape: BACKSLASH,
  },
  {
    open: /(?<![\w)\]}])%Q?([([{<|])/y,
    close: (match) => closerOf(match[1] as string),
    kind: "data",
    nests: bracketOf,
    escape: BACKSLASH,
    interpolation: "#{",
  },
  { ...quoted('"', "data", BACKSLASH), interpolation: "#{" },
  CHARACTER,
];

/**
 * PowerShell: here-strings (`@"` to a `"@` that starts a line, `@'` to `'@`), and strings, which
 * span lines too (`` ` `` escapes in `"..."`, `""` and `''` are quotes); `<#` block comments.
 */
const POWERSHELL: Literal[] = [
  blockComment("<#", "#>", false),
  lineComment("#"),
  { open: sticky('@"'), close: '"@', kind: "data", escape: /`[\s\S]|(?<!\n)"@/y },
  { open: sticky("@'"), close: "'@", kind: "data", escape: /(?<!\n)'@/y },
  quoted('"', "data", /`[\s\S]|""/y),
  quoted("'", "data", /''/y),
];

/** Nix: indented strings (`''...''`: `'''`, `''$` and `''\` escapes) and strings span lines. */
const NIX: Literal[] = [
  lineComment("#"),
  blockComment("/*", "*/", false),
  quoted("''", "data", /''(?:['$]|\\[\s\S])/y),
  quoted('"', "data", BACKSLASH),
];

/** A Perl quote-like operator's opening delimiter, right after it or, a bracket, after spaces. */
const perlDelimiter = (match: RegExpExecArray) => (match[2] ?? match[3]) as string;

/**
 * Perl outside its heredocs and POD (which `perlHeredocLines` reads): strings span lines, as do
 * `q{}`, `qq()`, `qw//` and the match and substitute operators (read to their first delimiter's
 * close: the rest is code, which opens nothing); `$#`, `$'` and `$"` are variables, not a comment
 * or a quote.
 */
const PERL: Literal[] = [
  { open: /\$[#'"`]/y, close: "", kind: "comment" },
  lineComment("#"),
  {
    open: /(?<![^\s(!=~{,;[.])(q[qwxr]?|m|s|tr|y)(?:([^\w\s=>)\]}])|\s+([([{<]))/y,
    close: (match) => closerOf(perlDelimiter(match)),
    kind: "data",
    nests: (match) => (perlDelimiter(match) in PAIRS ? perlDelimiter(match) : undefined),
    parts: (match) => (/^(?:s|tr|y)$/.test(match[1] as string) ? 2 : 1),
    escape: BACKSLASH,
  },
  {
    open: /(?<=(?:[=!]~|[(,;{]|\b(?:split|grep|if|unless|and|or|not|return))\s*)\//y,
    close: "/",
    kind: "data",
    escape: BACKSLASH,
  },
  quoted('"', "data", BACKSLASH),
  quoted("'", "data", BACKSLASH),
  quoted("`", "data", BACKSLASH),
];

const RUBY_ESCAPE = /\\[\s\S]/y;

/** A Ruby string that interpolates (`"`, `` ` ``, `/`), to `close`. */
const rubyInterpolated = (open: RegExp, close: string): Literal => ({
  open,
  close,
  kind: "data",
  escape: RUBY_ESCAPE,
  interpolation: "#{",
});

/** A percent literal, whose delimiter is its match's first group that matched; with brackets, they nest. */
const rubyPercent = (open: RegExp, interpolates: boolean): Literal => {
  const delimiter = (match: RegExpExecArray) => (match[1] ?? match[2]) as string;
  return {
    open,
    close: (match) => closerOf(delimiter(match)),
    kind: "data",
    nests: (match) => (delimiter(match) in PAIRS ? delimiter(match) : undefined),
    escape: RUBY_ESCAPE,
    ...(interpolates ? { interpolation: "#{" } : {}),
  };
};

/** What stands before a `/` that starts a regular expression: an operator, an opening, a keyword, a line's start. */
const RUBY_BEFORE_REGEX = String.raw`(?:^|\n|[(,=~!{[;|&?:<>+\-*^]|\b(?:if|elsif|unless|while|until|when|and|or|not|return|then|do|else|in|case))[ \t]*`;

/**
 * Ruby outside its heredocs (which `rubyHeredocLines` reads): strings, commands and regular
 * expressions span lines, as do percent literals (`%q()`, `%Q{}`, `%w[]`, `%r!!`, `%()`, which a
 * modulo spaced so, `a % (b)`, is read as, which only keeps more), and `=begin` to `=end`. The walk
 * gives up where it cannot tell: a `/` after a name and a space (`foo /x/` passes a regular
 * expression, `foo /x` divides), a `?"` after a name and a space (a character or a ternary). A
 * `#{}` in a literal that interpolates is code to its matching brace, strings in it too; `?"`
 * where an operand starts (`x = ?"`, `chomp(?/)`, `when ?"`) is a character; `$'`, `$"`, `$/` are variables;
 * `def /(x)`, `a./(b)` and `:/` name the method.
 */
const RUBY: Literal[] = [
  {
    open: /\$[`'"/\\]|(?<=\.|\bdef[ \t]+(?:self\.)?)[/%`]|(?<![:\w]):[/%`](?=[\s),\]}]|$)/y,
    close: "",
    kind: "comment",
  },
  {
    open: new RegExp(String.raw`(?<=${RUBY_BEFORE_REGEX})\?(?:\\(?:[MC]-\\?)*[^\n]|[^\s\\])(?!\w)`, "y"),
    close: "",
    kind: "comment",
  },
  { open: /(?<!\w)\?[\\"'`#%/]/y, close: "", kind: "unsure" },
  { open: /(?<=(?:^|\n))=begin(?![^\s])/y, close: "=end", kind: "data", escape: /(?<!\n)=end/y },
  lineComment("#"),
  rubyPercent(/(?<![\w)\]}])%[qwis]([^\w\s])/y, false),
  rubyPercent(/(?<![\w)\]}])%(?:[QWIrx]([^\w\s])|([^\w\s=]))/y, true),
  rubyInterpolated(new RegExp(String.raw`(?<=${RUBY_BEFORE_REGEX})\/`, "y"), "/"),
  { open: /(?<=(?:^|[^\w@$])[A-Za-z_]\w*[?!]?[ \t]+)\/(?![\s=])/y, close: "", kind: "unsure" },
  rubyInterpolated(/"/y, '"'),
  rubyInterpolated(/`/y, "`"),
  quoted("'", "data", RUBY_ESCAPE),
];

/** The lines inside Ruby's strings, percent literals and regular expressions, of a text with no heredoc body. */
export function rubyQuoteLines(text: string): Set<number> | undefined {
  return walkLiterals(text, RUBY);
}

/** The lines inside Perl's strings and quote-like operators, of a text with no heredoc body or POD. */
export function perlQuoteLines(text: string): Set<number> | undefined {
  return walkLiterals(text, PERL);
}

const SYNTAXES: [path: RegExp, syntax: Literal[]][] = [
  [/\.dart$/i, DART],
  [/(?:\.(?:groovy|gradle|gvy|gy|gsh)|(?:^|\/)Jenkinsfile)$/i, GROOVY],
  [/\.exs?$/i, ELIXIR],
  [/\.jl$/i, JULIA],
  [/\.lua$/i, LUA],
  [/\.zig$/i, ZIG],
  [/\.(?:clj[sc]?|edn)$/i, CLOJURE],
  [/\.(?:lisp|lsp|asd|scm|ss|sld|rkt)$/i, LISP],
  [/\.el$/i, EMACS_LISP],
  [/\.toml$/i, TOML],
  [/\.r$/i, R],
  [/\.(?:nim|nims|nimble)$/i, NIM],
  [/\.cr$/i, CRYSTAL],
  [/\.nix$/i, NIX],
  [/\.ps[dm]?1$/i, POWERSHELL],
];

/** The literal whose opening stands at `i`, and the match; undefined if none does. */
function openingAt(syntax: Literal[], text: string, i: number): [Literal, RegExpExecArray] | undefined {
  for (const literal of syntax) {
    literal.open.lastIndex = i;
    const match = literal.open.exec(text);
    if (match) return [literal, match];
  }
  return undefined;
}

/**
 * The 1-based numbers of the lines whose line break lies inside one of `syntax`'s data literals
 * (and a line whose data runs to its end, Zig's `\\`), or undefined when a one-line literal meets a
 * line break, an `unsure` opener stands in code, or the file ends inside a literal or a comment.
 */
function walkLiterals(text: string, syntax: Literal[]): Set<number> | undefined {
  const lines = new Set<number>();
  let line = 1;
  type Open = {
    literal: Literal;
    close: string;
    depth: number;
    nest: RegExp | string | undefined;
    parts: number;
  };
  let open: Open | undefined;
  /** The literals an interpolation's code stands in, innermost last, and the braces open in that code. */
  const outer: { literal: Open; braces: number }[] = [];
  /** A line break inside the open literal; false when that loses track. */
  const breakInside = (literal: Literal) => {
    if (literal.kind === "one-line") return false;
    if (literal.kind === "data") lines.add(line);
    line++;
    return true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (open === undefined) {
      if (c === "\n") {
        // A line break in an interpolation is kept with the literal around it.
        if (outer.length > 0) lines.add(line);
        line++;
        continue;
      }
      const interpolation = outer[outer.length - 1];
      if (interpolation && c === "{") interpolation.braces++;
      else if (interpolation && c === "}") {
        if (interpolation.braces === 0) {
          open = interpolation.literal;
          outer.pop();
          continue;
        }
        interpolation.braces--;
      }
      const opening = openingAt(syntax, text, i);
      if (!opening) continue;
      const [literal, match] = opening;
      if (literal.kind === "unsure") return undefined;
      const close = typeof literal.close === "string" ? literal.close : literal.close(match);
      i += match[0].length - 1;
      const nest = typeof literal.nests === "function" ? literal.nests(match) : literal.nests;
      const parts = literal.parts?.(match) ?? 1;
      if (close !== "")
        open = { literal, close, depth: 1, nest: nest === true ? literal.open : nest || undefined, parts };
      continue;
    }
    const { literal } = open;
    if (c === "\n" && open.close === "\n") {
      if (literal.kind === "data") lines.add(line);
      open = undefined;
      line++;
      continue;
    }
    if (c === "\n") {
      if (!breakInside(literal)) return undefined;
      continue;
    }
    if (literal.escape) {
      literal.escape.lastIndex = i;
      const escaped = literal.escape.exec(text);
      if (escaped) {
        for (const char of escaped[0]) if (char === "\n" && !breakInside(literal)) return undefined;
        i += escaped[0].length - 1;
        continue;
      }
    }
    if (literal.interpolation && text.startsWith(literal.interpolation, i)) {
      outer.push({ literal: open, braces: 0 });
      open = undefined;
      i += literal.interpolation.length - 1;
      continue;
    }
    if (text.startsWith(open.close, i)) {
      i += open.close.length - 1;
      open.depth--;
      if (open.depth > 0) continue;
      if (open.parts > 1 && typeof open.nest === "string") {
        // The next part's own delimiter, after spaces at most.
        let next = i + 1;
        while (text[next] === " " || text[next] === "\t") next++;
        const delimiter = text[next];
        if (delimiter !== undefined && /[^\w\s]/.test(delimiter)) {
          const nest = delimiter in PAIRS ? delimiter : undefined;
          open = { ...open, close: closerOf(delimiter), depth: 1, nest, parts: open.parts - 1 };
          i = next;
          continue;
        }
      } else if (open.parts > 1) {
        open = { ...open, depth: 1, parts: open.parts - 1 };
        continue;
      }
      open = undefined;
      continue;
    }
    if (typeof open.nest === "string" && text.startsWith(open.nest, i)) open.depth++;
    else if (open.nest instanceof RegExp) {
      open.nest.lastIndex = i;
      const nested = open.nest.exec(text);
      if (nested) {
        open.depth++;
        i += nested[0].length - 1;
      }
    }
  }
  if (outer.length > 0) return undefined;
  if (open === undefined) return lines;
  if (open.close !== "\n") return undefined;
  if (open.literal.kind === "data") lines.add(line);
  return lines;
}

/**
 * The lines of `path`'s data literals when the table above holds its language; null when it does
 * not (the caller's lexers may), undefined when the walk is unsure.
 */
export function tabledLiteralLines(path: string, text: string): Set<number> | undefined | null {
  for (const [pattern, syntax] of SYNTAXES) if (pattern.test(path)) return walkLiterals(text, syntax);
  return null;
}
