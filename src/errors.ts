// Typed errors: each carries the exit code of design §4 and optional git-style hints.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  worker: 3,
  invalidResult: 4,
  conflict: 5,
  exportRefused: 6,
  findings: 7,
  internal: 70,
  /** `-h` printed the usage: git's own commands exit so (parse-options), not 0. */
  shortHelp: 129,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorOptions {
  hints?: readonly string[];
  cause?: unknown;
  /** Extra lines printed after the message (one problem per line). */
  details?: readonly string[];
}

export class ReviewRemoteError extends Error {
  readonly exitCode: ExitCode = ExitCode.failure;
  readonly hints: readonly string[];
  readonly details: readonly string[];

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.hints = options.hints ?? [];
    this.details = options.details ?? [];
  }
}

/** Bad arguments, not a repository, or invalid configuration. */
export class UsageError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.usage;
}

export class ConfigError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.usage;
}

/** The worker could not be reached, failed, or timed out. */
export class WorkerError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.worker;
  /** The review this failure left without an answer (set by the send stage): `import` can give it one. */
  awaiting: string | undefined;
  /**
   * No worker ran: its command was not found, or ssh never logged in, so no answer is coming to
   * import either.
   */
  noWorkerRan = false;
}

/** The worker's result failed validation; nothing was imported. */
export class InvalidResultError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.invalidResult;
  /**
   * A rejection is remembered for its request (design §10), but not one that says more of the way
   * to the worker than of the worker: text a login script printed beside the result goes away when
   * the host is fixed, and the next review asks again.
   */
  remember = true;
}

export class MergeConflictError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.conflict;
}

/** The export stopped: a secret was found or a denied path would have left. */
export class ExportRefusedError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.exportRefused;
}

/** The review reported findings at or above `--fail-level`; everything was imported as usual. */
export class FindingsError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.findings;
}

/** The pre-push hook blocked the push (its report says why); exit 1 makes git stop the push. */
export class PushBlockedError extends ReviewRemoteError {}

export class InterruptedError extends ReviewRemoteError {
  override readonly exitCode = ExitCode.interrupted;
}

/**
 * What an aborted review stops with: a copy of the WorkerError its signal was aborted with (the
 * pre-push hook's time limit: the record says the time ran out, not that someone pressed Ctrl-C),
 * else an interrupt in `words`.
 */
export function abortedWith(signal: AbortSignal | undefined, words: string): ReviewRemoteError {
  const reason: unknown = signal?.reason;
  return reason instanceof WorkerError
    ? new WorkerError(reason.message, { details: reason.details, hints: reason.hints })
    : new InterruptedError(words);
}

/** A git command failed in a way the caller did not expect. */
export class GitError extends ReviewRemoteError {
  constructor(
    readonly args: readonly string[],
    readonly exitStatus: number | undefined,
    readonly stderr: string,
  ) {
    const first = stderr.trim().split("\n")[0] || `exit code ${exitStatus}`;
    super(`git ${args[0] ?? ""} failed: ${first}`);
  }
}
