// git's own definition of a whitespace error (core.whitespace and the `whitespace` attribute,
// git-config(1) and gitattributes(5)), read the way git's ws.c reads them, so hygiene fixes only
// what `git diff --check` would flag. Only the rules a hygiene fix depends on are kept.

export interface WhitespaceRule {
  /** blank-at-eol: spaces and tabs at the end of a line are an error. */
  blankAtEol: boolean;
}

/** git's default rule: blank-at-eol, blank-at-eof and space-before-tab. */
export const DEFAULT_WHITESPACE_RULE: WhitespaceRule = Object.freeze({ blankAtEol: true });

/** `-whitespace`: no whitespace error at all; hygiene leaves such a file alone. */
const NO_WHITESPACE_RULE: WhitespaceRule = Object.freeze({ blankAtEol: false });

/** The rule names that switch blank-at-eol (trailing-space is blank-at-eol plus blank-at-eof). */
const BLANK_AT_EOL_NAMES = new Set(["blank-at-eol", "trailing-space"]);

/**
 * A core.whitespace-style list (`trailing-space,-space-before-tab,tabwidth=4`): git starts from its
 * default and applies each entry in order; unknown names are ignored, as git ignores them.
 */
export function parseWhitespaceRule(value: string): WhitespaceRule {
  let blankAtEol = DEFAULT_WHITESPACE_RULE.blankAtEol;
  for (const raw of value.split(/[,\s]+/)) {
    const negated = raw.startsWith("-");
    const name = negated ? raw.slice(1) : raw;
    if (BLANK_AT_EOL_NAMES.has(name)) blankAtEol = !negated;
  }
  return { blankAtEol };
}

/**
 * The rule for one path from its `whitespace` attribute (`git check-attr` value): set means every
 * error git knows, unset (`-whitespace`) none, a value is a list like core.whitespace, and
 * unspecified (or `!whitespace`) falls back to core.whitespace.
 */
export function whitespaceRuleFor(attribute: string | undefined, core: WhitespaceRule): WhitespaceRule {
  if (attribute === undefined || attribute === "unspecified") return core;
  if (attribute === "set") return { blankAtEol: true };
  if (attribute === "unset") return NO_WHITESPACE_RULE;
  return parseWhitespaceRule(attribute);
}
