// One review on one worker: send → validate → import. Stages in order, each a call; no logic of its own.
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { debug } from "../debug.js";
import { InterruptedError, InvalidResultError, WorkerError } from "../errors.js";
import type { ExportResult } from "../export/bundle.js";
import { envelopeHeader } from "../protocol/envelope.js";
import { parseResult } from "../protocol/parse-result.js";
import type { Request } from "../protocol/request.js";
import type { Result, ReviewComment } from "../protocol/result.js";
import type { Repo } from "../repo.js";
import { matchSecretName } from "../secrets/names.js";
import { appendAudit } from "../store/audit.js";
import { writeCache } from "../store/cache.js";
import type { StorePaths } from "../store/layout.js";
import { writeNote } from "../store/notes.js";
import { type ReviewRecord, ReviewState, writeRecord, writeReviewFile } from "../store/records.js";
import { checkComments, sanitizeComment } from "../validate/comments.js";
import { applyInQuarantine, discardQuarantine, quarantineEnv } from "../validate/quarantine.js";
import { sanitizeLine, sanitizeText } from "../validate/sanitize.js";
import { importProposals } from "./import.js";
import { runTransport } from "./transport.js";
import type { Worker } from "./workers.js";

export interface ReviewContext {
  repo: Repo;
  store: StorePaths;
  exported: ExportResult;
  request: Request;
  branchPrefix: string;
  forbiddenPaths: readonly string[];
  signal: AbortSignal;
  onStderrLine(worker: Worker, line: string): void;
  onProgress?(worker: Worker, sentBytes: number): void;
}

export interface ReviewOutcome {
  record: ReviewRecord;
  comments: ReviewComment[];
  summary: string;
  sandbox?: string;
}

export function newReviewId(requestId: string, worker: Worker): string {
  return createHash("sha256")
    .update(
      `${requestId}\n${worker.name}\n${worker.command}\n${Date.now()}\n${randomBytes(8).toString("hex")}`,
    )
    .digest("hex")
    .slice(0, 12);
}

/** The stored result: validated, with every text sanitized (layer 5). */
function storedResult(result: Result): Result {
  return {
    ...result,
    summary: sanitizeText(result.summary),
    worker: {
      name: sanitizeLine(result.worker.name),
      version: sanitizeLine(result.worker.version),
      sandbox: sanitizeLine(result.worker.sandbox),
    },
    comments: result.comments.map(sanitizeComment),
    commits: result.commits.map((commit) => ({ message: sanitizeText(commit.message), patch: commit.patch })),
    ...(result.error !== undefined ? { error: sanitizeText(result.error) } : {}),
  };
}

async function send(context: ReviewContext, worker: Worker, record: ReviewRecord): Promise<Buffer> {
  const { exported, request } = context;
  await appendAudit(context.store, {
    time: new Date().toISOString(),
    worker: worker.name,
    command: worker.command,
    requestId: request.id,
    reviewId: record.id,
    bundleSha256: request.bundle.sha256,
    files: request.bundle.files,
    bytes: request.bundle.bytes,
  });
  return runTransport({
    command: worker.command,
    workerName: worker.name,
    cwd: context.repo.top ?? context.repo.cwd,
    env: withoutRepoVariables(context.repo.env),
    header: envelopeHeader(request),
    bundlePath: exported.path as string,
    bundleBytes: request.bundle.bytes,
    maxResultBytes: request.limits.maxResultBytes,
    timeoutSeconds: request.limits.timeoutSeconds,
    onStderrLine: (line) => context.onStderrLine(worker, line),
    onProgress: (sent) => context.onProgress?.(worker, sent),
    signal: context.signal,
  });
}

/** The worker command gets the user's environment, not the repository we resolved. */
function withoutRepoVariables(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...rest } = env;
  return rest;
}

async function finish(context: ReviewContext, record: ReviewRecord, changes: Partial<ReviewRecord>) {
  Object.assign(record, changes);
  await writeRecord(context.store, record);
}

export async function reviewOnWorker(
  context: ReviewContext,
  worker: Worker,
  cacheKey: string | undefined,
): Promise<ReviewOutcome> {
  const { exported, request, store } = context;
  const id = newReviewId(request.id, worker);
  const now = new Date().toISOString();
  const record: ReviewRecord = {
    id,
    requestId: request.id,
    state: ReviewState.sent,
    worker,
    snapshot: exported.snapshot,
    range: request.range ? { base: request.range.base, head: request.range.head } : null,
    bundleSha256: request.bundle.sha256,
    cacheKey: cacheKey ?? "",
    commits: 0,
    comments: 0,
    errors: 0,
    createdAt: now,
    updatedAt: now,
  };
  await writeReviewFile(store, id, "request.json", `${JSON.stringify(request, null, 2)}\n`);
  await writeRecord(store, record);
  try {
    const raw = await send(context, worker, record);
    if (context.signal.aborted) throw new InterruptedError("interrupted; nothing was imported");
    const outcome = await acceptResult(context, worker, record, raw);
    if (cacheKey) await writeCache(store, cacheKey, id);
    return outcome;
  } catch (error) {
    // Every way out leaves the record saying what happened, never "sent" forever.
    if (record.state === ReviewState.sent) {
      const state = error instanceof InvalidResultError ? ReviewState.rejected : ReviewState.failed;
      await finish(context, record, { state, problems: [(error as Error).message] }).catch(() => undefined);
    }
    throw error;
  }
}

