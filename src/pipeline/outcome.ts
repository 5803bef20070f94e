// What one run of the pipeline takes (the options, the event callbacks) and hands to the report
// layer: the reviews that came back, the workers that failed (as values: one failing worker loses
// nothing of the others), and which answers came from the cache.
import type { ReviewRemoteError } from "../errors.js";
import type { ReviewComment } from "../protocol/result.js";
import type { ReviewRecord } from "../store/records.js";
import type { FilterMode } from "./filter.js";
import type { Target } from "./target.js";
import type { Worker } from "./workers.js";

export interface ReviewOutcome {
  record: ReviewRecord;
  /** The comments to report: after the filter stage, those in the change. */
  comments: ReviewComment[];
  summary: string;
  sandbox?: string | undefined;
  /** Set by the filter stage: its mode and the comments it kept out of `comments`. */
  filter?: { mode: FilterMode; hidden: ReviewComment[] };
  /** Of several workers: the id of an earlier review whose proposals leave the very same tree. */
  identicalTo?: string;
}

export interface WorkerFailure {
  worker: Worker;
  error: ReviewRemoteError;
}

export interface PipelineReport {
  /** What was reviewed, and why (unknown for a result imported out of band). */
  target?: Target;
  /** The `-- <pathspec>...` the review was limited to, as typed (none: every path). */
  pathspecs?: readonly string[];
  outcomes: ReviewOutcome[];
  failures: WorkerFailure[];
  /** Ids of the outcomes answered from the store without contacting a worker. */
  cached: Set<string>;
}

/** A result imported out of band, and for a focused review the filter mode it was scoped by. */
export interface OutOfBandReport extends PipelineReport {
  /** `asked`: the mode the review was asked for; false: review-remote.filterMode (an older record). */
  importFilter?: { mode: FilterMode; asked: boolean };
}

/** What the pipeline tells the user while it runs, through the report layer. */
export interface PipelineEvents {
  /** Bytes through a stage so far (the export's tar, the envelope sent), of `total` when known. */
  progress(stage: "export" | "send", bytes: number, total?: number): void;
  /** A worker has its whole envelope: this process only waits for its answer now. */
  sent?(worker: Worker): void;
  /** A worker's transport ended (an answer, or a failure): it no longer works on the review. */
  answered?(worker: Worker): void;
  /** One sanitized stderr line of a worker; true when it was shown as it came. */
  remoteLine(worker: Worker, line: string): boolean;
  /** Something the user should know that does not stop the run, with what to do about it. */
  warning(text: string, hints?: readonly string[]): void;
}

/** What the user asked for, as flags said it; no stage sees the argument bag itself. */
export interface PipelineOptions {
  /** `<rev>` or `<base>..<head>`; absent: what HEAD is about to share (design §4). */
  target?: string | undefined;
  worktree: boolean;
  /** The whole tree, not a change (`--all`). */
  all: boolean;
  /** `--filter-mode`; undefined: review-remote.filterMode, else `added`. */
  filterMode?: FilterMode | undefined;
  question?: string | undefined;
  /** Worker names; empty: review-remote.worker. */
  workers: readonly string[];
  noCache: boolean;
  /** `--timeout`: seconds the workers may take, over review-remote.timeout (the policy may lower it). */
  timeoutSeconds?: number | undefined;
  pathspecs: readonly string[];
  signal: AbortSignal;
  /**
   * The range was planned, not typed (the pre-push hook's `<remote>..<local>`, a forced push back
   * already left out): no check that it runs the wrong way round.
   */
  plannedRange?: boolean;
  /**
   * Start the built-in local worker before anything else, even before the cache is asked (a review
   * a person waits for; it is stopped if the cache answers). Otherwise it starts once the cache has
   * not answered (the pre-push hook, whose re-push the cache answers).
   */
  startWorkersFirst?: boolean;
}
