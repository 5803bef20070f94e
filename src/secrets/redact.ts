// The only two forms in which a secret value may leave the scanner: a short prefix and a fingerprint.
import { createHash } from "node:crypto";

/** At most the first 4 characters, fewer for short values, so a report never reveals most of a secret. */
export function redactSecret(secret: string): string {
  const shown = Math.min(4, Math.floor(secret.length / 4));
  return `${secret.slice(0, shown)}…`;
}

/**
 * 16 hex digits of sha256(path, rule, value): stable across edits that move the line, different for
 * a different value, so `secrets.allow: [{ fingerprint }]` allows exactly one value in one file.
 * The value is hashed as the bytes it was read from (the scanner decodes content as latin1).
 */
export function fingerprintSecret(path: string, rule: string, secret: string): string {
  return createHash("sha256")
    .update(path, "utf8")
    .update("\0")
    .update(rule, "utf8")
    .update("\0")
    .update(secret, "latin1")
    .digest("hex")
    .slice(0, 16);
}
