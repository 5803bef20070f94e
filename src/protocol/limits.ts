// The request's resource limits (design §6): one definition shared by config, request and result checks.
// Kept free of zod so the pre-push hook path can read the defaults without loading the schema library.

export interface Limits {
  /** Seconds the worker may take, from its start to its answer (plus WORKER_ANSWER_MARGIN_SECONDS). */
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

/**
 * A worker that runs out of limits.timeoutSeconds stops its work and answers with a failed result
 * within this many seconds more (design §8). The client waits twice that beyond the timeout: the
 * worker's margin, and as much again for connecting and starting it.
 */
export const WORKER_ANSWER_MARGIN_SECONDS = 5;
