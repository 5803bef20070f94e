import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { digestOf } from "./bundles.js";
import { appendJsonLine, readJsonLines, type StorePaths } from "./layout.js";

export interface AuditEntry {
  time: string;
  worker: string;
  command: string;
  requestId: string;
  reviewId: string;
  bundleSha256: string;
  files: number;
  bytes: number;
}

/** One line per send (appendJsonLine: concurrent runs add whole lines). */
export function appendAudit(store: StorePaths, entry: AuditEntry): Promise<void> {
  return appendJsonLine(store, store.audit, entry);
}

export async function readAudit(store: StorePaths): Promise<AuditEntry[]> {
  return (await readJsonLines(store.audit)) as AuditEntry[];
}

/**
 * One problem per stored bundle that no longer hashes to its name, and per sent one that is gone
 * without prune having removed it (`pruned`: the sha256s pruned.jsonl records).
 */
export async function verifyBundles(
  store: StorePaths,
  sent: ReadonlySet<string>,
  pruned: ReadonlySet<string>,
): Promise<string[]> {
  const names = await readdir(store.bundles).catch(() => [] as string[]);
  const stored = names.filter((name) => name.endsWith(".tar.gz"));
  const problems: string[] = [];
  for (const name of stored) {
    const expected = name.slice(0, -".tar.gz".length);
    const { sha256: actual } = await digestOf(join(store.bundles, name));
    if (actual !== expected) problems.push(`${name}: content hashes to ${actual}`);
  }
  const present = new Set(stored.map((name) => name.slice(0, -".tar.gz".length)));
  for (const sha of sent)
    if (!present.has(sha) && !pruned.has(sha))
      problems.push(`${sha}.tar.gz: sent, but no longer in the store`);
  return problems;
}