/** Validate a worker's raw stdout layer by layer and import it; the first failing layer rejects all. */
export async function acceptResult(
  context: ReviewContext,
  worker: Worker,
  record: ReviewRecord,
  raw: Buffer,
): Promise<ReviewOutcome> {
  const { repo, exported, request, store } = context;
  debug(`validate: ${raw.length} bytes from worker '${worker.name}'`);
  // Layer 1: size, strict JSON, schema, ids, limits; then the comments against what was sent.
  const parsed = parseResult(raw, request);
  const problems = parsed.ok ? checkComments(parsed.result.comments, exported.files) : parsed.problems;
  if (!parsed.ok || problems.length > 0) {
    await finish(context, record, { state: ReviewState.rejected, problems });
    throw new InvalidResultError(`rejected the result of worker '${worker.name}'; nothing was imported`, {
      details: problems.map(sanitizeLine),
    });
  }
  const result = storedResult(parsed.result);
  await writeReviewFile(store, record.id, "result.json", `${JSON.stringify(result, null, 2)}\n`);
  const counts = {
    comments: result.comments.length,
    errors: result.comments.filter((comment) => comment.severity === "error").length,
  };
  if (result.status === "failed") {
    await finish(context, record, {
      state: ReviewState.failed,
      ...counts,
      problems: [result.error ?? "failed"],
    });
    throw new WorkerError(
      `worker '${worker.name}' reported a failure: ${sanitizeLine(result.error ?? "no reason given")}`,
    );
  }
  const outcome = {
    record,
    comments: result.comments,
    summary: result.summary,
    sandbox: result.worker.sandbox,
  };
  if (result.commits.length === 0) {
    await finish(context, record, { state: ReviewState.empty, ...counts });
  } else {
    await importResult(context, worker, record, result, counts);
  }
  debug(`import: done (${record.state}${record.branch ? `, ${record.branch}` : ""})`);
  await writeNote(repo, exported.snapshot.commit, record, result.comments).catch(() => undefined);
  return outcome;
}

async function importResult(
  context: ReviewContext,
  worker: Worker,
  record: ReviewRecord,
  result: Result,
  counts: { comments: number; errors: number },
): Promise<void> {
  const { repo, exported, request } = context;
  const objectsDir = join(repo.commonDir, "objects");
  const snapshotObjects = exported.scratch?.objects.objects;
  // Layers 2-4: gate each patch, apply commit after commit in quarantine, check what git changed.
  const checked = await applyInQuarantine({
    repoEnv: repo.env,
    objectsDir: snapshotObjects ?? objectsDir,
    cwd: repo.top ?? repo.cwd,
    base: exported.snapshot.commit,
    manifest: new Set(exported.files.map((file) => file.path)),
    commits: result.commits,
    forbiddenPaths: context.forbiddenPaths,
    isSecretName: (path) => matchSecretName(path)?.id,
    maxPatchBytes: request.limits.maxPatchBytes,
  });
  if (!checked.ok) {
    await finish(context, record, { state: ReviewState.rejected, ...counts, problems: checked.problems });
    throw new InvalidResultError(`rejected the proposals of worker '${worker.name}'; nothing was imported`, {
      details: checked.problems.map(sanitizeLine),
    });
  }
  try {
    if (context.signal.aborted) throw new InterruptedError("interrupted; nothing was imported");
    const branch = `${context.branchPrefix}${record.id}`;
    const extraRefs = new Map<string, string>();
    if (exported.snapshot.kind === "worktree")
      extraRefs.set(`refs/review-remote/${record.id}/snapshot`, exported.snapshot.commit);
    const tip = await importProposals({
      repo,
      quarantineEnv: quarantineEnv(checked.quarantineDir, snapshotObjects ?? objectsDir, repo.env),
      objectDirs: [...(snapshotObjects ? [snapshotObjects] : []), join(checked.quarantineDir, "objects")],
      base: exported.snapshot.commit,
      trees: checked.trees,
      messages: result.commits.map((commit) => commit.message),
      trailers: { request: request.id, bundle: request.bundle.sha256, worker: worker.name },
      branch,
      extraRefs,
    });
    await finish(context, record, {
      state: ReviewState.imported,
      branch,
      tip,
      commits: checked.trees.length,
      ...counts,
    });
  } finally {
    await discardQuarantine(checked.quarantineDir);
  }
}
