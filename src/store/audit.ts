// audit.jsonl: one line per send, append-only — what left this machine, when, and to which worker.
import { appendFile, readFile } from "node:fs/promises";
import { ensureDir, type StorePaths, storeError } from "./layout.js";

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

/** One `write` with O_APPEND per line: concurrent runs add whole lines, never interleaved ones. */
export async function appendAudit(store: StorePaths, entry: AuditEntry): Promise<void> {
  await ensureDir(store.root);
  try {
    await appendFile(store.audit, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch (error) {
    throw storeError(store.root, error);
  }
}

export async function readAudit(store: StorePaths): Promise<AuditEntry[]> {
  let text: string;
  try {
    text = await readFile(store.audit, "utf8");
  } catch {
    return [];
  }
  const entries: AuditEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as AuditEntry);
    } catch {
      // A torn last line (a crash mid-write) is skipped, never fatal.
    }
  }
  return entries;
}
