// One review on one worker: record → audit → transport → accept (→ import). Every way out leaves the
// record saying what happened, never "sent" forever.
import { createHash, randomBytes } from "node:crypto";
import { debug } from "../debug.js";
import { abortedWith, InvalidResultError, WorkerError } from "../errors.js";
import type { Env } from "../git/run.js";
import { messages } from "../messages.js";
import type { ChangedLines } from "../protocol/changed-lines.js";
import { envelopeHeader } from "../protocol/request-line.js";
import { appendAudit } from "../store/audit.js";
import { writeCache } from "../store/cache.js";
import { type ReviewRecord, ReviewState, writeReviewFile } from "../store/records.js";
import { clearRunning, markRunning } from "../store/running.js";
import { type AcceptContext, updateRecord } from "./context.js";
import type { FilterMode } from "./filter.js";
import { writeChanges } from "./focus.js";
import type { ReviewOutcome } from "./outcome.js";
import { runTransport, type StartedWorker, userEnv, workerCwd } from "./transport.js";
import type { Worker } from "./workers.js";

export interface SendContext extends AcceptContext {
  /** The stored bundle the envelope carries. */
  bundlePath: string;
  /** A focused review's change, as git computed it here: the filter stage reads it back. */
  changes: ChangedLines | undefined;
  /** How the review was asked to be filtered: recorded, so that an out-of-band import scopes as this run would. */
  filterMode: FilterMode;
  /** True when the line was shown as it came. */
  onStderrLine(worker: Worker, line: string): boolean;
  onProgress(worker: Worker, sentBytes: number, totalBytes: number): void;
  /** The worker has its whole envelope. */
  onSent(worker: Worker): void;
  /** The worker's transport ended: its answer came, or it failed. */
  onAnswered(worker: Worker): void;
}

function newReviewId(requestId: string, worker: Worker): string {
  return createHash("sha256")
    .update(
      `${requestId}\n${worker.name}\n${worker.command}\n${Date.now()}\n${randomBytes(8).toString("hex")}`,
    )
    .digest("hex")
    .slice(0, 12);
}

/** And the review's id, so that a recipe can name what it starts (`kubectl run review-$REVIEW_REMOTE_ID ...`). */
function workerEnv(env: Env, record: ReviewRecord): Env {
  return { ...userEnv(env), REVIEW_REMOTE_ID: record.id };
}

/**
 * The accept stage: zod and every schema, some 35 ms to load. Loaded once the envelope is sent,
 * while the worker works, not before: the request was built and checked without them (request.ts).
 */
type AcceptStage = typeof import("./accept.js");

/** The audit line first (what left, and where to), then the envelope through the transport. */
async function send(
  context: SendContext,
  worker: Worker,
  record: ReviewRecord,
  started: StartedWorker | undefined,
  onSent: () => void,
): Promise<Buffer> {
  const { request } = context;
  await appendAudit(context.store, {
    time: new Date().toISOString(),
    worker: worker.name,
    command: worker.command,
    requestId: request.id,
    reviewId: record.id,
    bundleSha256: request.bundle.sha256,
    files: request.bundle.files,
    bytes: request.bundle.bytes,
  });
  const header = envelopeHeader(request);
  const total = header.length + request.bundle.bytes;
  return runTransport({
    command: worker.command,
    workerName: worker.name,
    cwd: workerCwd(context.repo),
    env: workerEnv(context.repo.env, record),
    header,
    bundlePath: context.bundlePath,
    bundleBytes: request.bundle.bytes,
    maxResultBytes: request.limits.maxResultBytes,
    timeoutSeconds: request.limits.timeoutSeconds,
    timeoutSetting: context.timeoutSetting ?? messages.timeoutSetting,
    onStderrLine: (line) => context.onStderrLine(worker, line),
    onProgress: (sent) => context.onProgress(worker, sent, total),
    onSent,
    signal: context.signal,
    started,
  });
}

function newRecord(context: SendContext, worker: Worker, cacheKey: string | undefined): ReviewRecord {
  const { request } = context;
  const now = new Date().toISOString();
  return {
    id: newReviewId(request.id, worker),
    requestId: request.id,
    state: ReviewState.sent,
    worker,
    snapshot: context.sent.snapshot,
    ...(context.sent.snapshot.kind === "worktree" && context.repo.top ? { workTree: context.repo.top } : {}),
    range: request.range ? { base: request.range.base, head: request.range.head } : null,
    ...(request.range ? { filterMode: context.filterMode } : {}),
    bundleSha256: request.bundle.sha256,
    cacheKey: cacheKey ?? "",
    commits: 0,
    comments: 0,
    errors: 0,
    createdAt: now,
    updatedAt: now,
  };
}

async function rememberRejection(
  store: SendContext["store"],
  record: ReviewRecord,
  cacheKey: string,
  error: InvalidResultError,
): Promise<void> {
  const rejection = { message: error.message, details: [...error.details], hints: [...error.hints] };
  try {
    await updateRecord(store, record, { rejection });
    await writeCache(store, cacheKey, record.id);
  } catch {
    // Not remembered: the next run asks the worker again, which is only slower.
  }
}

/** The stage that judges an answer: zod and every schema it needs. */
function loadAcceptStage(): Promise<AcceptStage> {
  return import("./accept.js");
}

/** Loads the accept stage ahead: before a large repository's export (see fan-out.ts). */
export function preloadAcceptStage(): void {
  loadAcceptStage().catch(() => undefined);
}

export async function reviewOnWorker(
  context: SendContext,
  worker: Worker,
  cacheKey: string | undefined,
  started?: StartedWorker,
): Promise<ReviewOutcome> {
  const { request, store } = context;
  const record = newRecord(context, worker, cacheKey);
  await writeReviewFile(store, record.id, "request.json", `${JSON.stringify(request, null, 2)}\n`);
  if (context.changes) await writeChanges(store, record.id, context.changes);
  // The marker first: a record in `sent` always names the process that waits for its answer.
  await markRunning(store, record.id);
  await updateRecord(store, record, {});
  try {
    debug(`send: to worker '${worker.name}'`);
    const raw = await send(context, worker, record, started, () => {
      debug(`send: worker '${worker.name}' has its envelope`);
      preloadAcceptStage();
      context.onSent(worker);
    }).finally(() => context.onAnswered(worker));
    if (context.signal.aborted) throw abortedWith(context.signal, messages.interruptedNothingImported);
    // Loaded once per process: the module loader keeps what the preload started.
    const { acceptResult } = await loadAcceptStage();
    const outcome = await acceptResult(context, worker, record, raw);
    if (cacheKey) await writeCache(store, cacheKey, record.id);
    return outcome;
  } catch (error) {
    if (record.state === ReviewState.sent) {
      // Failed before its worker answered: a result fetched some other way may still be imported.
      // Unless no worker ran at all: then no answer is coming to import.
      if (error instanceof WorkerError && !error.noWorkerRan) error.awaiting = record.id;
      const state = error instanceof InvalidResultError ? ReviewState.rejected : ReviewState.failed;
      const problems = [(error as Error).message];
      await updateRecord(store, record, { state, problems }).catch(() => undefined);
    }
    // A rejection is deterministic for the request: remembered, not fetched again. A transport
    // failure, a timeout or a worker's own failure may pass: those are asked again.
    if (error instanceof InvalidResultError && error.remember && cacheKey)
      await rememberRejection(store, record, cacheKey, error);
    throw error;
  } finally {
    if (record.state !== ReviewState.sent) await clearRunning(store, record.id);
  }
}
