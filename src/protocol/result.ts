// The result of wire protocol v1 (design §6): untrusted worker output. The schema bounds every string;
// counts and total sizes depend on the request's limits and are checked by checkResultLimits.

import { z } from "zod";
import { plural } from "../report/plural.js";
import type { Limits } from "./limits.js";
import { PositiveIntSchema, Sha256HexSchema } from "./request.js";

export const RESULT_SCHEMA = "git-review-remote/result@1";

/** Characters (code points, as zod counts them) allowed in one free-text field: a summary, message or error. */
export const MAX_TEXT_LENGTH = 65_536;
const MAX_PATH_LENGTH = 4096;
export const MAX_NAME_LENGTH = 256;

const text = z.string().max(MAX_TEXT_LENGTH);
const name = z.string().min(1).max(MAX_NAME_LENGTH);

const SeveritySchema = z.enum(["error", "warning", "info"]);

export const ReviewCommentSchema = z
  .strictObject({
    path: z.string().min(1).max(MAX_PATH_LENGTH).optional().describe("absent: about the whole change"),
    line: PositiveIntSchema.optional().describe("1-based; needs path"),
    endLine: PositiveIntSchema.optional().describe("last line of the span, >= line; needs line"),
    severity: SeveritySchema,
    message: text.min(1),
    rule: name.optional(),
  })
  .superRefine((comment, ctx) => {
    if (comment.line !== undefined && comment.path === undefined) {
      ctx.addIssue({ code: "custom", path: ["line"], message: "needs a path" });
    }
    if (comment.endLine !== undefined && comment.line === undefined) {
      ctx.addIssue({ code: "custom", path: ["endLine"], message: "needs a line" });
    }
    if (comment.endLine !== undefined && comment.line !== undefined && comment.endLine < comment.line) {
      ctx.addIssue({ code: "custom", path: ["endLine"], message: `must be >= line (${comment.line})` });
    }
  });

const ProposedCommitSchema = z.strictObject({
  message: text.min(1),
  patch: z.string().min(1).describe("git diff output against the snapshot plus the commits before it"),
});

/** Bytes of a receipt's statement and of its armored signature (a few KiB each in practice). */
export const MAX_STATEMENT_BYTES = 65_536;
export const MAX_SIGNATURE_BYTES = 16_384;

/** What `ssh-keygen -Y sign` writes: the armor lines around base64 wrapped at 70 columns. */
export const ARMORED_SIGNATURE =
  /^-----BEGIN SSH SIGNATURE-----\n(?:[A-Za-z0-9+/=]{1,76}\n)+-----END SSH SIGNATURE-----\n?$/;

const ReceiptSchema = z.strictObject({
  statement: z
    .string()
    .min(1)
    .max(MAX_STATEMENT_BYTES)
    .describe("the exact bytes signed: an in-toto Statement v1 (schemas/statement.schema.json)"),
  signature: z
    .string()
    .max(MAX_SIGNATURE_BYTES)
    .regex(ARMORED_SIGNATURE, { error: "must be an armored SSH signature (ssh-keygen -Y sign)" })
    .describe("ssh-keygen -Y sign -n git-review-remote@v1 over the statement's UTF-8 bytes"),
});

export const WorkerInfoSchema = z.strictObject({
  name,
  version: name,
  sandbox: name.describe('what isolated the reviewer, e.g. "bwrap" or "none"'),
});

/** The result with its comments as given: `ResultSchema`, or (`z.unknown()`) one bad comment drops alone. */
function resultObject<Comment extends z.ZodType>(comment: Comment) {
  return z
    .strictObject({
      schema: z.literal(RESULT_SCHEMA),
      requestId: Sha256HexSchema.describe("the request's id"),
      bundleSha256: Sha256HexSchema.describe("the request's bundle.sha256"),
      status: z.enum(["ok", "failed"]),
      summary: text,
      worker: WorkerInfoSchema,
      comments: z.array(comment),
      commits: z.array(ProposedCommitSchema),
      error: text.min(1).optional().describe('required when status is "failed", absent otherwise'),
      receipt: ReceiptSchema.optional().describe("the worker's signed statement about this result"),
    })
    .superRefine((result, ctx) => {
      if (result.status === "failed" && result.error === undefined) {
        ctx.addIssue({ code: "custom", path: ["error"], message: 'required when status is "failed"' });
      }
      if (result.status === "ok" && result.error !== undefined) {
        ctx.addIssue({ code: "custom", path: ["error"], message: 'only allowed when status is "failed"' });
      }
    });
}

export const ResultSchema = resultObject(ReviewCommentSchema);

/**
 * What the accept stage checks first: everything but the comments, which are checked one by one so
 * that an invalid comment is dropped alone and the rest of the result still counts (design §9).
 */
export const ResultEnvelopeSchema = resultObject(z.unknown());

/**
 * A result as the store keeps it (result.json), read back by `show`: the shape, without the bounds a
 * worker's answer must keep now. The accept stage stored it once it passed the bounds of its version.
 */
export const StoredResultSchema: z.ZodType<Result> = z.strictObject({
  schema: z.literal(RESULT_SCHEMA),
  requestId: z.string(),
  bundleSha256: z.string(),
  status: z.enum(["ok", "failed"]),
  summary: z.string(),
  worker: z.strictObject({ name: z.string(), version: z.string(), sandbox: z.string() }),
  comments: z.array(
    z.strictObject({
      path: z.string().optional(),
      line: z.int().optional(),
      endLine: z.int().optional(),
      severity: SeveritySchema,
      message: z.string(),
      rule: z.string().optional(),
    }),
  ),
  commits: z.array(z.strictObject({ message: z.string(), patch: z.string() })),
  error: z.string().optional(),
  receipt: z.strictObject({ statement: z.string(), signature: z.string() }).optional(),
});

export type Result = z.infer<typeof ResultSchema>;
export type ReviewComment = z.infer<typeof ReviewCommentSchema>;
export type Severity = z.infer<typeof SeveritySchema>;
export type ProposedCommit = z.infer<typeof ProposedCommitSchema>;
export type Receipt = z.infer<typeof ReceiptSchema>;

/**
 * Proposals over the request's limits (too many commits, or patches too large together): all of them
 * are left out, since a later commit builds on the earlier ones; undefined when within.
 */
export function proposalsOverLimit(
  commits: readonly ProposedCommit[],
  limits: Limits,
): { limit: "maxCommits" | "maxPatchBytes"; problem: string } | undefined {
  if (commits.length > limits.maxCommits) {
    return {
      limit: "maxCommits",
      problem: `commits: ${plural(commits.length, "commit")}, over the limit of ${limits.maxCommits}`,
    };
  }
  const patchBytes = commits.reduce((sum, commit) => sum + Buffer.byteLength(commit.patch, "utf8"), 0);
  if (patchBytes > limits.maxPatchBytes) {
    return {
      limit: "maxPatchBytes",
      problem: `commits: patches total ${patchBytes} bytes, over the limit of ${limits.maxPatchBytes}`,
    };
  }
  return undefined;
}
