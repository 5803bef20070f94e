// The accept stage: a worker's raw stdout through the validation layers (design §9), layer by layer;
// the first failing layer rejects the whole result and nothing reaches the repository. What passes
// is stored sanitized and handed to the import.
import { debug } from "../debug.js";
import { InvalidResultError, WorkerError } from "../errors.js";
import { messages } from "../messages.js";
import { requestForbiddenPaths } from "../paths/forbidden.js";
import { parseResult } from "../protocol/parse-result.js";
import type { Result } from "../protocol/result.js";
import { matchSecretName } from "../secrets/names.js";
import { writeNote } from "../store/notes.js";
import { type ReviewRecord, ReviewState, writeReviewFile } from "../store/records.js";
import { checkComments, sanitizeComment } from "../validate/comments.js";
import { applyInQuarantine, type Quarantined } from "../validate/quarantine.js";
import { sanitizeLine, sanitizeText } from "../validate/sanitize.js";
import { type AcceptContext, baseObjects, updateRecord } from "./context.js";
import { importResult } from "./import.js";
import type { ReviewOutcome } from "./outcome.js";
import type { Worker } from "./workers.js";

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

/** Layer 1: size, strict JSON, schema, ids, limits; then the comments against what was sent. */
async function parseAndCheck(context: AcceptContext, worker: Worker, record: ReviewRecord, raw: Buffer) {
  const parsed = parseResult(raw, context.request);
  const problems = parsed.ok ? checkComments(parsed.result.comments, context.sent.files) : parsed.problems;
  if (!parsed.ok || problems.length > 0) {
    await updateRecord(context.store, record, { state: ReviewState.rejected, problems });
    throw new InvalidResultError(messages.resultRejected(worker.name), {
      details: problems.map(sanitizeLine),
    });
  }
  return storedResult(parsed.result);
}

/** Layers 2-4: gate each patch, apply commit after commit in quarantine, check what git changed. */
async function checkProposals(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  result: Result,
  counts: { comments: number; errors: number },
): Promise<Quarantined> {
  const { repo, sent, request } = context;
  const checked = await applyInQuarantine({
    repoEnv: repo.env,
    objectsDir: baseObjects(context),
    cwd: repo.top ?? repo.cwd,
    base: sent.snapshot.commit,
    manifest: new Set(sent.files.map((file) => file.path)),
    commits: result.commits,
    forbiddenPaths: requestForbiddenPaths(request.forbiddenPaths),
    isSecretName: (path) => matchSecretName(path)?.id,
    maxPatchBytes: request.limits.maxPatchBytes,
  });
  if (checked.ok) return checked;
  await updateRecord(context.store, record, {
    state: ReviewState.rejected,
    ...counts,
    problems: checked.problems,
  });
  throw new InvalidResultError(messages.proposalsRejected(worker.name), {
    details: checked.problems.map(sanitizeLine),
  });
}

/** Validate a worker's raw stdout and import it; the first failing layer rejects all of it. */
export async function acceptResult(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  raw: Buffer,
): Promise<ReviewOutcome> {
  const { repo, sent, store } = context;
  debug(`validate: ${raw.length} bytes from worker '${worker.name}'`);
  const result = await parseAndCheck(context, worker, record, raw);
  await writeReviewFile(store, record.id, "result.json", `${JSON.stringify(result, null, 2)}\n`);
  const counts = {
    comments: result.comments.length,
    errors: result.comments.filter((comment) => comment.severity === "error").length,
  };
  if (result.status === "failed") {
    await updateRecord(store, record, {
      state: ReviewState.failed,
      ...counts,
      problems: [result.error ?? "failed"],
    });
    throw new WorkerError(
      messages.workerReportedFailure(worker.name, sanitizeLine(result.error ?? "no reason given")),
    );
  }
  if (result.commits.length === 0) {
    await updateRecord(store, record, { state: ReviewState.empty, ...counts });
  } else {
    const checked = await checkProposals(context, worker, record, result, counts);
    await importResult(context, worker, record, result, checked, counts);
  }
  debug(`import: done (${record.state}${record.branch ? `, ${record.branch}` : ""})`);
  await writeNote(repo, sent.snapshot.commit, record, result.comments).catch(() => undefined);
  return { record, comments: result.comments, summary: result.summary, sandbox: result.worker.sandbox };
}
