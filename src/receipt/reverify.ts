// A stored receipt checked again, later (`verify <id>`, `audit --verify`): the same verification as at
// import, on the files the store kept, against today's allowed signers; and the ssh-keygen command
// that repeats it on those very files without this tool.
import { isDeepStrictEqual } from "node:util";
import { receiptPolicyFor } from "../config/receipt-policy.js";
import type { Settings } from "../config/settings.js";
import { ConfigError, ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import { StoredRequestSchema } from "../protocol/request.js";
import { computeRequestId } from "../protocol/request-line.js";
import type { Repo } from "../repo.js";
import { readManifest } from "../store/bundles.js";
import type { StorePaths } from "../store/layout.js";
import { readReceiptFiles } from "../store/receipts.js";
import { type ReviewRecord, ReviewState, readReviewFile } from "../store/records.js";
import { storedResultOf } from "../validate/stored-result.js";
import { verifyCommand } from "./describe.js";
import type { ReceiptSubjects } from "./statement.js";
import { checkReceipt, ReceiptStatus, type ReceiptVerdict } from "./verify.js";

export interface Reverified {
  verdict: ReceiptVerdict;
  /** `ssh-keygen -Y verify ... < <statement>` on the stored files. */
  command: string;
}

/**
 * What the review sent, from its stored request.json, or why it cannot say: the file is gone, or it
 * is not the request the review recorded (its id is the sha256 of its canonical JSON, so an edit to
 * any field, or a file that no longer parses, shows).
 */
async function readSent(
  store: StorePaths,
  record: Pick<ReviewRecord, "id" | "requestId">,
): Promise<ReceiptSubjects | { problem: string }> {
  const text = await readReviewFile(store, record.id, "request.json");
  if (text === undefined) return { problem: messages.noStoredRequest(record.id) };
  // Written by this tool into the user's own git dir: a shape check is enough.
  const request = parseReceived(text) as StoredRequest | null | undefined;
  const changed = { problem: messages.storedRequestChanged(record.requestId) };
  if (typeof request !== "object" || request === null) return changed;
  if (request.id !== record.requestId || computeRequestId(request) !== record.requestId) return changed;
  const bundleSha256 = request.bundle?.sha256;
  const snapshotCommit = request.snapshot?.commit;
  if (typeof bundleSha256 !== "string" || typeof snapshotCommit !== "string") return changed;
  return { requestId: record.requestId, bundleSha256, snapshotCommit };
}

interface StoredRequest {
  id?: string;
  bundle?: { sha256?: unknown };
  snapshot?: { commit?: unknown };
}

function parseReceived(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why a review has no stored receipt, from what its record says became of its result: a result the
 * receipt layer never saw (refused as it was read: too large, not JSON, not the schema), a receipt
 * that layer refused (kept out of the store), or a result that carried none.
 */
function noReceiptMessage(record: ReviewRecord): string {
  const { receipt } = record;
  if (receipt === undefined && record.state === ReviewState.rejected) {
    return messages.noReceiptRefusedFirst(record.id);
  }
  const refused: readonly string[] = [ReceiptStatus.bad, ReceiptStatus.untrusted, ReceiptStatus.mismatch];
  if (receipt !== undefined && refused.includes(receipt.status)) {
    return messages.noReceiptRefused(record.id, receipt.reason ?? receipt.status);
  }
  return messages.noReceipt(record.id);
}

/**
 * Verifies the receipt stored for `record` against the allowed signers configured for its worker now.
 * Throws when there is nothing to verify: no stored receipt (1), no allowed signers file (2).
 */
export async function reverifyStored(
  repo: Pick<Repo, "top" | "cwd">,
  store: StorePaths,
  settings: Settings,
  record: ReviewRecord,
): Promise<Reverified> {
  const stored = await readReceiptFiles(store, record.id);
  if (!stored) throw new ReviewRemoteError(noReceiptMessage(record));
  const principal = record.worker.name;
  const { allowedSigners } = receiptPolicyFor(settings, principal, repo);
  if (allowedSigners === undefined) {
    throw new ConfigError(messages.noAllowedSigners(principal), {
      hints: [messages.hintConfigureAllowedSigners(principal)],
    });
  }
  const command = verifyCommand({ ...stored.files, allowedSigners, principal });
  const sent = await readSent(store, record);
  if ("problem" in sent) {
    return { verdict: { status: ReceiptStatus.mismatch, principal, reason: sent.problem }, command };
  }
  const verdict = await checkReceipt({
    receipt: stored.receipt,
    principal,
    allowedSigners,
    sent,
    received: parseReceived(stored.received),
  });
  if (verdict.status !== ReceiptStatus.good) return { verdict, command };
  // The signature holds for received.json; `show` reads result.json: it must be what that gives.
  const stale = await checkStoredResult(store, record.id, stored.received);
  return {
    verdict: stale ? { ...verdict, status: ReceiptStatus.mismatch, reason: stale } : verdict,
    command,
  };
}

/**
 * Why the stored result.json is not what accepting the signed document again stores (the same parse
 * against the stored request and the bundle's manifest, the same sanitizing); undefined when it is,
 * or when there is none (a review rejected before it was stored).
 */
async function checkStoredResult(
  store: StorePaths,
  id: string,
  received: string,
): Promise<string | undefined> {
  const text = await readReviewFile(store, id, "result.json");
  if (text === undefined) return undefined;
  try {
    const request = StoredRequestSchema.parse(
      JSON.parse((await readReviewFile(store, id, "request.json")) ?? "null"),
    );
    const files = await readManifest(store, request.bundle.sha256);
    const expected = storedResultOf(Buffer.from(received, "utf8"), request, files);
    return expected !== undefined && isDeepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(expected)))
      ? undefined
      : messages.storedResultChanged;
  } catch {
    return messages.storedResultUnchecked;
  }
}
