// Allowing a finding: `secrets.allow` policy entries and the inline markers `review-remote:allow` and
// (unless the policy turns it off) gitleaks' own `gitleaks:allow`. An allow never silences a
// different value: a fingerprint names one value in one file, a rule id names one rule, a path glob
// names the files it matches, and a marker only covers its own line. What an allow let
// through is kept, with what allowed it, for `export --list`.
import { type Finding, SECRET_FILE_RULE, type SecretAllow, UNINSPECTABLE_RULE } from "./finding.js";

export const INLINE_ALLOW_MARKER = "review-remote:allow";
/** gitleaks' marker: a bare marker, whatever follows it on the line (gitleaks reads no list). */
export const GITLEAKS_ALLOW_MARKER = "gitleaks:allow";

/** What a marker allows on its line: everything (bare marker) or the listed rule ids/fingerprints. */
export type InlineAllow = "all" | ReadonlySet<string>;

/** A marker on a line: what it allows, and its name (what `export --list` says allowed a finding). */
export interface LineMarker {
  allow: InlineAllow;
  marker: string;
}

/** `review-remote:allow` then, after blanks, an optional `id[,id...]` list; a comment closer ends it. */
const MARKER_LIST = /^(?![\w-])(?:[ \t]+([A-Za-z0-9][\w.-]*(?:[ \t]*,[ \t]*[A-Za-z0-9][\w.-]*)*))?/;

/**
 * Parses what follows the marker on its line; undefined when the text is not a marker at all
 * (`review-remote:allowed`). gitleaks' marker allows its whole line, as gitleaks reads it.
 */
export function parseInlineAllow(afterMarker: string, marker = INLINE_ALLOW_MARKER): InlineAllow | undefined {
  const match = MARKER_LIST.exec(afterMarker);
  if (!match) return undefined;
  const list = match[1];
  if (list === undefined || marker !== INLINE_ALLOW_MARKER) return "all";
  return new Set(list.split(",").map((item) => item.trim()));
}

/** The name of the first marker on the finding's line that allows it, or undefined. */
export function allowedInlineBy(markers: readonly LineMarker[], finding: Finding): string | undefined {
  return markers.find(
    ({ allow }) => allow === "all" || allow.has(finding.rule) || allow.has(finding.fingerprint),
  )?.marker;
}

/**
 * What a path alone does not allow: a secret's name (a zip holding `id_rsa`, a link to `../.env`)
 * and an archive that was never read. A path allow is for test values in test files; these are not
 * values at all, and the tree's own secret-named files are kept back under it too. An entry that
 * names the rule (or the fingerprint) still allows them.
 */
const NOT_BY_PATH_ALONE: ReadonlySet<string> = new Set([SECRET_FILE_RULE, UNINSPECTABLE_RULE]);

/** Whether an entry with a path alone (`{"path": "testdata/**"}`) can allow a finding of `rule`. */
export function isAllowedByPathAlone(rule: string): boolean {
  return !NOT_BY_PATH_ALONE.has(rule);
}

/**
 * The first policy entry that allows a finding: one whose every field set matches. A path alone
 * (`{"path": "testdata/**"}`) allows every content rule in the files it matches (not the names and
 * unread archives of NOT_BY_PATH_ALONE); an entry with no field allows nothing.
 */
export function policyAllowFor(
  allows: readonly SecretAllow[],
  finding: Omit<Finding, "line">,
  matchPath: (glob: string, path: string) => boolean,
): SecretAllow | undefined {
  return allows.find((allow) => {
    // No rule and no fingerprint: a path alone, or nothing at all.
    if (allow.rule === undefined && allow.fingerprint === undefined) {
      if (allow.path === undefined || !isAllowedByPathAlone(finding.rule)) return false;
    }
    if (allow.fingerprint !== undefined && allow.fingerprint.toLowerCase() !== finding.fingerprint)
      return false;
    if (allow.rule !== undefined && allow.rule !== finding.rule) return false;
    return allow.path === undefined || matchPath(allow.path, finding.path);
  });
}

/** How `export --list` names a policy entry that allowed a finding: as the policy file spells it. */
export function describePolicyAllow(allow: SecretAllow): string {
  const fields = (["rule", "path", "fingerprint"] as const)
    .filter((key) => allow[key] !== undefined)
    .map((key) => `"${key}": ${JSON.stringify(allow[key])}`);
  return `secrets.allow {${fields.join(", ")}}`;
}
