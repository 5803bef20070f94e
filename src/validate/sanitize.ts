// Validation layer 5 (design §9): worker text is printed on a terminal and stored, so it loses every
// character that could move the cursor, rewrite the screen, retitle the window or reorder what is shown.

/**
 * Whole escape sequences (ECMA-48), not only their ESC: a bare `[31m` left behind is harmless, but
 * dropping just the ESC of an OSC would print its payload. Unterminated strings run to the end.
 */
const ESCAPE_SEQUENCE = new RegExp(
  [
    // CSI, 7-bit and 8-bit: parameters, intermediates, final byte (a truncated CSI goes too).
    "(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?",
    // OSC, DCS, SOS, PM, APC (7-bit and 8-bit): a string ended by BEL, ST (ESC \\) or 8-bit ST.
    "(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^]*?(?:\\x07|\\x1b\\\\|\\x9c|$)",
    // Any other escape: intermediates then one final byte (ESC ( B, ESC c, ESC 7...).
    "\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?",
  ].join("|"),
  "g",
);

/**
 * Controls (C0 but \n and \t, DEL, C1), format characters (bidi embeddings, overrides and isolates,
 * LRM/RLM/ALM, zero-width space/joiners, BOM, word joiner, invisible operators, tag characters),
 * lone surrogates, and the invisible Hangul fillers and combining grapheme joiner.
 */
const UNSAFE_CHARACTER = /(?![\n\t])(?:[\p{Cc}\p{Cf}\p{Cs}\u115f\u1160\u3164\uffa0]|\u034f)/gu;

/** U+2028/U+2029 end a line in some renderers and not in others: make them plain newlines. */
const UNICODE_LINE_BREAK = /[\u2028\u2029]/g;

/** Text that may span lines (a commit message, a comment body): only \n and \t survive as controls. */
export function sanitizeText(s: string): string {
  return s.replace(ESCAPE_SEQUENCE, "").replace(UNICODE_LINE_BREAK, "\n").replace(UNSAFE_CHARACTER, "");
}

/** One terminal line (`remote: ...`, a comment printed on one line): newlines and tabs become spaces. */
export function sanitizeLine(s: string): string {
  return sanitizeText(s).replace(/[\n\t]/g, " ");
}

/** True when `s` holds nothing that `sanitizeLine` would change. */
export function isSafeLine(s: string): boolean {
  return sanitizeLine(s) === s;
}

/** What `sanitizeLine` removes, plus U+2028/U+2029 and U+FFFD (a name that was not valid UTF-8). */
const DISPLAY_UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0\ufffd]|\u034f/gu;

/**
 * A worker-chosen name shown in a problem line: quoted, with every unsafe character made visible as
 * `\u{...}` instead of removed, so `.g\u{200c}it` is not displayed as a harmless-looking `.git`.
 */
export function quoteForDisplay(s: string): string {
  const escaped = s
    .replace(/[\\"]/g, "\\$&")
    .replace(DISPLAY_UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
  return `"${escaped}"`;
}

/** The same escaping without quotes, for free text such as git's own error lines. */
export function escapeForDisplay(s: string): string {
  return s.replace(DISPLAY_UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}
