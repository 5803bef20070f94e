// What a content rule is: the contract every credential format in rules/*.ts is written to.
//
// Relied on by the streaming scanner and checked by the rule tests:
// - every match STARTS with one of `keywords` (3 characters or more): the scanner finds all keywords
//   in one pass and tries a rule's regex only there. A keyword with an upper-case letter matches
//   exactly; an all-lower-case keyword matches in any case;
// - a match is at most MAX_MATCH_LENGTH characters (every quantifier is bounded), so a window overlap
//   of that size finds tokens split across chunks;
// - the secret is capture group `secretGroup`, or the first capture group that took part, or the match;
//   a format whose only fixed part is its end (`…_mmk`) may capture it in a lookbehind.
// Content is decoded as latin1 (one character per byte): patterns describe ASCII tokens.

export interface ContentRule {
  readonly id: string;
  readonly description: string;
  /** Where matches start: see the contract above. */
  readonly keywords: readonly string[];
  readonly pattern: RegExp;
  readonly secretGroup?: number;
  /** Minimum Shannon entropy (bits/char) of the secret; formats loose enough to match words need one. */
  readonly entropy?: number;
  /**
   * Secret values that are not credentials: placeholders, variable references, one-case strings. A
   * function also sees the whole match, for rules that judge a value by its neighbours (a URL's user
   * and host).
   */
  readonly reject?: RegExp | ((secret: string, match: RegExpExecArray) => boolean);
  /** The rule applies only to paths matching this. */
  readonly paths?: RegExp;
}

export const MAX_MATCH_LENGTH = 12 * 1024;

/** Keywords with an upper-case letter are compared exactly, the others ignoring case. */
export function isExactKeyword(keyword: string): boolean {
  return /[A-Z]/.test(keyword);
}

/** True when the rule's `reject` says the value is no credential. */
export function isRejected(rule: ContentRule, secret: string, match: RegExpExecArray): boolean {
  if (rule.reject === undefined) return false;
  return typeof rule.reject === "function" ? rule.reject(secret, match) : rule.reject.test(secret);
}
