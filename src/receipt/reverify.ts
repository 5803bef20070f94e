// A stored receipt checked again, later (`verify <id>`, `audit --verify`): the same verification as at
// import, on the files the store kept, against today's allowed signers; and the ssh-keygen command
// that repeats it on those very files without this tool.
import { receiptPolicyFor } from "../config/receipt-policy.js";
import type { Settings } from "../config/settings.js";
import { ConfigError, ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import type { StorePaths } from "../store/layout.js";
import { readReceiptFiles } from "../store/receipts.js";
import { type ReviewRecord, readReviewFile } from "../store/records.js";
import { verifyCommand } from "./describe.js";
import type { ReceiptSubjects } from "./statement.js";
import { checkReceipt, ReceiptStatus, type ReceiptVerdict } from "./verify.js";

export interface Reverified {
  verdict: ReceiptVerdict;
  /** `ssh-keygen -Y verify ... < <statement>` on the stored files. */
  command: string;
}

/** What the review sent, from its stored request.json; undefined when it is gone or unreadable. */
async function readSent(store: StorePaths, id: string): Promise<ReceiptSubjects | undefined> {
  try {
    const request = JSON.parse((await readReviewFile(store, id, "request.json")) ?? "null");
    const subjects = {
      requestId: request?.id,
      bundleSha256: request?.bundle?.sha256,
      snapshotCommit: request?.snapshot?.commit,
    };
    return Object.values(subjects).every((value) => typeof value === "string") ? subjects : undefined;
  } catch {
    return undefined;
  }
}

function parseReceived(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
  if (!stored) throw new ReviewRemoteError(messages.noReceipt(record.id));
  const principal = record.worker.name;
  const { allowedSigners } = receiptPolicyFor(settings, principal, repo);
  if (allowedSigners === undefined) {
    throw new ConfigError(messages.noAllowedSigners(principal), {
      hints: [messages.hintConfigureAllowedSigners(principal)],
    });
  }
  const command = verifyCommand({ ...stored.files, allowedSigners, principal });
  const sent = await readSent(store, record.id);
  if (!sent) {
    const reason = messages.noStoredRequest(record.id);
    return { verdict: { status: ReceiptStatus.mismatch, principal, reason }, command };
  }
  const verdict = await checkReceipt({
    receipt: stored.receipt,
    principal,
    allowedSigners,
    sent,
    received: parseReceived(stored.received),
  });
  return { verdict, command };
}
