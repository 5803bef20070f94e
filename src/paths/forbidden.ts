// Forbidden paths (design §9, layer 4): CI, hooks, git and package-manager config run code or
// redirect credentials, so a proposal may not touch them, whatever case or disguise it uses. The
// client's validation rejects a result that does; the worker leaves them alone in the first place.

import { matchSecretName } from "../secrets/names.js";
import { foldPath } from "./fold.js";
import { FORBIDDEN_FAMILIES } from "./forbidden-families.js";
import { matchGlob, matchGlobList } from "./glob.js";

/** Design §9 defaults; the policy file's `forbiddenPaths` are added to these, never subtracted. */
export const DEFAULT_FORBIDDEN_PATHS: readonly string[] = FORBIDDEN_FAMILIES.flatMap(
  (family) => family.patterns,
);

/** The secret name rules (src/secrets): the rule that matches a path, or undefined. */
export type SecretNameCheck = (path: string) => string | undefined;

/** The spellings a checkout may turn `path` into: as is, NFC + lower case, and fully folded. */
function spellings(path: string): string[] {
  const lower = path.normalize("NFC").toLowerCase();
  return [...new Set([path, lower, foldPath(path)])];
}

interface PositivePatterns {
  patterns: readonly string[];
  /** The patterns and their lower-case spellings, in one list without negations. */
  all: readonly string[];
  /** False when no pattern of `all` can match `path` (the library need not be asked). */
  mayMatch(path: string): boolean;
}

/**
 * The longest run of plain characters in a gitignore pattern: a path the pattern matches holds it
 * (the pattern's own case; a match is case-sensitive). Globs, brackets, escapes, slashes and spaces
 * (a trailing one is dropped) end a run, so it is a run of the pattern's literal text in any case.
 */
function requiredText(pattern: string): string {
  let longest = "";
  let run = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close !== -1) i = close;
    }
    if ("*?[]\\/ ".includes(c)) {
      if (c === "\\") i++;
      if (run.length > longest.length) longest = run;
      run = "";
    } else run += c;
  }
  return run.length > longest.length ? run : longest;
}

/**
 * A path must hold one of the patterns' required texts to match any of them; one regex of those
 * texts answers the common case (a path no pattern matches) without the library's matcher, which
 * tests every pattern on the path and each of its directories (2-3x slower on a 500-file proposal).
 * A pattern without any plain text makes every path go to the library.
 */
function literalFilter(all: readonly string[]): (path: string) => boolean {
  const texts = all.map(requiredText);
  if (texts.some((text) => text === "")) return () => true;
  const escaped = [...new Set(texts)].map((text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  const any = new RegExp(escaped.join("|"));
  return (path) => any.test(path);
}

const positiveCache = new WeakMap<readonly string[], PositivePatterns>();

/** The patterns that forbid something: blanks, comments and negations left out (see below). */
function positivePatterns(forbiddenPaths: readonly string[]): PositivePatterns {
  let cached = positiveCache.get(forbiddenPaths);
  if (!cached) {
    const patterns = forbiddenPaths.filter(
      (pattern) => pattern !== "" && !pattern.startsWith("#") && !pattern.startsWith("!"),
    );
    const all = [
      ...new Set(patterns.flatMap((pattern) => [pattern, pattern.normalize("NFC").toLowerCase()])),
    ];
    cached = { patterns, all, mayMatch: literalFilter(all) };
    positiveCache.set(forbiddenPaths, cached);
  }
  return cached;
}

/**
 * Why `path` is forbidden, or undefined. Every pattern counts on its own: a `!pattern` in the policy
 * cannot re-allow a default (the policy only makes a review stricter), so negations are ignored.
 */
export function forbiddenPathReason(
  path: string,
  forbiddenPaths: readonly string[],
  isSecretName: SecretNameCheck,
): string | undefined {
  const variants = spellings(path);
  const { patterns, all, mayMatch } = positivePatterns(forbiddenPaths);
  // One matcher over every pattern answers the common case, a path no pattern matches (most paths
  // are not even asked it: they hold no pattern's text); only a hit goes pattern by pattern to name
  // the one that matched.
  const matches = (variant: string) => mayMatch(variant) && matchGlobList(all, variant) !== undefined;
  if (variants.some(matches)) {
    for (const pattern of patterns) {
      const folded = pattern.normalize("NFC").toLowerCase();
      if (variants.some((variant) => matchGlob(pattern, variant) || matchGlob(folded, variant))) {
        return `is a forbidden path (${pattern})`;
      }
    }
  }
  for (const variant of variants) {
    const rule = isSecretName(variant);
    if (rule !== undefined) return `matches the secret name rule ${rule}`;
  }
  return undefined;
}

/** One list per request's list: the matchers are cached by list, and a proposal asks per path. */
const withDefaults = new WeakMap<readonly string[], readonly string[]>();

/**
 * The forbidden paths a result is judged by: those of the request as it was sent (the policy of the
 * moment it left, whatever the policy file says now), with this version's defaults added, since a
 * default can only have grown since.
 */
export function requestForbiddenPaths(requestForbidden: readonly string[]): readonly string[] {
  let paths = withDefaults.get(requestForbidden);
  if (!paths) {
    paths = [...new Set([...DEFAULT_FORBIDDEN_PATHS, ...requestForbidden])];
    withDefaults.set(requestForbidden, paths);
  }
  return paths;
}

/** Why a proposal may not change `path` under a request's forbiddenPaths (the defaults added), or undefined. */
export function forbiddenChangeReason(path: string, requestForbidden: readonly string[]): string | undefined {
  return forbiddenPathReason(path, requestForbiddenPaths(requestForbidden), (p) => matchSecretName(p)?.id);
}
