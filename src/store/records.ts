// A review's record in the store: `reviews/<id>/` with request.json, result.json and state.json.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import type { FilterMode } from "../pipeline/filter.js";
import type { Dropped } from "../protocol/parse-result.js";
import type { ReceiptStatus } from "../receipt/verify.js";
import { type StorePaths, writeFileAtomic } from "./layout.js";

export const ReviewState = {
  sent: "sent",
  failed: "failed",
  rejected: "rejected",
  imported: "imported",
  empty: "empty",
  merged: "merged",
  dropped: "dropped",
} as const;
export type ReviewState = (typeof ReviewState)[keyof typeof ReviewState];

/** What became of a result's receipt when it was accepted (design §12). */
export interface ReceiptRecord {
  /** A verdict, or `unverified`: signed, but no allowed-signers file was configured to check it. */
  status: ReceiptStatus | "unverified";
  /** The worker name the signature was checked for. */
  principal: string;
  keyType?: string | undefined;
  fingerprint?: string | undefined;
  reason?: string | undefined;
  /** sha256 (hex) of the statement's bytes, as the proposals' Review-Receipt trailer names it. */
  statementSha256?: string | undefined;
}

export interface ReviewRecord {
  id: string;
  requestId: string;
  state: ReviewState;
  worker: { name: string; command: string };
  snapshot: { kind: "commit" | "worktree"; commit: string; parent?: string | undefined };
  /** A work-tree snapshot's work tree (absent in records written before it was kept). */
  workTree?: string;
  range: { base: string; head: string } | null;
  /**
   * A focused review's filter mode as it was asked for (`--filter-mode`, else the config then): what
   * an out-of-band import scopes its proposals by. Absent in records written before it was kept.
   */
  filterMode?: FilterMode;
  bundleSha256: string;
  cacheKey: string;
  branch?: string;
  tip?: string;
  commits: number;
  comments: number;
  errors: number;
  /**
   * Of `comments` and `errors`, those a focused review's filter mode (as asked) hides: outside the
   * change. Absent for a whole-tree review, and in focused records written before they were counted
   * (then `list` counts them from the stored result, as `show` does), or before none were kept.
   */
  outsideComments?: { comments: number; errors: number } | undefined;
  problems?: string[];
  /** A rejected result's error as reported, so the cache can say it again (exit 4). */
  rejection?: { message: string; details: string[]; hints: string[] };
  /** Parts of an accepted result left out (invalid comments, proposals over a limit), and why. */
  dropped?: Dropped[];
  /**
   * A focused review's proposals outside its change (design §2, the scope stage): the fixes and
   * files, left out of its branch or, under `nofilter`, kept. Absent when it proposed nothing.
   */
  outsideChange?: { fixes: number; files: number; kept: boolean };
  receipt?: ReceiptRecord;
  createdAt: string;
  updatedAt: string;
  mergedFrom?: string;
  /** Set by prune: the newer review of the same target that made this one stale. */
  supersededBy?: string | undefined;
  /** Set by prune: the stored answer files it removed from reviews/<id>/, their bytes, and when. */
  pruned?: { time: string; files: string[]; bytes: number } | undefined;
}

const STATES: ReadonlySet<string> = new Set(Object.values(ReviewState));

/**
 * Records are written by this tool into the user's own git dir, so a shape check is enough (no
 * schema library on the pre-push hook's cached path); a torn or foreign file reads as no record.
 */
function isReviewRecord(value: unknown): value is ReviewRecord {
  const record = value as Partial<ReviewRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    typeof record.id === "string" &&
    typeof record.requestId === "string" &&
    STATES.has(record.state as string) &&
    typeof record.worker?.name === "string" &&
    typeof record.snapshot?.commit === "string" &&
    typeof record.createdAt === "string"
  );
}

export function reviewDir(store: StorePaths, id: string): string {
  return join(store.reviews, id);
}

/** Writes the record; `touch` (a state change) sets its `updatedAt`, which prune counts ages from. */
export async function writeRecord(store: StorePaths, record: ReviewRecord, touch = true): Promise<void> {
  const next = touch ? { ...record, updatedAt: new Date().toISOString() } : record;
  await writeFileAtomic(
    join(reviewDir(store, record.id), "state.json"),
    `${JSON.stringify(next, null, 2)}\n`,
  );
}

export async function writeReviewFile(
  store: StorePaths,
  id: string,
  name: string,
  data: string | Uint8Array,
): Promise<void> {
  await writeFileAtomic(join(reviewDir(store, id), name), data);
}

export async function readReviewFile(
  store: StorePaths,
  id: string,
  name: string,
): Promise<string | undefined> {
  try {
    return await readFile(join(reviewDir(store, id), name), "utf8");
  } catch {
    return undefined;
  }
}

export async function readRecord(store: StorePaths, id: string): Promise<ReviewRecord | undefined> {
  const text = await readReviewFile(store, id, "state.json");
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isReviewRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function listRecords(store: StorePaths): Promise<ReviewRecord[]> {
  let ids: string[];
  try {
    ids = await readdir(store.reviews);
  } catch {
    return [];
  }
  const records = await Promise.all(ids.map((id) => readRecord(store, id)));
  return records
    .filter((record): record is ReviewRecord => record !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** A review named by its id or a unique prefix of it, as git abbreviates object names. */
export async function findRecord(store: StorePaths, idOrPrefix: string): Promise<ReviewRecord> {
  const records = await listRecords(store);
  const matches = records.filter((record) => record.id.startsWith(idOrPrefix));
  if (matches.length === 1) return matches[0] as ReviewRecord;
  const message = matches.length === 0 ? messages.noSuchReview : messages.ambiguousReview;
  throw new ReviewRemoteError(message(idOrPrefix), { hints: [messages.hintListReviews] });
}
