// What `audit` shows: every send recorded in audit.jsonl, or the verdict of `--verify`.

import { messages } from "../messages.js";
import type { AuditEntry } from "../store/audit.js";
import { formatSize, type Output, plural } from "./output.js";

/** `pruned`: the sent bundles prune removed from the store, and when (a bundle stored again is not). */
export function printAudit(
  entries: readonly AuditEntry[],
  pruned: ReadonlyMap<string, string>,
  json: boolean,
  output: Output,
): void {
  if (json) {
    output.json(entries.map((entry) => ({ ...entry, pruned: pruned.get(entry.bundleSha256) ?? null })));
    return;
  }
  if (entries.length === 0) output.out("Nothing has been sent from this repository.");
  for (const entry of entries) {
    const when = pruned.get(entry.bundleSha256);
    output.out(
      `${entry.time}  ${entry.worker}  ${entry.bundleSha256.slice(0, 16)}  ${plural(entry.files, "file")} (${formatSize(entry.bytes)} compressed)  review ${entry.reviewId}  via: ${entry.command}${when ? `  (bundle pruned ${when})` : ""}`,
    );
  }
}

export function printAuditVerified(sends: number, receipts: number, pruned: number, output: Output): void {
  output.out(`All stored bundles hash to their names (${plural(sends, "send")} recorded).`);
  if (pruned > 0) output.out(`${messages.bundlesPruned(pruned).replace(/^./, (c) => c.toUpperCase())}.`);
  if (receipts > 0) output.out(`All stored receipts verify (${plural(receipts, "signed review")}).`);
}
