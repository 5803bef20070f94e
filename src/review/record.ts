// A review's record in the store: `reviews/<id>/` with request.json, result.json and state.json.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ReviewRemoteError } from "../errors.js";
import { type StorePaths, writeFileAtomic } from "../store.js";

export const ReviewState = {
  sent: "sent",
  failed: "failed",
  rejected: "rejected",
  imported: "imported",
  empty: "empty",
  merged: "merged",
  dropped: "dropped",
} as const;
export type ReviewState = (typeof ReviewState)[keyof typeof ReviewState];

export const ReviewRecordSchema = z.object({
  id: z.string(),
  requestId: z.string(),
  state: z.enum(Object.values(ReviewState) as [ReviewState, ...ReviewState[]]),
  worker: z.object({ name: z.string(), command: z.string() }),
  snapshot: z.object({
    kind: z.enum(["commit", "worktree"]),
    commit: z.string(),
    parent: z.string().optional(),
  }),
  range: z.object({ base: z.string(), head: z.string() }).nullable(),
  bundleSha256: z.string(),
  cacheKey: z.string(),
  branch: z.string().optional(),
  tip: z.string().optional(),
  commits: z.number().int(),
  comments: z.number().int(),
  errors: z.number().int(),
  problems: z.array(z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  mergedFrom: z.string().optional(),
});
export type ReviewRecord = z.infer<typeof ReviewRecordSchema>;

export function reviewDir(store: StorePaths, id: string): string {
  return join(store.reviews, id);
}

export async function writeRecord(store: StorePaths, record: ReviewRecord): Promise<void> {
  const next = { ...record, updatedAt: new Date().toISOString() };
  await writeFileAtomic(
    join(reviewDir(store, record.id), "state.json"),
    `${JSON.stringify(next, null, 2)}\n`,
  );
}

export async function writeReviewFile(
  store: StorePaths,
  id: string,
  name: string,
  data: string,
): Promise<void> {
  await writeFileAtomic(join(reviewDir(store, id), name), data);
}

export async function readReviewFile(
  store: StorePaths,
  id: string,
  name: string,
): Promise<string | undefined> {
  try {
    return await readFile(join(reviewDir(store, id), name), "utf8");
  } catch {
    return undefined;
  }
}

export async function readRecord(store: StorePaths, id: string): Promise<ReviewRecord | undefined> {
  const text = await readReviewFile(store, id, "state.json");
  if (text === undefined) return undefined;
  const parsed = ReviewRecordSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

export async function listRecords(store: StorePaths): Promise<ReviewRecord[]> {
  let ids: string[];
  try {
    ids = await readdir(store.reviews);
  } catch {
    return [];
  }
  const records = await Promise.all(ids.map((id) => readRecord(store, id)));
  return records
    .filter((record): record is ReviewRecord => record !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** A review named by its id or a unique prefix of it, as git abbreviates object names. */
export async function findRecord(store: StorePaths, idOrPrefix: string): Promise<ReviewRecord> {
  const records = await listRecords(store);
  const matches = records.filter((record) => record.id.startsWith(idOrPrefix));
  if (matches.length === 1) return matches[0] as ReviewRecord;
  const reason = matches.length === 0 ? "no review" : "more than one review";
  throw new ReviewRemoteError(`${reason} matches '${idOrPrefix}'`, {
    hints: ["list reviews with: git review-remote list"],
  });
}
