// The accept stage: a worker's raw stdout through the validation layers (design §9), layer by layer;
// the first failing layer rejects the whole result and nothing reaches the repository. Comments that
// break a rule and proposals over a limit are dropped and counted instead (the record keeps what and
// why). What passes is stored sanitized and handed to the import.
import { debug } from "../debug.js";
import { InvalidResultError, WorkerError } from "../errors.js";
import { messages } from "../messages.js";
import { requestForbiddenPaths } from "../paths/forbidden.js";
import { overLimitNote } from "../protocol/limits.js";
import { type Dropped, parseResult } from "../protocol/parse-result.js";
import type { Result, ReviewComment } from "../protocol/result.js";
import { parseStrictJson, StrictJsonError } from "../protocol/strict-json.js";
import { summaryProse } from "../protocol/summary.js";
import { matchSecretName } from "../secrets/names.js";
import { writeNote } from "../store/notes.js";
import { type ReviewRecord, ReviewState, writeReviewFile } from "../store/records.js";
import { commentChecker } from "../validate/comments.js";
import { applyInQuarantine, discardQuarantine, type Quarantined } from "../validate/quarantine.js";
import { sanitizeLine } from "../validate/sanitize.js";
import { storedResult } from "../validate/stored-result.js";
import { workerMessages } from "../worker/messages.js";
import { type AcceptContext, baseObjects, updateRecord } from "./context.js";
import { filterComments } from "./filter.js";
import { importResult, proposalDate } from "./import.js";
import type { ReviewOutcome } from "./outcome.js";
import { checkResultReceipt } from "./receipt.js";
import { scopeProposals } from "./scope.js";
import type { Worker } from "./workers.js";

/**
 * Layer 1: size, strict JSON, schema, ids; each comment, also against what was sent; limits. A bad
 * envelope rejects the result; what is dropped is recorded.
 */
async function parseAndCheck(context: AcceptContext, worker: Worker, record: ReviewRecord, raw: Buffer) {
  const parsed = parseResult(raw, context.request, { checkComment: commentChecker(context.sent.files) });
  if (!parsed.ok) {
    await updateRecord(context.store, record, { state: ReviewState.rejected, problems: parsed.problems });
    // Nothing at all on stdout is a command that never ran the worker (`true`, a wrapper script that
    // forgot to exec it), more often than a worker that misbehaved.
    const silent = raw.toString("utf8").trim() === "";
    const stray = silent ? undefined : strayOutputLine(raw);
    // An imported file is the user's to fix, not the worker's command.
    const file = context.resultFile === undefined ? undefined : sanitizeLine(context.resultFile);
    const hints = silent
      ? [
          file === undefined
            ? messages.hintWorkerPrintedNothing(worker.name)
            : messages.hintResultFileEmpty(file),
        ]
      : stray
        ? [
            file === undefined
              ? messages.hintStrayStdout(sanitizeLine(stray.text), stray.line)
              : messages.hintStrayInFile(file, sanitizeLine(stray.text), stray.line),
          ]
        : [];
    const error = new InvalidResultError(messages.resultRejected(worker.name), {
      details: parsed.problems.map(sanitizeLine),
      hints,
    });
    error.remember = !stray;
    throw error;
  }
  const dropped = [...parsed.dropped, ...droppedByWorker(parsed.result)].map((part) => ({
    ...part,
    problems: part.problems.map(sanitizeLine),
  }));
  if (dropped.length > 0) record.dropped = dropped;
  return { received: parsed.document, result: storedResult(parsed.result) };
}

/**
 * A result whose proposals went over a limit and that has no comment either is refused whole, with
 * what to do about it: nothing would be left to import. Its receipt has been checked and kept by
 * then, so `verify` can still say whose result it was.
 */
async function refuseOverLimit(context: AcceptContext, worker: Worker, record: ReviewRecord, result: Result) {
  const overLimit = record.dropped?.find((part) => part.part === "proposals" && part.count !== undefined);
  if (!overLimit?.limit || result.comments.length > 0) return;
  record.dropped = undefined;
  await updateRecord(context.store, record, { state: ReviewState.rejected, problems: overLimit.problems });
  throw new InvalidResultError(messages.proposalsRejected(worker.name), {
    details: overLimit.problems,
    hints: [messages.hintNarrowReview, messages.hintRaiseLimit(overLimit.limit)],
  });
}

