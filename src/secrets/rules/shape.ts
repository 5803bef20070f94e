// The few pattern shapes two hundred credential rules share: a token with a fixed prefix, and a value
// assigned to a name that says whose credential it is (`TWITTER_API_SECRET = "…"`).
import type { ContentRule } from "./rule.js";

/** Where a token ends: anything but a word character or a hyphen (a longer run is another token). */
export const END = String.raw`(?![\w-])`;

/** A UUID in any case: the shape of many providers' keys (only a provider's name tells them apart). */
export const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** An assignment after a name: more name characters, then `=`, `:`, `=>`, `:=`, `?=` or `,`, then quotes. */
const ASSIGN = String.raw`[\w.-]{0,20}[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}`;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** `word` in any letter case, as the keyword index finds it. */
export function anyCase(word: string): string {
  return [...word]
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c)))
    .join("");
}

/** `prefix` followed by each hex digit: keywords must have 3 characters at least. */
export function hexKeywords(prefix: string, digits = "0123456789abcdefABCDEF"): string[] {
  return [...digits].map((digit) => prefix + digit);
}

interface Described {
  id: string;
  description: string;
  entropy?: number;
  reject?: ContentRule["reject"];
  paths?: RegExp;
}

/**
 * A token that announces itself: one of `prefixes` (exactly as written) then `body`, standing alone.
 * The prefixes are the keywords; one with an upper-case letter is found in that case only.
 */
export function prefixedToken(rule: Described & { prefixes: readonly string[]; body: string }): ContentRule {
  const { prefixes, body, ...rest } = rule;
  const alternatives = prefixes.map(escapeRegex).join("|");
  return {
    ...rest,
    keywords: prefixes,
    pattern: new RegExp(String.raw`(?<!\w)((?:${alternatives})(?:${body}))${END}`),
  };
}

/**
 * A value of the shape `value` assigned to a name containing one of `names` (in any case): the
 * provider's name is what tells its key from any other random string. The names are the keywords.
 */
export function namedValue(rule: Described & { names: readonly string[]; value: string }): ContentRule {
  const { names, value, ...rest } = rule;
  return {
    ...rest,
    keywords: names.map((name) => name.toLowerCase()),
    pattern: new RegExp(`(?:${names.map(anyCase).join("|")})${ASSIGN}(${value})${END}`),
  };
}
