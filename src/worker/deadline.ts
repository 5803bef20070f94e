// One deadline for a whole request (design §8): counted from the worker's start, it bounds reading the
// bundle, unpacking, the baseline, the reviewer and collecting its work alike. Every stage gets its
// signal; when it fires the running program is killed and the worker answers with a failed result in
// the margin it kept (answerMarginMs), so that the answer comes within the limit itself.

import { answerMarginMs } from "../protocol/limits.js";
import { workerMessages } from "./messages.js";

/** The request ran out of time; its message names the stage, and it becomes a failed result. */
export class DeadlineError extends Error {}

export class Deadline {
  /** When the work must be over (ms since the epoch): the limit, less the margin to answer in. */
  readonly at: number;
  readonly seconds: number;
  /** Aborted when the time is up: pass it to every program a stage runs. */
  readonly signal: AbortSignal;
  private readonly cappedByWorker: boolean;
  private readonly timer: NodeJS.Timeout;

  /** `requested` is the request's limits.timeoutSeconds; the worker's --max-seconds caps it. */
  constructor(startedAt: number, requested: number, maxSeconds: number) {
    this.seconds = Math.min(requested, maxSeconds);
    this.cappedByWorker = maxSeconds < requested;
    this.at = startedAt + this.seconds * 1000 - answerMarginMs(this.seconds);
    const controller = new AbortController();
    this.signal = controller.signal;
    this.timer = setTimeout(() => controller.abort(), Math.max(0, this.at - Date.now()));
    this.timer.unref();
  }

  remainingMs(): number {
    return Math.max(0, this.at - Date.now());
  }

  get expired(): boolean {
    return this.signal.aborted || Date.now() >= this.at;
  }

  /** Which limit set the deadline, for messages. */
  get limit(): string {
    return this.cappedByWorker
      ? workerMessages.workerTimeLimit(this.seconds)
      : workerMessages.requestTimeLimit(this.seconds);
  }

  /** The failed result's error for time running out during `stage` ("unpacking the bundle"...). */
  reason(stage: string): string {
    return workerMessages.outOfTime(stage, this.limit);
  }

  /**
   * Runs one stage: a stage that fails (or was already due) after the time is up fails as a
   * DeadlineError, whatever the killed program reported.
   */
  async run<T>(stage: string, work: () => Promise<T>): Promise<T> {
    if (this.expired) throw new DeadlineError(this.reason(stage));
    try {
      return await work();
    } catch (error) {
      // A stage within this one already named itself.
      if (error instanceof DeadlineError) throw error;
      if (this.expired) throw new DeadlineError(this.reason(stage), { cause: error });
      throw error;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