/** Over this many characters, a stray line is cut in the hint that quotes it. */
const STRAY_LINE_CHARS = 80;

/**
 * The first line of stdout outside the result's JSON document, when the document itself is whole:
 * a line before it (a motd, an `echo` in the worker host's ~/.bashrc, which a login over ssh runs)
 * or after it (a wrapper's `echo done`). Undefined when the JSON is broken inside, or is fine.
 */
function strayOutputLine(raw: Buffer): { text: string; line: number } | undefined {
  try {
    parseStrictJson(raw);
    return undefined;
  } catch (error) {
    if (!(error instanceof StrictJsonError) || error.line < 1) return undefined;
    const lines = raw.toString("utf8").split("\n");
    const at = lines[error.line - 1] ?? "";
    // Text before the document: the parser stops at the first character that is not blank.
    // Text after it: "unexpected data after the JSON value", where that data starts.
    const before =
      lines.slice(0, error.line - 1).every((line) => line.trim() === "") &&
      at.slice(0, error.column - 1).trim() === "";
    const after = error.reason.startsWith("unexpected data after");
    if (!before && !after) return undefined;
    const text = at.slice(after ? error.column - 1 : 0).trim();
    return {
      text: text.length > STRAY_LINE_CHARS ? `${text.slice(0, STRAY_LINE_CHARS)}...` : text,
      line: error.line,
    };
  }
}

/**
 * Proposals the worker itself left out for a limit, as its comment about the whole change says. The
 * comment is imported and shown with the others, so the warning does not repeat its text.
 */
function droppedByWorker(result: Result): Dropped[] {
  if (result.commits.length > 0) return [];
  return result.comments.flatMap((comment) => {
    const limit = overLimitNote(comment);
    return limit ? [{ part: "proposals" as const, problems: [], limit }] : [];
  });
}

/**
 * The scope stage: a focused review's proposals kept to the files its change touched (the same
 * commits when nothing is outside it, or under nofilter). The record says what was outside.
 */
function scopeCommits(context: AcceptContext, record: ReviewRecord, commits: Result["commits"]) {
  const { scope } = context;
  if (!scope) return commits;
  const scoped = scopeProposals(commits, {
    changed: scope.paths,
    sent: new Set(context.sent.files.map((file) => file.path)),
    gate: { maxPatchBytes: context.request.limits.maxPatchBytes },
  });
  record.outsideChange = { ...scoped.leftOut, kept: scope.keepAll };
  return scope.keepAll || scoped.leftOut.fixes === 0 ? commits : scoped.commits;
}

/**
 * Layers 2-4: gate each patch, apply commit after commit in quarantine, check what git changed. A
 * rejection is recorded once `stored` (the result's file) is.
 */
async function checkProposals(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  commits: Result["commits"],
  counts: { comments: number; errors: number },
  stored: Promise<void>,
): Promise<Quarantined> {
  const { repo, sent, request } = context;
  const checked = await applyInQuarantine({
    repoEnv: repo.env,
    objectsDir: baseObjects(context),
    cwd: repo.top ?? repo.cwd,
    base: sent.snapshot.commit,
    manifest: new Set(sent.files.map((file) => file.path)),
    commits,
    forbiddenPaths: requestForbiddenPaths(request.forbiddenPaths),
    isSecretName: (path) => matchSecretName(path)?.id,
    maxPatchBytes: request.limits.maxPatchBytes,
  });
  if (checked.ok) return checked;
  await stored;
  await updateRecord(context.store, record, {
    state: ReviewState.rejected,
    ...counts,
    problems: checked.problems,
  });
  throw new InvalidResultError(messages.proposalsRejected(worker.name), {
    details: checked.problems.map(sanitizeLine),
  });
}

/**
 * Every layer judges the proposals as the worker sent them: one that breaks a rule anywhere, in the
 * change or not, rejects the result (design §9). Then what is in the change is applied and judged
 * again, as it will be imported; undefined when none of it is.
 */
async function checkInScope(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  result: Result,
  counts: { comments: number; errors: number },
  stored: Promise<void>,
): Promise<{ commits: Result["commits"]; checked: Quarantined } | undefined> {
  const whole = await checkProposals(context, worker, record, result.commits, counts, stored);
  const commits = scopeCommits(context, record, result.commits);
  if (commits === result.commits) return { commits, checked: whole };
  await discardQuarantine(whole.quarantineDir);
  if (commits.length === 0) return undefined;
  return { commits, checked: await checkProposals(context, worker, record, commits, counts, stored) };
}

