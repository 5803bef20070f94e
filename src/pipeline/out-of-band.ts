// A result fetched out of band (`import <file> --request <id>`) enters at the accept stage: the same
// validation layers and import as a result read from a worker's stdout, for a review that is still
// waiting for its answer, judged by the request as it was sent (its forbidden paths and limits), not
// by the policy file as it is now. A file it rejects (another review's answer, not a result at all,
// one that breaks a rule) leaves the review as it was, still waiting: the file is the user's pick,
// not the worker's answer, and the right one can still be imported.

import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { receiptPolicyFor } from "../config/receipt-policy.js";
import type { Settings } from "../config/settings.js";
import { InvalidResultError, ReviewRemoteError } from "../errors.js";
import type { ManifestFile } from "../export/archive.js";
import { findCommit } from "../git/commits.js";
import { messages } from "../messages.js";
import { shellWord } from "../os/shell.js";
import { type Request, StoredRequestSchema } from "../protocol/request.js";
import type { Repo } from "../repo.js";
import { readManifest } from "../store/bundles.js";
import { type StorePaths, storePaths, writeFileAtomic } from "../store/layout.js";
import { withStoreLock } from "../store/lock.js";
import {
  findRecord,
  listRecords,
  type ReviewRecord,
  ReviewState,
  readReviewFile,
  reviewDir,
} from "../store/records.js";
import { readRunning } from "../store/running.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { acceptResult } from "./accept.js";
import { chooseFilterMode } from "./filter.js";
import { focusOutcome, proposalScope, readChanges } from "./focus.js";
import type { OutOfBandReport } from "./outcome.js";

/**
 * A review takes an answer while it has none: still sent, or failed before its worker answered (not
 * reached, timed out). One whose worker answered (imported, empty, rejected by validation, or a
 * result saying it failed) keeps that answer: a second one would give a refused worker another try.
 */
async function isAwaitingAnswer(store: StorePaths, record: ReviewRecord): Promise<boolean> {
  if (record.state === ReviewState.sent) return true;
  if (record.state !== ReviewState.failed) return false;
  return (await readReviewFile(store, record.id, "result.json")) === undefined;
}

/** The stored request of a review and the manifest of the bundle it sent. */
async function readSent(store: StorePaths, id: string): Promise<{ request: Request; files: ManifestFile[] }> {
  try {
    const request = StoredRequestSchema.parse(
      JSON.parse((await readReviewFile(store, id, "request.json")) ?? "null"),
    );
    return { request, files: await readManifest(store, request.bundle.sha256) };
  } catch (error) {
    throw new ReviewRemoteError(messages.noStoredRequest(id), {
      cause: error,
      hints: [messages.hintReviewAgain],
    });
  }
}

