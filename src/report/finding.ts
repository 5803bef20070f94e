// One line per secret the content scan found: where, which rule, the redacted value, the fingerprint.
import type { Finding } from "../secrets/finding.js";
import { escapeForDisplay } from "../validate/sanitize.js";

export function formatFinding(finding: Finding): string {
  const where = finding.inBase ? " (in the range's base)" : "";
  return `${escapeForDisplay(finding.path)}:${finding.line}: ${finding.rule}: ${finding.description} (${finding.redacted}) [fingerprint ${finding.fingerprint}]${where}`;
}

/** A finding an allow let through, and what allowed it: the marker on its line or the policy entry. */
export function formatAllowed(finding: Finding): string {
  const by = finding.allowedBy ?? "";
  const reason = by.startsWith("secrets.allow") ? by : `${by} on its line`;
  return `${formatFinding(finding)}: allowed by ${reason}`;
}
