// `git review-remote audit`: what left this machine, when, and to which worker; `--verify` re-hashes
// every stored bundle against its name and verifies every stored receipt again.
import { readSettings } from "../config/settings.js";
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import { type Repo, resolveRepo } from "../repo.js";
import { printAudit, printAuditVerified } from "../report/audit.js";
import type { Output } from "../report/output.js";
import { readAudit, verifyBundles } from "../store/audit.js";
import { type StorePaths, storePaths } from "../store/layout.js";
import { listStoredBundles, readPruned } from "../store/pruned.js";
import { listRecords } from "../store/records.js";

/** One problem per stored receipt that does not verify now; and how many do. */
async function verifyReceipts(repo: Repo, store: StorePaths): Promise<{ problems: string[]; good: number }> {
  const signed = (await listRecords(store)).filter((record) => record.receipt?.statementSha256);
  if (signed.length === 0) return { problems: [], good: 0 };
  const settings = await readSettings(repo);
  const { reverifyStored } = await import("../receipt/reverify.js");
  const problems: string[] = [];
  for (const record of signed) {
    try {
      const { verdict } = await reverifyStored(repo, store, settings, record);
      if (verdict.status !== "good")
        problems.push(`review ${record.id}: ${verdict.reason ?? verdict.status}`);
    } catch (error) {
      if (!(error instanceof ReviewRemoteError)) throw error;
      problems.push(`review ${record.id}: ${error.message}`);
    }
  }
  return { problems, good: signed.length - problems.length };
}

export async function runAudit(args: { json: boolean; verify: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const entries = await readAudit(store);
  const sent = new Set(entries.map((entry) => entry.bundleSha256));
  const pruned = await readPruned(store);
  const present = new Set((await listStoredBundles(store)).map((bundle) => bundle.sha256));
  // A sent bundle prune removed and that is not stored again, with when it went.
  const gone = new Map(
    [...pruned.values()]
      .filter((entry) => sent.has(entry.bundleSha256) && !present.has(entry.bundleSha256))
      .map((entry) => [entry.bundleSha256, entry.time]),
  );
  if (!args.verify) {
    printAudit(entries, gone, args.json, output);
    return;
  }
  const bundles = await verifyBundles(store, sent, new Set(gone.keys()));
  const prunedSent = gone.size;
  const receipts = await verifyReceipts(repo, store);
  if (bundles.length > 0 || receipts.problems.length > 0) {
    const heads = [
      ...(bundles.length > 0 ? [messages.bundlesFailedVerification(bundles.length)] : []),
      ...(receipts.problems.length > 0
        ? [messages.receiptsFailedVerification(receipts.problems.length)]
        : []),
    ];
    const note = prunedSent > 0 ? [messages.bundlesPruned(prunedSent)] : [];
    throw new ReviewRemoteError(heads.join("; "), { details: [...bundles, ...receipts.problems, ...note] });
  }
  printAuditVerified(
    { sends: entries.length, stored: present.size, receipts: receipts.good, pruned: prunedSent },
    output,
  );
}
