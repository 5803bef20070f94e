// Which fixes hygiene may make in one file, from everything the tree and the request say: the lines
// the change added (a focused review never touches another line), git's whitespace rules (the
// `whitespace` attribute over core.whitespace), the .editorconfig properties, Markdown hard breaks
// and string literals whose trailing spaces are content (JavaScript templates, Go raw strings, Rust,
// Python's triple-quoted strings, a shell script's here-documents, Ruby's, PHP's, Perl's, HCL's and
// a Dockerfile's heredocs, Ruby's strings and percent literals, Kotlin, Scala and C# raw strings, Swift's multi-line strings, C++ raw
// strings, YAML's block scalars, and the multi-line strings of Dart, Groovy, Elixir, Julia, Lua, Zig,
// the Lisps, TOML, R, Nim, Crystal, Nix and PowerShell).
import type { LineSpan } from "../../protocol/changed-lines.js";
import type { EditorSettings } from "./editorconfig.js";
import { isMarkdownBreak, isMarkdownPath } from "./hygiene-scope.js";
import type { FixRules } from "./hygiene-text.js";
import { literalLines } from "./template-literals.js";
import { type WhitespaceRule, whitespaceRuleFor } from "./whitespace-rules.js";

export interface FileFacts {
  path: string;
  /** The file's bytes as latin1 text (one char per byte). */
  text: string;
  /** The lines the change added; undefined in a whole-tree review (every line counts), null when unknown. */
  added: readonly LineSpan[] | null | undefined;
  /** The path's `whitespace` attribute as `git check-attr` prints it. */
  whitespace: string | undefined;
  editor: EditorSettings;
  core: WhitespaceRule;
}

const NO_FIXES: FixRules = { trims: () => false, finalNewline: false };

function inSpans(spans: readonly LineSpan[], line: number): boolean {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last] = spans[middle] as LineSpan;
    if (line < first) high = middle - 1;
    else if (line > last) low = middle + 1;
    else return true;
  }
  return false;
}

/** The number of the last line: a final line without a newline counts. */
function lastLineNumber(text: string): number {
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines : lines + 1;
}

export function fixRulesFor(file: FileFacts): FixRules {
  const { added } = file;
  if (added === null || file.whitespace === "unset") return NO_FIXES;
  const isAdded = (line: number) => added === undefined || inSpans(added, line);
  const rule = whitespaceRuleFor(file.whitespace, file.core);
  const trimAllowed = rule.blankAtEol && file.editor.trimTrailingWhitespace !== false;
  const markdown = isMarkdownPath(file.path);
  // A break at the end of a paragraph (before a blank line or the end of the file) breaks onto
  // nothing: CommonMark does not render it, so its whitespace goes too.
  let lines: string[] | undefined;
  const endsBlock = (line: number) => {
    lines ??= file.text.split("\n");
    const next = lines[line];
    return next === undefined || next.trim() === "";
  };
  // Lexed only for the first line that would be trimmed: most files have none, and the lexer walks
  // every character. A lexer that lost track protects every line (undefined means "all").
  let templates: Set<number> | undefined | null = null;
  const inTemplate = (line: number) => {
    if (templates === null) templates = literalLines(file.path, file.text);
    return templates === undefined || templates.has(line);
  };
  return {
    trims: (line, body) =>
      trimAllowed &&
      isAdded(line) &&
      !inTemplate(line) &&
      !(markdown && isMarkdownBreak(body) && !endsBlock(line)),
    // Only when the change wrote the last line: a file kept without one on purpose stays so.
    finalNewline: file.editor.insertFinalNewline !== false && isAdded(lastLineNumber(file.text)),
  };
}
