// How a review's receipt is shown: one line of text (`Good signature from worker "box" with ED25519
// key SHA256:...`, or `unsigned`), or the `{status, principal, fingerprint}` of the JSON outputs.
import { messages } from "../messages.js";
import { describeVerdict } from "../receipt/describe.js";
import type { Reverified } from "../receipt/reverify.js";
import type { ReceiptRecord, ReviewRecord } from "../store/records.js";
import type { Output } from "./output.js";

/** A record from before receipts, or of a result without one, is unsigned. */
function receiptOf(record: ReviewRecord): ReceiptRecord {
  return record.receipt ?? { status: "unsigned", principal: record.worker.name };
}

export function describeReceipt(record: ReviewRecord): string {
  const receipt = receiptOf(record);
  if (receipt.status === "unverified") return messages.receiptUnverified(receipt.principal);
  return describeVerdict({ ...receipt, status: receipt.status });
}

/** Whether the review's receipt says anything worth a line in a review's report. */
export function isSigned(record: ReviewRecord): boolean {
  return receiptOf(record).status !== "unsigned";
}

export function receiptJson(record: ReviewRecord) {
  const { status, principal, fingerprint } = receiptOf(record);
  return { status, principal, fingerprint: fingerprint ?? null };
}

/** `verify`'s verdict, the statement's digest (the proposals' Review-Receipt) and the command. */
export function printVerified(
  record: ReviewRecord,
  reverified: Reverified,
  json: boolean,
  output: Output,
): void {
  const { verdict, command } = reverified;
  const statement = record.receipt?.statementSha256;
  if (json) {
    const { status, principal, keyType, fingerprint } = verdict;
    const document = {
      id: record.id,
      status,
      principal,
      keyType,
      fingerprint,
      statementSha256: statement,
      command,
    };
    output.json(document);
    return;
  }
  output.out(describeVerdict(verdict));
  if (statement) output.out(`Review-Receipt: sha256:${statement}`);
  output.out("Check it without git-review-remote:");
  output.out(`  ${command}`);
}
