// How far the scan looks into compressed and nested content. What cannot be inspected within these
// bounds is reported as a finding (uninspectable-archive), never sent unread.

export interface ArchiveLimits {
  /** Compressed bytes held to inspect one gzip or zip file. */
  maxArchiveBytes: number;
  /** Bytes expanded from one exported file, all members and nesting levels together. */
  maxExpandedBytes: number;
  /** Expanded ÷ compressed size of one member, checked once it expands beyond `ratioFloor`. */
  maxRatio: number;
  ratioFloor: number;
  /** Members of one zip or tar. */
  maxEntries: number;
  /** Archives inside archives (a jar in a zip in a tar.gz is depth 3). */
  maxDepth: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 64 * MiB,
  maxExpandedBytes: 128 * MiB,
  maxRatio: 200,
  ratioFloor: 1 * MiB,
  maxEntries: 10_000,
  maxDepth: 3,
};

/** Why an archive could not be inspected; the message is the reason shown to the user. */
export class UninspectableError extends Error {}

/** The expansion left for one exported file; shared by all its members at every depth. */
export class ExpansionBudget {
  private used = 0;

  constructor(readonly limits: ArchiveLimits) {}

  /** The most a member of `compressed` bytes may expand to: the budget left, and the ratio bound. */
  allowance(compressed: number): number {
    const byRatio = Math.max(this.limits.ratioFloor, compressed * this.limits.maxRatio);
    return Math.max(0, Math.min(this.limits.maxExpandedBytes - this.used, byRatio));
  }

  /** Counts `expanded` bytes against the budget. */
  take(expanded: number): void {
    this.used += expanded;
  }

  /** The reason a member that hit its allowance is refused. */
  refusal(compressed: number): UninspectableError {
    const byRatio = Math.max(this.limits.ratioFloor, compressed * this.limits.maxRatio);
    return this.limits.maxExpandedBytes - this.used < byRatio
      ? new UninspectableError(`expands beyond ${this.limits.maxExpandedBytes} bytes`)
      : new UninspectableError(`expands more than ${this.limits.maxRatio} times`);
  }
}
