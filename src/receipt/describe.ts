// How a receipt's verification is shown: one line for its verdict, and the ssh-keygen command that
// repeats it without this tool.

import { resolve } from "node:path";
import { messages } from "../messages.js";
import { shellWord } from "../os/shell.js";
import { type VerifyFiles, verifyArgs } from "./ssh-keygen.js";
import { ReceiptStatus, type ReceiptVerdict } from "./verify.js";

export interface VerifyCommandFiles extends VerifyFiles {
  statement: string;
}

/** The shell command that repeats the verification with ssh-keygen alone, on stored copies of the files. */
export function verifyCommand(files: VerifyCommandFiles): string {
  const args = verifyArgs({
    allowedSigners: resolve(files.allowedSigners),
    principal: files.principal,
    signature: resolve(files.signature),
  });
  return `${["ssh-keygen", ...args].map(shellWord).join(" ")} < ${shellWord(resolve(files.statement))}`;
}

/** One line for `show` and `verify`: `Good signature from worker "box" with ED25519 key SHA256:...`. */
export function describeVerdict(verdict: ReceiptVerdict): string {
  if (verdict.status === ReceiptStatus.good) {
    const key =
      verdict.keyType && verdict.fingerprint
        ? messages.signerKey(verdict.keyType, verdict.fingerprint)
        : messages.unnamedKey;
    return messages.receiptGood(verdict.principal, key);
  }
  return verdict.status === ReceiptStatus.unsigned
    ? ReceiptStatus.unsigned
    : (verdict.reason ?? verdict.status);
}
