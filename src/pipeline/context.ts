// What the send, accept and import stages share for one run: what was sent and where it goes.
import { join } from "node:path";
import type { ReceiptPolicy } from "../config/receipt-policy.js";
import type { ManifestFile } from "../export/archive.js";
import type { Snapshot } from "../export/snapshot.js";
import type { PrivateObjects } from "../git/objects.js";
import type { ChangedLines } from "../protocol/changed-lines.js";
import type { Request } from "../protocol/request.js";
import type { Repo } from "../repo.js";
import type { StorePaths } from "../store/layout.js";
import { RECORD_LOCK_WAIT_MS, withStoreLock } from "../store/lock.js";
import { type ReviewRecord, writeRecord } from "../store/records.js";
import type { FilterMode } from "./filter.js";

/** What was sent, as the accept and import stages need it. */
interface SentBundle {
  snapshot: Snapshot;
  /** The manifest: what the worker was sent, so what it may touch and comment on. */
  files: readonly ManifestFile[];
  /** A work-tree snapshot's objects (in the export's scratch dir), until the run ends. */
  snapshotObjects?: PrivateObjects | undefined;
}

export interface AcceptContext {
  repo: Repo;
  store: StorePaths;
  sent: SentBundle;
  request: Request;
  branchPrefix: string;
  /** By worker name: the receipts its results must carry (design §12). */
  receiptPolicies: ReadonlyMap<string, ReceiptPolicy>;
  signal: AbortSignal;
  /** A focused review's changed paths, which its proposals are kept to unless `keepAll` (nofilter). */
  scope?: ProposalScope | undefined;
  /**
   * Where the request's time limit was set (review-remote.timeout, or the policy that lowered it),
   * named when it runs out; unknown for a result imported out of band.
   */
  timeoutSetting?: string | undefined;
  /**
   * The file a result imported out of band was read from, as the user named it: a problem with the
   * document is said of that file, not of the worker's stdout.
   */
  resultFile?: string | undefined;
}

export interface ProposalScope {
  paths: ReadonlySet<string>;
  keepAll: boolean;
  /** The change's lines and the mode the review was asked for: which comments it shows. */
  changes: ChangedLines;
  mode: FilterMode;
}

/**
 * Writes the record's new state, as the store's one writer: every way out of a stage leaves it
 * saying what happened.
 */
export async function updateRecord(store: StorePaths, record: ReviewRecord, changes: Partial<ReviewRecord>) {
  Object.assign(record, changes);
  await withStoreLock(store, "review", () => writeRecord(store, record), RECORD_LOCK_WAIT_MS);
}

/** The objects the proposals apply to: a work-tree snapshot's (borrowing the repo's), or the repo's. */
export function baseObjects(context: AcceptContext): string {
  return context.sent.snapshotObjects?.objects ?? join(context.repo.commonDir, "objects");
}
