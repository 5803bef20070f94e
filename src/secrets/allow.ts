// Allowing a finding: `secrets.allow` policy entries and the inline `review-remote:allow` marker.
// An allow never silences a different value: a fingerprint names one value in one file, a rule id
// names one rule, and a marker only covers its own line.
import type { Finding, SecretAllow } from "./finding.js";

export const INLINE_ALLOW_MARKER = "review-remote:allow";

/** What a marker allows on its line: everything (bare marker) or the listed rule ids/fingerprints. */
export type InlineAllow = "all" | ReadonlySet<string>;

/** `review-remote:allow` then, after blanks, an optional `id[,id...]` list; a comment closer ends it. */
const MARKER_LIST = /^(?![\w-])(?:[ \t]+([A-Za-z0-9][\w.-]*(?:[ \t]*,[ \t]*[A-Za-z0-9][\w.-]*)*))?/;

/**
 * Parses what follows the marker on its line; undefined when the text is not a marker at all
 * (`review-remote:allowed`).
 */
export function parseInlineAllow(afterMarker: string): InlineAllow | undefined {
  const match = MARKER_LIST.exec(afterMarker);
  if (!match) return undefined;
  const list = match[1];
  if (list === undefined) return "all";
  return new Set(list.split(",").map((item) => item.trim()));
}

export function isAllowedInline(allows: readonly InlineAllow[], finding: Finding): boolean {
  return allows.some((allow) => allow === "all" || allow.has(finding.rule) || allow.has(finding.fingerprint));
}

/**
 * A policy entry allows a finding when every field it sets matches. An entry with neither `rule` nor
 * `fingerprint` allows nothing: a bare path would silence every rule there (the policy schema
 * refuses such entries too).
 */
export function isAllowedByPolicy(
  allows: readonly SecretAllow[],
  finding: Omit<Finding, "line">,
  matchPath: (glob: string, path: string) => boolean,
): boolean {
  return allows.some((allow) => {
    if (allow.rule === undefined && allow.fingerprint === undefined) return false;
    if (allow.fingerprint !== undefined && allow.fingerprint.toLowerCase() !== finding.fingerprint)
      return false;
    if (allow.rule !== undefined && allow.rule !== finding.rule) return false;
    return allow.path === undefined || matchPath(allow.path, finding.path);
  });
}
