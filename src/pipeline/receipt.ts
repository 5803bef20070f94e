// The receipt layer (design §12), run with the other validation layers before anything is imported:
// the worker's signed statement must verify under the user's allowed signers for this worker's name
// and be about exactly what was sent and received. A refusal is exit 4 with the reason named.
import { createHash } from "node:crypto";
import type { ReceiptPolicy } from "../config/receipt-policy.js";
import { debug } from "../debug.js";
import type { Receipt } from "../protocol/result.js";
import { subjectsOf } from "../receipt/statement.js";
import { checkReceipt, ReceiptStatus, receiptRefusal } from "../receipt/verify.js";
import { writeReceiptFiles } from "../store/receipts.js";
import { type ReceiptRecord, type ReviewRecord, ReviewState } from "../store/records.js";
import { type AcceptContext, updateRecord } from "./context.js";
import type { Worker } from "./workers.js";

const UNCHECKED: ReceiptPolicy = { allowedSigners: undefined, required: false };

function statementSha256(statement: string): string {
  return createHash("sha256").update(statement, "utf8").digest("hex");
}

/** A result that passed layer 1, as the receipt layer needs it. */
interface Received {
  receipt: Receipt | undefined;
  /** The document as parsed, before any part was dropped or any text sanitized. */
  document: unknown;
  /** Its bytes, kept beside the receipt. */
  raw: Uint8Array;
}

/**
 * Verifies the receipt of a result that passed layer 1. Records the verdict, stores a signed receipt
 * beside the record, and throws an InvalidResultError when the result must be refused.
 */
export async function checkResultReceipt(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  received: Received,
): Promise<void> {
  const { store } = context;
  const policy = context.receiptPolicies.get(worker.name) ?? UNCHECKED;
  const { receipt } = received;
  const principal = worker.name;
  let summary: ReceiptRecord;
  if (policy.allowedSigners === undefined) {
    summary = receipt ? { status: "unverified", principal } : { status: ReceiptStatus.unsigned, principal };
  } else {
    const verdict = await checkReceipt({
      receipt,
      principal,
      allowedSigners: policy.allowedSigners,
      sent: subjectsOf(context.request),
      received: received.document,
    });
    debug(`receipt: ${verdict.status} for worker '${principal}'`);
    const refusal = receiptRefusal(verdict, policy);
    if (refusal) {
      await updateRecord(store, record, {
        state: ReviewState.rejected,
        problems: [...refusal.details],
        receipt: verdict,
      });
      throw refusal;
    }
    summary = verdict;
  }
  if (receipt) {
    await writeReceiptFiles(store, record.id, receipt, received.raw);
    summary = { ...summary, statementSha256: statementSha256(receipt.statement) };
    debug("receipt: stored");
  }
  record.receipt = summary;
}
