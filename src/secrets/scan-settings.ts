// What every scan of one export shares, and the one way a finding is made from a hit: redacted,
// fingerprinted, and set aside, with what allowed it, when a policy allow covers it.
import { describePolicyAllow, policyAllowFor } from "./allow.js";
import type { ArchiveLimits, ExpansionBudget } from "./decode/limits.js";
import type { Finding, SecretAllow } from "./finding.js";
import type { WindowMatcher } from "./matcher.js";
import { fingerprintSecret, redactSecret } from "./redact.js";

export interface ScanSettings {
  allow: readonly SecretAllow[];
  matchPath: (glob: string, path: string) => boolean;
  /** The matcher of the rules that apply to files named like `path`. */
  matcherFor(path: string): WindowMatcher;
  limits: ArchiveLimits;
  /** Where a finding an allow covers goes (`allowedBy` set) instead of the findings. */
  onAllowed(finding: Finding): void;
}

/** Where content comes from: the exported file and, inside an archive, the member. */
export interface ScanSite {
  settings: ScanSettings;
  path: string;
  /** `dir/name`, nested members joined by `!/` (`lib/inner.jar!/config.properties`). */
  member?: string;
}

export interface FindingSpec {
  line: number;
  rule: string;
  description: string;
  /** The value, as decoded (latin1); only its redaction and its fingerprint leave. */
  secret: string;
  /** Found in a name: where the value is in the site's own (its path, a member's), it is redacted there. */
  inName?: boolean;
}

/** The site's place with `secret` (latin1, as the scan read its UTF-8 bytes) redacted in it. */
function redactedPlace(site: ScanSite, secret: string, redacted: string): string {
  const place = site.member === undefined ? site.path : `${site.path}!/${site.member}`;
  return place.replaceAll(Buffer.from(secret, "latin1").toString("utf8"), redacted);
}

/** The finding for `spec` at `site`, or undefined when a policy allow covers it (then set aside). */
export function createFinding(site: ScanSite, spec: FindingSpec): Finding | undefined {
  const finding: Finding = {
    path: site.path,
    ...(site.member === undefined ? {} : { member: site.member }),
    line: spec.line,
    rule: spec.rule,
    description: spec.description,
    redacted: redactSecret(spec.secret),
    fingerprint: fingerprintSecret(site.path, spec.rule, spec.secret),
  };
  if (spec.inName) finding.shownPlace = redactedPlace(site, spec.secret, finding.redacted);
  const allow = policyAllowFor(site.settings.allow, finding, site.settings.matchPath);
  if (allow === undefined) return finding;
  site.settings.onAllowed({ ...finding, allowedBy: describePolicyAllow(allow) });
  return undefined;
}

/** A scan inside an export: where it is, how deep in archives, and the expansion left. */
export interface NestedSite extends ScanSite {
  depth: number;
  budget: ExpansionBudget;
  /** The name the rules see (a member's own name), when it is not `path`. */
  rulePath?: string;
}
