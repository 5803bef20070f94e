// `git review-remote verify <id>`: the review's stored receipt verified again against the allowed
// signers configured now, and the ssh-keygen command that repeats the check without this tool.
import { readSettings } from "../config/settings.js";
import { InvalidResultError } from "../errors.js";
import { messages } from "../messages.js";
import { ReceiptStatus } from "../receipt/verify.js";
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printVerified } from "../report/receipt.js";
import { storePaths } from "../store/layout.js";
import { prunedBundle } from "../store/pruned.js";
import { findRecord } from "../store/records.js";

export async function runVerify(args: { id: string; json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const settings = await readSettings(repo);
  const store = storePaths(repo);
  const record = await findRecord(store, args.id);
  const { reverifyStored } = await import("../receipt/reverify.js");
  // A pruned bundle is said so, not taken for a missing one: the receipt is checked on its manifest.
  const pruned = await prunedBundle(store, record.bundleSha256);
  const note = pruned ? [messages.bundlePruned(record.bundleSha256, pruned.time)] : [];
  const reverified = await reverifyStored(repo, store, settings, record).catch((error: unknown) => {
    if (!args.json) for (const line of note) output.err(`note: ${line}`);
    throw error;
  });
  const { verdict, command } = reverified;
  if (verdict.status !== ReceiptStatus.good) {
    throw new InvalidResultError(messages.receiptNotVerified(record.id), {
      details: [verdict.reason ?? verdict.status, ...note],
      hints: [messages.hintRepeatVerify(command)],
    });
  }
  printVerified(record, reverified, args.json, output);
  if (!args.json && !output.quiet) for (const line of note) output.err(`note: ${line}`);
}
