// The request's resource limits (design §6): one definition shared by config, request and result checks.
// Kept free of zod so the pre-push hook path can read the defaults without loading the schema library.

export interface Limits {
  /** Seconds the worker may take, from the request's arrival to its answer, stopping its work included. */
  timeoutSeconds: number;
  /** Bytes of result JSON the local side reads from the worker's stdout. */
  maxResultBytes: number;
  /** Proposed commits in one result. */
  maxCommits: number;
  /** Comments in one result. */
  maxComments: number;
  /** UTF-8 bytes of all the result's patches together. */
  maxPatchBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  timeoutSeconds: 900,
  maxResultBytes: 8_388_608,
  maxCommits: 20,
  maxComments: 500,
  maxPatchBytes: 1_048_576,
});

/** The limits git config may raise (`review-remote.maxPatchBytes`, ...), and its key for each. */
export const RAISABLE_LIMITS = {
  maxPatchBytes: "review-remote.maxPatchBytes",
  maxComments: "review-remote.maxComments",
  maxCommits: "review-remote.maxCommits",
} as const;
export type RaisableLimit = keyof typeof RAISABLE_LIMITS;

/**
 * The rule of the comment a worker adds when it leaves its proposals out for a limit (a comment
 * about the whole change, severity warning): it names the limit, so the client can say how to raise it.
 */
export function overLimitRule(limit: RaisableLimit): string {
  return `limits.${limit}`;
}

/** The limit an over-limit comment's rule names, if it is one. */
export function limitOfRule(rule: string | undefined): RaisableLimit | undefined {
  const name = rule?.startsWith("limits.") ? rule.slice("limits.".length) : undefined;
  return name !== undefined && Object.hasOwn(RAISABLE_LIMITS, name) ? (name as RaisableLimit) : undefined;
}

/**
 * The limit a worker's note names when the comment is one: about the whole change (no path), with
 * an over-limit rule. Such a note is about the review, not the code.
 */
export function overLimitNote(comment: {
  path?: string | undefined;
  rule?: string | undefined;
}): RaisableLimit | undefined {
  return comment.path === undefined ? limitOfRule(comment.rule) : undefined;
}

/**
 * How far git config may raise each limit. The whole result is read into memory and every patch is
 * applied in quarantine: past these a result costs the machine that reads it more than any review
 * is worth, whatever a user asks for.
 */
export const LIMIT_CEILINGS: Readonly<Record<RaisableLimit, number>> = Object.freeze({
  maxPatchBytes: 33_554_432,
  maxComments: 20_000,
  maxCommits: 200,
});

/**
 * A result carries its patches as JSON strings (escaping can double them) and its comments: when git
 * config raises those limits, the result may grow by as much, so its own limit follows.
 */
function resultBytesFor(limits: Pick<Limits, "maxPatchBytes" | "maxComments">): number {
  const extraPatch = Math.max(0, limits.maxPatchBytes - DEFAULT_LIMITS.maxPatchBytes);
  const extraComments = Math.max(0, limits.maxComments - DEFAULT_LIMITS.maxComments);
  return DEFAULT_LIMITS.maxResultBytes + 2 * extraPatch + 1024 * extraComments;
}

/**
 * The limits a request carries: the defaults, raised by git config (up to the ceilings, checked when
 * the config is read), then lowered by the policy file, which can never raise one.
 */
export function resolveLimits(
  timeoutSeconds: number,
  configured: Partial<Record<RaisableLimit, number>>,
  lowered: Partial<Limits> | undefined,
): Limits {
  const raised = { ...DEFAULT_LIMITS, timeoutSeconds, ...configured };
  const limits: Limits = { ...raised, maxResultBytes: resultBytesFor(raised) };
  for (const key of Object.keys(limits) as (keyof Limits)[]) {
    const cap = lowered?.[key];
    if (cap !== undefined) limits[key] = Math.min(limits[key], cap);
  }
  return limits;
}

/** The longest time limit, in seconds: a timer holds at most 2^31 - 1 ms. */
export const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/**
 * The part of limits.timeoutSeconds a worker keeps to stop its work and answer with a failed result
 * (design §8): its last tenth, at least 1 s (but never more than half) and at most 5 s. The limit is
 * the whole of it: the client stops a worker that has not answered when it is over.
 */
export function answerMarginMs(timeoutSeconds: number): number {
  return Math.min(5000, Math.max(1000, timeoutSeconds * 100), timeoutSeconds * 500);
}
