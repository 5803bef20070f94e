// A signed review's receipt in the store, beside its record: the statement's exact bytes, the armored
// signature, and the result exactly as received (the statement's digest is of those bytes' document,
// before any text was sanitized for display). Plain files, so ssh-keygen can check them by hand.
import { join } from "node:path";
import type { Receipt } from "../protocol/result.js";
import type { StorePaths } from "./layout.js";
import { readReviewFile, reviewDir, writeReviewFile } from "./records.js";

const STATEMENT = "statement.json";
const SIGNATURE = "statement.sig";
const RECEIVED = "received.json";

export interface StoredReceipt {
  receipt: Receipt;
  /** The result document as the worker sent it. */
  received: string;
  /** Where the statement and the signature are, for the ssh-keygen command that checks them. */
  files: { statement: string; signature: string };
}

export async function writeReceiptFiles(
  store: StorePaths,
  id: string,
  receipt: Receipt,
  received: Uint8Array,
): Promise<void> {
  await writeReviewFile(store, id, RECEIVED, received);
  await writeReviewFile(store, id, SIGNATURE, receipt.signature);
  await writeReviewFile(store, id, STATEMENT, receipt.statement);
}

/** The stored receipt of review `id`, or undefined when it has none (or a file is gone). */
export async function readReceiptFiles(store: StorePaths, id: string): Promise<StoredReceipt | undefined> {
  const [statement, signature, received] = await Promise.all(
    [STATEMENT, SIGNATURE, RECEIVED].map((name) => readReviewFile(store, id, name)),
  );
  if (statement === undefined || signature === undefined || received === undefined) return undefined;
  const dir = reviewDir(store, id);
  return {
    receipt: { statement, signature },
    received,
    files: { statement: join(dir, STATEMENT), signature: join(dir, SIGNATURE) },
  };
}
