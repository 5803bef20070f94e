// A review answered from the store: its record and its stored (validated, sanitized) result.
import type { Result } from "../protocol/result.js";
import type { StorePaths } from "../store/layout.js";
import { type ReviewRecord, ReviewState, readRecord, readReviewFile } from "../store/records.js";
import type { ReviewOutcome } from "./send.js";

const REUSABLE: ReadonlySet<ReviewRecord["state"]> = new Set([ReviewState.imported, ReviewState.empty]);

export async function readCachedOutcome(store: StorePaths, id: string): Promise<ReviewOutcome | undefined> {
  const record = await readRecord(store, id);
  if (!record || !REUSABLE.has(record.state)) return undefined;
  const text = await readReviewFile(store, id, "result.json");
  if (text === undefined) return undefined;
  // Written only after every validation layer passed, by this tool, into the user's own git dir:
  // no schema library on the pre-push hook's cached path.
  let result: Partial<Result>;
  try {
    result = JSON.parse(text) as Partial<Result>;
  } catch {
    return undefined;
  }
  if (!Array.isArray(result.comments)) return undefined;
  return {
    record,
    comments: result.comments,
    summary: result.summary ?? "",
    sandbox: result.worker?.sandbox,
  };
}
