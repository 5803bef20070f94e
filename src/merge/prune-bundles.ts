// `prune`'s second half: the stored bundles no live review needs, once unused for longer than the
// expiry (`--expire`, `review-remote.pruneExpire`, two weeks). A bundle stays while any review that
// sent it is open: sent (running, or waiting for an answer), imported (not merged or dropped), or
// failed before its worker answered (a result can still be imported out of band); `--include-open`
// lets those go too, but for a review whose process is still sending or waiting. Each removal is
// recorded in pruned.jsonl before the file goes; the audit lines and the manifest stay.
import { ReviewRemoteError } from "../errors.js";
import type { AuditEntry } from "../store/audit.js";
import type { StorePaths } from "../store/layout.js";
import { appendPruned, listStoredBundles, removeBundle, reuseEntries, settleMoved } from "../store/pruned.js";
import { type ReviewRecord, ReviewState, readReviewFile } from "../store/records.js";
import { readRunning } from "../store/running.js";

export interface BundlePrune {
  sha256: string;
  bytes: number;
  /** The reviews that sent it (none: an `export` alone stored it). */
  reviews: string[];
  /** When it was last stored, sent or had a review of it change state. */
  lastUsed: string;
}

/** Whether a review may still need its bundle. */
async function isOpen(store: StorePaths, record: ReviewRecord): Promise<boolean> {
  if (record.state === ReviewState.sent || record.state === ReviewState.imported) return true;
  if (record.state !== ReviewState.failed) return false;
  return (await readReviewFile(store, record.id, "result.json")) === undefined;
}

/** Whether a review's process is sending or waiting on its bundle now: kept even with includeOpen. */
async function isRunning(store: StorePaths, record: ReviewRecord): Promise<boolean> {
  return record.state === ReviewState.sent && (await readRunning(store, record.id)) !== undefined;
}

export interface BundlePlan {
  candidates: BundlePrune[];
  /** Bundles past the expiry kept because a review that sent them is open, and their bytes. */
  open: { count: number; bytes: number };
}

/**
 * The bundles prune removes: none was used after `cutoffMs`, no export in flight has `claimed` them,
 * and no open review sent them (with `includeOpen`, none whose process is still sending or waiting
 * on it).
 */
export async function planBundles(
  store: StorePaths,
  records: readonly ReviewRecord[],
  audit: readonly AuditEntry[],
  options: { cutoffMs: number; includeOpen: boolean; claimed: ReadonlySet<string> },
): Promise<BundlePlan> {
  const stored = await listStoredBundles(store);
  const users = new Map<string, ReviewRecord[]>();
  for (const record of records)
    users.set(record.bundleSha256, [...(users.get(record.bundleSha256) ?? []), record]);
  const sent = new Map<string, number>();
  for (const entry of audit) {
    const ms = Date.parse(entry.time);
    if (!Number.isNaN(ms)) sent.set(entry.bundleSha256, Math.max(sent.get(entry.bundleSha256) ?? 0, ms));
  }
  const candidates: BundlePrune[] = [];
  const open = { count: 0, bytes: 0 };
  for (const bundle of stored) {
    const reviews = users.get(bundle.sha256) ?? [];
    const times = [
      bundle.mtimeMs,
      sent.get(bundle.sha256) ?? 0,
      ...reviews.map((r) => Date.parse(r.updatedAt)),
    ];
    const lastUsed = Math.max(...times.filter((ms) => !Number.isNaN(ms)));
    if (lastUsed > options.cutoffMs) continue;
    const holds = options.includeOpen ? isRunning : isOpen;
    let needed = false;
    for (const record of reviews) if (await holds(store, record)) needed = true;
    if (needed) {
      open.count += 1;
      open.bytes += bundle.bytes;
      continue;
    }
    // In use by an export in flight, whose review record does not name it yet.
    if (options.claimed.has(bundle.sha256)) continue;
    candidates.push({
      sha256: bundle.sha256,
      bytes: bundle.bytes,
      reviews: reviews.map((record) => record.id),
      lastUsed: new Date(lastUsed).toISOString(),
    });
  }
  return { candidates, open };
}

export interface BundlesPruned {
  pruned: BundlePrune[];
  /** Why prune stopped: the rest of the candidates were left as they were. */
  error?: ReviewRemoteError;
}

/**
 * Removes the candidates one by one (see removeBundle): pruned.jsonl names a bundle only once it is
 * out of the store. The first failure stops it; what was removed before stays removed and recorded,
 * the rest untouched.
 */
export async function pruneBundles(
  store: StorePaths,
  candidates: readonly BundlePrune[],
): Promise<BundlesPruned> {
  await settleMoved(store);
  const entries = await reuseEntries(store);
  const pruned: BundlePrune[] = [];
  for (const candidate of candidates) {
    try {
      await removeBundle(store, candidate.sha256, entries.get(candidate.sha256) ?? [], () =>
        appendPruned(store, {
          time: new Date().toISOString(),
          bundleSha256: candidate.sha256,
          bytes: candidate.bytes,
          reviews: candidate.reviews,
        }),
      );
    } catch (error) {
      if (!(error instanceof ReviewRemoteError)) throw error;
      return { pruned, error };
    }
    pruned.push(candidate);
  }
  return { pruned };
}
