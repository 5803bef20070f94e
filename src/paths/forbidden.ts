// Forbidden paths (design §9, layer 4): CI, hooks, git and package-manager config run code or
// redirect credentials, so a proposal may not touch them, whatever case or disguise it uses. The
// client's validation rejects a result that does; the worker leaves them alone in the first place.

import { matchSecretName } from "../secrets/names.js";
import { foldPath } from "./fold.js";
import { FORBIDDEN_FAMILIES } from "./forbidden-families.js";
import { matchGlob } from "./glob.js";

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
  for (const pattern of forbiddenPaths) {
    if (pattern === "" || pattern.startsWith("#") || pattern.startsWith("!")) continue;
    const folded = pattern.normalize("NFC").toLowerCase();
    if (variants.some((variant) => matchGlob(pattern, variant) || matchGlob(folded, variant))) {
      return `is a forbidden path (${pattern})`;
    }
  }
  for (const variant of variants) {
    const rule = isSecretName(variant);
    if (rule !== undefined) return `matches the secret name rule ${rule}`;
  }
  return undefined;
}

/**
 * The forbidden paths a result is judged by: those of the request as it was sent (the policy of the
 * moment it left, whatever the policy file says now), with this version's defaults added, since a
 * default can only have grown since.
 */
export function requestForbiddenPaths(requestForbidden: readonly string[]): string[] {
  return [...new Set([...DEFAULT_FORBIDDEN_PATHS, ...requestForbidden])];
}

/** Why a proposal may not change `path` under a request's forbiddenPaths (the defaults added), or undefined. */
export function forbiddenChangeReason(path: string, requestForbidden: readonly string[]): string | undefined {
  return forbiddenPathReason(path, requestForbiddenPaths(requestForbidden), (p) => matchSecretName(p)?.id);
}
