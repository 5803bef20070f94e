// What a content scan reports and how it is fed: the types every part of the scanner shares, kept
// apart from the scanner so that its parts depend on them and not on one another.

/** A secret's name leaving without its content: a symlink's target or an archive member's name. */
export const SECRET_FILE_RULE = "secret-file-name";
/** An archive that could not be read within the limits: its content was never scanned. */
export const UNINSPECTABLE_RULE = "uninspectable-archive";

/** A finding about a name or an unread archive, not a value on a line: nothing to excerpt. */
export function isAboutName(finding: { rule: string }): boolean {
  return finding.rule === SECRET_FILE_RULE || finding.rule === UNINSPECTABLE_RULE;
}

/**
 * A finding with no line of its own: about a name or an unread archive, or a value in a name (a
 * path's, an archive member's, a member link's target, which `shownPlace` marks). A line marker
 * cannot allow it: no line holds it.
 */
export function isOffLine(finding: { rule: string; shownPlace?: string | undefined }): boolean {
  return isAboutName(finding) || finding.shownPlace !== undefined;
}

export interface SecretAllow {
  rule?: string;
  /** Gitignore-style glob. */
  path?: string;
  fingerprint?: string;
}

export interface Finding {
  path: string;
  /** Inside an archive at `path`: the member, nested members joined by `!/`. */
  member?: string;
  /** 1-based line of the start of the secret (in the member, when there is one). */
  line: number;
  rule: string;
  description: string;
  /** At most the first 4 characters of the secret, then "…". */
  redacted: string;
  /** Hex digest of path, rule and secret; `secrets.allow: [{ fingerprint }]` allows this value. */
  fingerprint: string;
  /** Found in a range's base (what its patch removes or keeps as context): `line` is the base's. */
  inBase?: true;
  /**
   * Let through: the marker on its line (`gitleaks:allow`) or the policy entry that allowed it
   * (`secrets.allow {"path": "testdata/**"}`). Set only on the findings `export --list` shows allowed.
   */
  allowedBy?: string;
  /**
   * A base finding let through because the head lets the same value in the same file through:
   * the head's line, where `allowedBy` is.
   */
  headLine?: number;
  /**
   * A finding in a name (a path, an archive member's name): its place as it is printed, the value
   * in it redacted as `redacted` is. `path` and `member` keep the name whole, for the allows.
   */
  shownPlace?: string;
}

/**
 * One file's scan, fed in order. A chunk written is the scan's to read until end(), without a copy:
 * the caller never changes it afterwards (every caller hands on memory nothing writes to again: tar
 * blocks read from a pipe, blobs read from git, members inflated for the scan).
 */
export interface FileScan {
  write(chunk: Buffer): void;
  end(): Finding[];
}