const errorsIn = (comments: readonly ReviewComment[]) =>
  comments.filter((comment) => comment.severity === "error").length;

/**
 * The record's counts: every comment, and of a focused review those its mode hides, counted apart
 * (none too: a focused record without the count is one written before it was kept).
 */
function countComments(comments: readonly ReviewComment[], scope: AcceptContext["scope"]) {
  const hidden = scope ? filterComments(comments, scope.changes, scope.mode).hidden : undefined;
  return {
    comments: comments.length,
    errors: errorsIn(comments),
    outsideComments: hidden && { comments: hidden.length, errors: errorsIn(hidden) },
  };
}

/** Validate a worker's raw stdout and import it; the first failing layer rejects all of it. */
export async function acceptResult(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  raw: Buffer,
): Promise<ReviewOutcome> {
  const { store } = context;
  debug(`validate: ${raw.length} bytes from worker '${worker.name}'`);
  const { received, result } = await parseAndCheck(context, worker, record, raw);
  await checkResultReceipt(context, worker, record, { receipt: result.receipt, document: received, raw });
  await refuseOverLimit(context, worker, record, result);
  // The result is made durable (an fsync) while its proposals are checked in quarantine, which
  // writes nothing of the repository's; every change of the record's state waits for it, so no
  // state names a result not yet on disk.
  const stored = writeReviewFile(store, record.id, "result.json", `${JSON.stringify(result, null, 2)}\n`);
  // Its failure is handled where it is awaited, after the quarantine's own work.
  stored.catch(() => undefined);
  try {
    return await judgeAndImport(context, worker, record, { received: result, stored });
  } finally {
    await stored.catch(() => undefined);
  }
}

/** The result, stored or being stored: failed, rejected, empty or imported. */
async function judgeAndImport(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  { received: result, stored }: { received: Result; stored: Promise<void> },
): Promise<ReviewOutcome> {
  const { repo, sent, store } = context;
  const counts = countComments(result.comments, context.scope);
  if (result.status === "failed") {
    await stored;
    const said = sanitizeLine(result.error ?? "no reason given");
    // Our worker names the request's time limit when that is what ran out (a limit of its own,
    // --max-seconds, no setting here can raise): said here as the setting the user set, and so
    // recorded, for list and show to say it alike (result.json keeps the worker's words).
    const reason = context.timeoutSetting
      ? said.replace(/\(limits\.timeoutSeconds( is \d+ s\))/, `(${context.timeoutSetting}$1`)
      : said;
    await updateRecord(store, record, {
      state: ReviewState.failed,
      ...counts,
      problems: [result.error === undefined ? "failed" : reason],
    });
    const hints: string[] = said.includes("limits.timeoutSeconds") ? [messages.hintMoreTime] : [];
    // Our worker's words for a SARIF or rdjson report it could not read whole: most often a linter
    // run over a whole large tree, where the change's files alone were wanted.
    if (said.includes(workerMessages.tooLargeToParseReason)) hints.push(messages.hintReportTooLarge);
    throw new WorkerError(messages.workerReportedFailure(worker.name, reason), { hints });
  }
  // The proposals' date, one git of its own, is read while they are checked in quarantine (a
  // rejection leaves it unread; its own failure is the import's, where it is awaited).
  const date = result.commits.length > 0 ? proposalDate(repo, sent.snapshot) : undefined;
  date?.catch(() => undefined);
  const scoped = date ? await checkInScope(context, worker, record, result, counts, stored) : undefined;
  await stored.catch(async (error: unknown) => {
    if (scoped) await discardQuarantine(scoped.checked.quarantineDir);
    throw error;
  });
  if (scoped === undefined || date === undefined) {
    await updateRecord(store, record, { state: ReviewState.empty, ...counts });
  } else {
    await importResult(context, worker, record, scoped.commits, scoped.checked, counts, date);
  }
  debug(`import: done (${record.state}${record.branch ? `, ${record.branch}` : ""})`);
  await writeNote(repo, sent.snapshot.commit, record, result.comments).catch(() => undefined);
  return { record, comments: result.comments, summary: summaryProse(result), sandbox: result.worker.sandbox };
}
