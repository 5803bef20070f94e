// What `audit` shows: every send recorded in audit.jsonl, or the verdict of `--verify`.

import { messages } from "../messages.js";
import type { AuditEntry } from "../store/audit.js";
import { formatSize, type Output } from "./output.js";
import { plural } from "./plural.js";

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

/** `stored`: how many bundles the store holds; with none, there was nothing to hash. */
export function printAuditVerified(
  { sends, stored, receipts, pruned }: { sends: number; stored: number; receipts: number; pruned: number },
  output: Output,
): void {
  if (stored > 0) output.out(`All stored bundles hash to their names (${plural(sends, "send")} recorded).`);
  else if (sends > 0) output.out(`No bundle is stored to hash (${plural(sends, "send")} recorded).`);
  else output.out("Nothing has been sent from this repository, and no bundle is stored.");
  if (pruned > 0) output.out(`${messages.bundlesPruned(pruned).replace(/^./, (c) => c.toUpperCase())}.`);
  if (receipts > 0) output.out(`All stored receipts verify (${plural(receipts, "signed review")}).`);
}
