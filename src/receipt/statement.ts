// The receipt's statement: an in-toto Statement v1 binding the bundle, the request and the snapshot to a
// digest of the result, so a signature over it says which worker produced which result from which input.
// https://github.com/in-toto/attestation/blob/main/spec/v1/statement.md

import { createHash } from "node:crypto";
import { z } from "zod";
import { describeIssue, formatIssues } from "../protocol/issues.js";
import { canonicalJson } from "../protocol/jcs.js";
import { type Request, Sha256HexSchema } from "../protocol/request.js";
import { MAX_NAME_LENGTH, MAX_STATEMENT_BYTES, type Result, WorkerInfoSchema } from "../protocol/result.js";
import { parseStrictJson, StrictJsonError } from "../protocol/strict-json.js";

const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
export const RESULT_PREDICATE_TYPE = "https://git-review-remote.dev/result/v1";
/** The `ssh-keygen -Y` namespace: a signature made for anything else (git commits, files) never verifies. */
export const RECEIPT_NAMESPACE = "git-review-remote@v1";

/** Subject names: what each digest in the statement identifies. */
export const SubjectName = { bundle: "bundle.tar.gz", request: "request", snapshot: "snapshot" } as const;

const MAX_REVIEWERS = 64;
const MAX_SUBJECTS = 16;

// in-toto's parsing rules: the statement and its resource descriptors ignore fields they do not know.
const ResourceDescriptorSchema = z.looseObject({
  name: z.string().max(MAX_NAME_LENGTH).optional(),
  digest: z.record(z.string().max(MAX_NAME_LENGTH), z.string().max(MAX_NAME_LENGTH)),
});

// The predicate is this project's, checked field by field, so it is closed: no claim a verifier skips.
const ResultPredicateSchema = z.strictObject({
  resultSha256: Sha256HexSchema.describe(
    "sha256 (hex) of the RFC 8785 canonical JSON of the result document without its receipt field",
  ),
  worker: WorkerInfoSchema.describe("the result's worker field"),
  reviewers: z
    .array(z.string().min(1).max(MAX_NAME_LENGTH))
    .max(MAX_REVIEWERS)
    .describe("reviewers that ran"),
  startedOn: z.iso.datetime().describe("when the worker started on the request (RFC 3339, UTC)"),
  finishedOn: z.iso.datetime().describe("when the result was complete (RFC 3339, UTC)"),
});

export const StatementSchema = z.looseObject({
  _type: z.literal(STATEMENT_TYPE),
  subject: z.array(ResourceDescriptorSchema).min(1).max(MAX_SUBJECTS),
  predicateType: z.literal(RESULT_PREDICATE_TYPE),
  predicate: ResultPredicateSchema,
});

export type Statement = z.infer<typeof StatementSchema>;

/** What a statement is about: the request, its bundle, and the commit the proposals are based on. */
export interface ReceiptSubjects {
  requestId: string;
  bundleSha256: string;
  snapshotCommit: string;
}

export interface StatementInput {
  subjects: ReceiptSubjects;
  /** The result document the statement vouches for (its `receipt` field, if any, is left out). */
  result: Result;
  reviewers: readonly string[];
  startedOn: Date;
  finishedOn: Date;
}

export function subjectsOf(request: Request): ReceiptSubjects {
  return {
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    snapshotCommit: request.snapshot.commit,
  };
}

/**
 * sha256 (hex) of the canonical JSON of a result document without `receipt`: the receipt sits inside
 * the document it signs, and canonical JSON makes the digest independent of how the bytes were laid out.
 */
export function resultDigest(document: unknown): string {
  const unsigned =
    typeof document === "object" && document !== null && !Array.isArray(document)
      ? Object.fromEntries(Object.entries(document).filter(([key]) => key !== "receipt"))
      : document;
  return createHash("sha256").update(canonicalJson(unsigned), "utf8").digest("hex");
}

export function buildStatement(input: StatementInput): Statement {
  const { subjects, result } = input;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      { name: SubjectName.bundle, digest: { sha256: subjects.bundleSha256 } },
      { name: SubjectName.request, digest: { sha256: subjects.requestId } },
      { name: SubjectName.snapshot, digest: { gitCommit: subjects.snapshotCommit } },
    ],
    predicateType: RESULT_PREDICATE_TYPE,
    predicate: {
      resultSha256: resultDigest(result),
      worker: { name: result.worker.name, version: result.worker.version, sandbox: result.worker.sandbox },
      reviewers: [...input.reviewers],
      startedOn: input.startedOn.toISOString(),
      finishedOn: input.finishedOn.toISOString(),
    },
  };
}

/** The bytes that are signed: canonical JSON, so the same statement always gives the same bytes. */
export function renderStatement(statement: Statement): string {
  return canonicalJson(statement);
}

export type StatementOutcome = { ok: true; statement: Statement } | { ok: false; problems: string[] };

/** Strict JSON (no duplicate keys a second parser could read differently), then the schema. */
export function parseStatement(text: string): StatementOutcome {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length > MAX_STATEMENT_BYTES) {
    return {
      ok: false,
      problems: [`statement: ${bytes.length} bytes, over the limit of ${MAX_STATEMENT_BYTES}`],
    };
  }
  let value: unknown;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    return { ok: false, problems: [`${error.jsonPath || "statement"}: not valid JSON: ${error.reason}`] };
  }
  const checked = StatementSchema.safeParse(value, { error: describeIssue, reportInput: true });
  if (!checked.success) return { ok: false, problems: formatIssues(checked.error.issues, "statement", 5) };
  return { ok: true, statement: checked.data };
}

/** The statement's subject of that name, when there is exactly one (two would be ambiguous). */
export function findSubject(statement: Statement, name: string): Record<string, string> | undefined {
  const named = statement.subject.filter((subject) => subject.name === name);
  return named.length === 1 ? named[0]?.digest : undefined;
}
