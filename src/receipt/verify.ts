// Local side of a receipt: does the signature verify for this worker under the user's allowed-signers
// file (the format git uses for SSH commit signatures), and does the statement fit what was sent and
// received? Verification is ssh-keygen's own, so anyone can repeat it without this tool.

import { constants } from "node:fs";
import { access, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigError, InvalidResultError } from "../errors.js";
import { messages } from "../messages.js";
import { describeIoError } from "../os/errno.js";
import { createTempDir, RECEIPT_PREFIX } from "../os/tempdir.js";
import {
  ARMORED_SIGNATURE,
  MAX_SIGNATURE_BYTES,
  MAX_STATEMENT_BYTES,
  type Receipt,
} from "../protocol/result.js";
import { checkStatementContent } from "./match.js";
import {
  checkNovalidateArgs,
  lastLine,
  parseGoodSignature,
  runSshKeygen,
  type SshKeygenOptions,
  verifyArgs,
} from "./ssh-keygen.js";
import type { ReceiptSubjects } from "./statement.js";

export const ReceiptStatus = {
  /** Signed by a key allowed for this worker, about exactly this review. */
  good: "good",
  /** The signature does not hold: malformed, over other bytes, or for another namespace. */
  bad: "bad",
  /** The signature holds, but its key is not allowed for this worker (unknown, expired, restricted). */
  untrusted: "untrusted",
  /** A good signature over a statement about another bundle, request, snapshot or result. */
  mismatch: "mismatch",
  /** No receipt at all. */
  unsigned: "unsigned",
} as const;
export type ReceiptStatus = (typeof ReceiptStatus)[keyof typeof ReceiptStatus];

export interface ReceiptVerdict {
  status: ReceiptStatus;
  /** The worker name the signature was checked for. */
  principal: string;
  /** ssh-keygen's names: `ED25519`, `RSA`, `ECDSA`, `ED25519-CERT`...; known once the signature holds. */
  keyType?: string;
  /** `SHA256:...` of the signing key. */
  fingerprint?: string;
  /** Why the status is not good. */
  reason?: string;
}

export interface ReceiptCheck {
  receipt: Receipt | undefined;
  /** The worker's name: the principal its key must be listed under. */
  principal: string;
  allowedSigners: string;
  /** What was sent: the statement must name exactly these. */
  sent: ReceiptSubjects;
  /** The result document as received (parsed JSON; its receipt field is left out of the digest). */
  received: unknown;
}

/** The verdict on a result's receipt. Throws only for local problems: the allowed-signers file, ssh-keygen. */
export async function checkReceipt(
  check: ReceiptCheck,
  options: SshKeygenOptions = {},
): Promise<ReceiptVerdict> {
  const { receipt, principal } = check;
  if (receipt === undefined) {
    return { status: ReceiptStatus.unsigned, principal, reason: messages.receiptUnsigned(principal) };
  }
  const malformed = checkShape(receipt);
  if (malformed !== undefined) return { status: ReceiptStatus.bad, principal, reason: malformed };
  const allowedSigners = resolve(check.allowedSigners);
  await verifyAllowedSignersReadable(allowedSigners);
  const verdict = await checkSignature(receipt, allowedSigners, principal, options);
  if (verdict.status !== ReceiptStatus.good) return verdict;
  const reason = checkStatementContent(receipt.statement, check.sent, check.received);
  return reason === undefined ? verdict : { ...verdict, status: ReceiptStatus.mismatch, reason };
}

/** The error that rejects a result for this verdict: anything but good, or unsigned where required. */
export function receiptRefusal(
  verdict: ReceiptVerdict,
  policy: { required: boolean },
): InvalidResultError | undefined {
  const { status, principal } = verdict;
  if (status === ReceiptStatus.good || (status === ReceiptStatus.unsigned && !policy.required)) return;
  return new InvalidResultError(messages.receiptRejected(principal), {
    details: [verdict.reason ?? status],
    hints: status === ReceiptStatus.unsigned ? [messages.hintReceiptRequired(principal)] : [],
  });
}

/** checkReceipt, then an InvalidResultError (exit 4) unless good, or unsigned where none is required. */
export async function verifyReceipt(
  check: ReceiptCheck,
  policy: { required: boolean },
  options: SshKeygenOptions = {},
): Promise<ReceiptVerdict> {
  const verdict = await checkReceipt(check, options);
  const refusal = receiptRefusal(verdict, policy);
  if (refusal) throw refusal;
  return verdict;
}

/** Sizes and armor first: bytes that cannot be a receipt never reach ssh-keygen. */
function checkShape(receipt: Receipt): string | undefined {
  const statementBytes = Buffer.byteLength(receipt.statement, "utf8");
  if (statementBytes > MAX_STATEMENT_BYTES) {
    return messages.receiptTooLarge("statement", statementBytes, MAX_STATEMENT_BYTES);
  }
  const signatureBytes = Buffer.byteLength(receipt.signature, "utf8");
  if (signatureBytes > MAX_SIGNATURE_BYTES) {
    return messages.receiptTooLarge("signature", signatureBytes, MAX_SIGNATURE_BYTES);
  }
  return ARMORED_SIGNATURE.test(receipt.signature) ? undefined : messages.receiptNotArmored;
}

/** ssh-keygen treats a missing allowed-signers file as a failed signature; it is the user's setup. */
export async function verifyAllowedSignersReadable(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    throw new ConfigError(messages.allowedSignersUnreadable(file, describeIoError(error)), {
      cause: error,
      hints: [messages.hintAllowedSigners],
    });
  }
}

/**
 * `-Y verify` decides. When it refuses, `-Y check-novalidate` tells a genuine signature by a key that is
 * not allowed (untrusted, with the key named) from one that does not hold at all (bad).
 */
async function checkSignature(
  receipt: Receipt,
  allowedSigners: string,
  principal: string,
  options: SshKeygenOptions,
): Promise<ReceiptVerdict> {
  const dir = await createTempDir(RECEIPT_PREFIX);
  try {
    const signature = join(dir, "signature");
    await writeFile(signature, receipt.signature, { mode: 0o600 });
    const verified = await runSshKeygen(
      verifyArgs({ allowedSigners, principal, signature }),
      receipt.statement,
      options,
    );
    if (verified.exitCode === 0) {
      return { status: ReceiptStatus.good, principal, ...parseGoodSignature(verified.stdout) };
    }
    const intact = await runSshKeygen(checkNovalidateArgs(signature), receipt.statement, options);
    if (intact.exitCode !== 0) {
      return {
        status: ReceiptStatus.bad,
        principal,
        reason: messages.receiptBadSignature(lastLine(intact.stderr)),
      };
    }
    const key = parseGoodSignature(intact.stdout);
    const reason = verified.stderr.trim()
      ? messages.receiptKeyRefused(principal, lastLine(verified.stderr))
      : messages.receiptKeyNotAllowed(
          principal,
          key ? messages.signerKey(key.keyType, key.fingerprint) : messages.unnamedKey,
        );
    return { status: ReceiptStatus.untrusted, principal, ...key, reason };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
