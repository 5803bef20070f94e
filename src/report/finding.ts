// One line per secret the content scan found: where, which rule, the redacted value, the fingerprint.
import type { Finding } from "../secrets/finding.js";
import { escapeForDisplay } from "../validate/sanitize.js";

export function formatFinding(finding: Finding): string {
  const where = finding.inBase ? " (in the range's base)" : "";
  return `${escapeForDisplay(finding.path)}:${finding.line}: ${finding.rule}: ${finding.description} (${finding.redacted}) [fingerprint ${finding.fingerprint}]${where}`;
}