/** The files of a review's directory (its record, its request, what an answer adds), by name. */
async function readReviewFiles(store: StorePaths, id: string): Promise<Map<string, Buffer>> {
  const dir = reviewDir(store, id);
  const entries = await readdir(dir, { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  return new Map(
    await Promise.all(files.map(async (file) => [file.name, await readFile(join(dir, file.name))] as const)),
  );
}

/**
 * Puts a review's directory back as `kept` held it: what the rejection recorded (its state, its
 * problems) and stored (the result, a receipt) goes. Files only: the rejection adds no directory.
 */
async function restoreReviewFiles(store: StorePaths, id: string, kept: ReadonlyMap<string, Buffer>) {
  const dir = reviewDir(store, id);
  const now = await readReviewFiles(store, id);
  for (const [name, bytes] of now) {
    const before = kept.get(name);
    if (before === undefined) await rm(join(dir, name), { force: true });
    else if (!before.equals(bytes)) await writeFileAtomic(join(dir, name), before);
  }
}

/**
 * The review of this store whose request `raw` answers, other than `id`: a result file mixed up
 * with another's. Undefined when it names none (not JSON, no request id, a request sent elsewhere).
 */
async function reviewAnswered(store: StorePaths, id: string, raw: Buffer): Promise<string | undefined> {
  let requestId: unknown;
  try {
    requestId = (JSON.parse(raw.toString("utf8")) as { requestId?: unknown } | null)?.requestId;
  } catch {
    return undefined;
  }
  if (typeof requestId !== "string") return undefined;
  const records = await listRecords(store);
  return records.find((record) => record.id !== id && record.requestId === requestId)?.id;
}

/**
 * A rejected file's error, with where the review stands (still waiting for its answer) and, when the
 * file answers another review of this store, the import that takes it there.
 */
async function withAwaitingHints(
  error: InvalidResultError,
  store: StorePaths,
  id: string,
  file: string,
  raw: Buffer,
): Promise<InvalidResultError> {
  const other = await reviewAnswered(store, id, raw).catch(() => undefined);
  const hints = [
    ...error.hints,
    messages.hintStillAwaiting(id),
    ...(other ? [messages.hintAnswersOther(other, escapeForDisplay(shellWord(file)))] : []),
  ];
  const rejected = new InvalidResultError(error.message, {
    details: error.details,
    hints,
    cause: error.cause,
  });
  rejected.remember = error.remember;
  return rejected;
}

/** `result.file`: the file `result.read` reads, as the user named it. */
export async function acceptOutOfBand(
  repo: Repo,
  settings: Settings,
  reviewId: string,
  result: { file: string; read: (maxBytes: number) => Promise<Buffer> },
): Promise<OutOfBandReport> {
  const store = storePaths(repo);
  return withStoreLock(store, `import ${reviewId}`, () =>
    acceptLocked(repo, store, settings, reviewId, result),
  );
}

async function acceptLocked(
  repo: Repo,
  store: StorePaths,
  settings: Settings,
  reviewId: string,
  result: { file: string; read: (maxBytes: number) => Promise<Buffer> },
): Promise<OutOfBandReport> {
  const record = await findRecord(store, reviewId);
  // Its own process may still get the answer: two imports of one review would race.
  const waiting = record.state === ReviewState.sent ? await readRunning(store, record.id) : undefined;
  if (waiting) throw new ReviewRemoteError(messages.stillWaiting(record.id, waiting.pid));
  const receiptPolicy = receiptPolicyFor(settings, record.worker.name, repo);
  if (!(await isAwaitingAnswer(store, record))) {
    throw new ReviewRemoteError(messages.nothingToImportInto(record.id, record.state), {
      hints: [messages.hintImportable],
    });
  }
  const { request, files } = await readSent(store, record.id);
  if ((await findCommit({ cwd: repo.cwd, env: repo.env }, request.snapshot.commit)) === undefined) {
    throw new ReviewRemoteError(messages.snapshotGone(request.snapshot.commit, record.id), {
      hints: [messages.hintSnapshotGone],
    });
  }
  // As the review was asked for; a record from before the mode was kept: the config's.
  const mode = record.filterMode ?? chooseFilterMode(undefined, settings.filterMode);
  const changes = record.range ? await readChanges(store, record.id) : undefined;
  const context = {
    repo,
    store,
    sent: { snapshot: record.snapshot, files },
    request,
    branchPrefix: settings.branchPrefix,
    receiptPolicies: new Map([[record.worker.name, receiptPolicy]]),
    signal: new AbortController().signal,
    scope: proposalScope(changes, mode),
    resultFile: result.file,
  };
  const raw = await result.read(request.limits.maxResultBytes);
  const kept = await readReviewFiles(store, record.id);
  let outcome: Awaited<ReturnType<typeof acceptResult>>;
  try {
    outcome = await acceptResult(context, record.worker, { ...record }, raw);
  } catch (error) {
    if (!(error instanceof InvalidResultError)) throw error;
    await restoreReviewFiles(store, record.id, kept);
    throw await withAwaitingHints(error, store, record.id, result.file, raw);
  }
  const focused = focusOutcome(outcome, changes, mode);
  const filter = record.range ? { mode, asked: record.filterMode !== undefined } : undefined;
  return {
    outcomes: [focused],
    failures: [],
    cached: new Set(),
    ...(filter ? { importFilter: filter } : {}),
  };
}
