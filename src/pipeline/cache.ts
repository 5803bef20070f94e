// The cache stage: a commit snapshot is named by its oid, so the cache is asked before any export.
// A worker whose answer is in the store is not contacted again; its outcome is read back, or the
// rejection of its result for the same request said again (exit 4).
import type { ReceiptPolicy } from "../config/receipt-policy.js";
import { InvalidResultError } from "../errors.js";
import { messages } from "../messages.js";
import type { Result } from "../protocol/result.js";
import { summaryProse } from "../protocol/summary.js";
import { type CacheInputs, cacheKey, lookupCache } from "../store/cache.js";
import type { StorePaths } from "../store/layout.js";
import { type ReviewRecord, ReviewState, readRecord, readReviewFile } from "../store/records.js";
import type { ReviewOutcome, WorkerFailure } from "./outcome.js";
import type { Worker } from "./workers.js";

const REUSABLE: ReadonlySet<ReviewRecord["state"]> = new Set([ReviewState.imported, ReviewState.empty]);

/**
 * A cached answer is reused only if it would pass today's receipt policy: a review accepted unsigned
 * (or unchecked) before a signature was required is asked again, not served from the store.
 */
function meetsReceiptPolicy(record: ReviewRecord, policy: ReceiptPolicy | undefined): boolean {
  if (policy?.allowedSigners === undefined) return true;
  const status = record.receipt?.status ?? "unsigned";
  return status === "good" || (status === "unsigned" && !policy.required);
}

/**
 * A cached answer is reused only if its branch holds what this run would import: the filter mode
 * decides whether a focused review's proposals outside the change are kept. One whose proposals
 * were all in the change (or that proposed nothing) fits either way; a record from before proposals
 * were scoped kept them all.
 */
function fitsScope(record: ReviewRecord, scoped: boolean): boolean {
  if (record.range === null) return true;
  const outside = record.outsideChange;
  if (outside === undefined) return !scoped || record.commits === 0;
  return outside.fixes === 0 || outside.kept !== scoped;
}

async function readCachedOutcome(
  store: StorePaths,
  record: ReviewRecord,
  policy: ReceiptPolicy | undefined,
  scoped: boolean,
): Promise<ReviewOutcome | undefined> {
  if (!REUSABLE.has(record.state) || !meetsReceiptPolicy(record, policy)) return undefined;
  if (!fitsScope(record, scoped)) return undefined;
  const text = await readReviewFile(store, record.id, "result.json");
  if (text === undefined) return undefined;
  // Written only after every validation layer passed, by this tool, into the user's own git dir:
  // no schema library on the pre-push hook's cached path.
  let result: Partial<Result>;
  try {
    result = JSON.parse(text) as Partial<Result>;
  } catch {
    return undefined;
  }
  if (!Array.isArray(result.comments)) return undefined;
  return {
    record,
    comments: result.comments,
    summary: summaryProse(result),
    sandbox: result.worker?.sandbox,
  };
}

/** One key per worker: the worker's name and command are part of what was asked. */
export function cacheKeys(
  workers: readonly Worker[],
  inputs: Omit<CacheInputs, "worker">,
): Map<Worker, string> {
  return new Map(workers.map((worker) => [worker, cacheKey({ ...inputs, worker })]));
}

/** A result rejected for this request before: the same error again, saying where it came from. */
function cachedRejection(record: ReviewRecord): InvalidResultError | undefined {
  if (record.state !== ReviewState.rejected || !record.rejection) return undefined;
  const { message, details, hints } = record.rejection;
  return new InvalidResultError(message, { details, hints: [...hints, messages.hintRejectionRemembered] });
}

/** The workers the cache answers (a review, or a rejection), and those still to be asked. */
export async function answerFromCache(
  store: StorePaths,
  workers: readonly Worker[],
  keys: ReadonlyMap<Worker, string>,
  run: {
    receiptPolicies: ReadonlyMap<string, ReceiptPolicy>;
    /** Proposals outside a focused review's change are left out (every filter mode but nofilter). */
    scoped: boolean;
  },
): Promise<{ outcomes: ReviewOutcome[]; failures: WorkerFailure[]; pending: Worker[] }> {
  const outcomes: ReviewOutcome[] = [];
  const failures: WorkerFailure[] = [];
  const pending: Worker[] = [];
  for (const worker of workers) {
    const key = keys.get(worker);
    const id = key === undefined ? undefined : await lookupCache(store, key);
    const record = id ? await readRecord(store, id) : undefined;
    const policy = run.receiptPolicies.get(worker.name);
    const cached = record ? await readCachedOutcome(store, record, policy, run.scoped) : undefined;
    // A worker whose receipts are checked is asked again: its allowed signers may have changed since.
    const remembered = record && !cached && policy?.allowedSigners === undefined;
    const rejected = remembered ? cachedRejection(record) : undefined;
    if (cached) outcomes.push(cached);
    else if (rejected) failures.push({ worker, error: rejected });
    else pending.push(worker);
  }
  return { outcomes, failures, pending };
}
