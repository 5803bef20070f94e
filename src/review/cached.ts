// A review answered from the store: its record and its stored (validated, sanitized) result.
import { ResultSchema } from "../protocol/result.js";
import type { StorePaths } from "../store.js";
import { type ReviewRecord, ReviewState, readRecord, readReviewFile } from "./record.js";
import type { ReviewOutcome } from "./run.js";

const REUSABLE: ReadonlySet<ReviewRecord["state"]> = new Set([ReviewState.imported, ReviewState.empty]);

export async function readCachedOutcome(store: StorePaths, id: string): Promise<ReviewOutcome | undefined> {
  const record = await readRecord(store, id);
  if (!record || !REUSABLE.has(record.state)) return undefined;
  const text = await readReviewFile(store, id, "result.json");
  if (text === undefined) return undefined;
  const result = ResultSchema.safeParse(JSON.parse(text));
  if (!result.success) return undefined;
  return {
    record,
    comments: result.data.comments,
    summary: result.data.summary,
    sandbox: result.data.worker.sandbox,
  };
}
