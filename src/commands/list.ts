// `git review-remote list`: the reviews in the store.
import { readSettings } from "../config/settings.js";
import { listRefs } from "../git/refs.js";
import { chooseFilterMode, type FilterMode, filterComments } from "../pipeline/filter.js";
import { readChanges } from "../pipeline/focus.js";
import type { ReviewComment } from "../protocol/result.js";
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printRecords } from "../report/records.js";
import { printRecovered } from "../report/recovery.js";
import { type StorePaths, storePaths } from "../store/layout.js";
import { listRecords, type ReviewRecord, readReviewFile } from "../store/records.js";
import { recoverStore } from "../store/recover.js";

/**
 * A focused review's record written before the comments outside its change were counted (it counts
 * them all): counted now from its stored result and change, by the mode it was asked for (else the
 * configured one), as `show` filters them. Unchanged when the answer is no longer stored.
 */
async function withOutsideCounted(
  store: StorePaths,
  record: ReviewRecord,
  mode: FilterMode | undefined,
): Promise<ReviewRecord> {
  if (record.range === null || record.outsideComments !== undefined || record.comments === 0) return record;
  const [text, changes] = await Promise.all([
    readReviewFile(store, record.id, "result.json"),
    readChanges(store, record.id),
  ]);
  if (text === undefined || changes === undefined) return record;
  let comments: ReviewComment[];
  try {
    comments = (JSON.parse(text) as { comments?: ReviewComment[] }).comments ?? [];
  } catch {
    return record;
  }
  if (!Array.isArray(comments)) return record;
  const { hidden } = filterComments(
    comments,
    changes,
    chooseFilterMode(undefined, record.filterMode ?? mode),
  );
  const errors = hidden.filter((comment) => comment.severity === "error").length;
  return { ...record, outsideComments: { comments: hidden.length, errors } };
}

export async function runList(args: { json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  printRecovered(await recoverStore(store), output, repo.top);
  const { filterMode } = await readSettings(repo);
  const stored = await listRecords(store);
  const records = await Promise.all(stored.map((record) => withOutsideCounted(store, record, filterMode)));
  // A merged, dropped or pruned review's record keeps its branch name; the list shows what exists.
  const branches = new Set(await listRefs({ cwd: repo.cwd, env: repo.env }, "refs/heads/"));
  const exists = (branch: string) => branches.has(`refs/heads/${branch}`);
  printRecords(records, args.json, output, exists, repo.top !== undefined);
}
