// The request of wire protocol v1 (design §6): what the worker is asked, about which bundle, within which
// limits, as a schema. Its id and its line in the envelope are request-line.ts's.

import { z } from "zod";
import { ProtocolError } from "./errors.js";
import { describeIssue, formatIssues } from "./issues.js";
import type { Limits } from "./limits.js";
import { MAX_FORBIDDEN_PATHS, MAX_QUESTION_BYTES, questionProblem } from "./request-check.js";
import { assembleRequest, computeRequestId, REQUEST_SCHEMA } from "./request-line.js";

export const Sha256HexSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: "must be 64 lowercase hex digits" });

/** SHA-1 or SHA-256 object id, as git prints it. */
const OidSchema = z
  .string()
  .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, { error: "must be a 40- or 64-digit lowercase hex object id" });

const integerMessage = (text: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "required" : text;

export const PositiveIntSchema = z
  .int({ error: integerMessage("must be a positive integer") })
  .min(1, { error: "must be a positive integer" });

const NonNegativeIntSchema = z
  .int({ error: integerMessage("must be a non-negative integer") })
  .min(0, { error: "must be a non-negative integer" });

const LimitsSchema = z.strictObject({
  timeoutSeconds: PositiveIntSchema,
  maxResultBytes: PositiveIntSchema,
  maxCommits: PositiveIntSchema,
  maxComments: PositiveIntSchema,
  maxPatchBytes: PositiveIntSchema,
}) satisfies z.ZodType<Limits>;

const BundleSchema = z.strictObject({
  sha256: Sha256HexSchema.describe("sha256 (hex) of the bundle bytes that follow the request line"),
  bytes: NonNegativeIntSchema.describe("exact length of the bundle in the envelope"),
  format: z.literal("tar+gzip"),
  files: NonNegativeIntSchema.describe("regular files and symlinks in the bundle"),
});

const SnapshotSchema = z.strictObject({
  commit: OidSchema.describe("the commit the proposals are based on"),
  kind: z.enum(["commit", "worktree"]),
});

const RangeSchema = z.strictObject({
  base: OidSchema,
  head: OidSchema,
  paths: z.array(z.string().min(1)).describe("changed paths inside the bundle"),
  patch: z
    .string()
    .describe('unified diff of those paths; "" beside non-empty paths: too large to send, paths only'),
});

const ActionSchema = z.enum(["comment", "propose"]);

const RequestShape = {
  schema: z.literal(REQUEST_SCHEMA),
  id: Sha256HexSchema.describe("sha256 (hex) of the RFC 8785 canonical JSON of the request without id"),
  bundle: BundleSchema,
  snapshot: SnapshotSchema,
  range: RangeSchema.nullable().describe("the change a focused review is about; null: the whole tree"),
  question: z
    .string()
    .superRefine((value, context) => {
      const problem = questionProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem, input: value });
    })
    .describe(`what the reviewer is asked: no NUL, at most ${MAX_QUESTION_BYTES} bytes of UTF-8`),
  actions: z
    .array(ActionSchema)
    .min(1)
    .refine((actions) => new Set(actions).size === actions.length, {
      error: "must not list an action twice",
    }),
  forbiddenPaths: z
    .array(z.string().min(1))
    .max(MAX_FORBIDDEN_PATHS, { error: `must not list more than ${MAX_FORBIDDEN_PATHS} items` })
    .describe("globs of paths the worker may not change"),
  limits: LimitsSchema,
};

export const RequestSchema = z.strictObject(RequestShape);
export type Request = z.infer<typeof RequestSchema>;

/**
 * A request as the store keeps it (request.json), read back to judge its answer (`import`, `verify`):
 * the shape, not the limits a request sent now must keep. An older version sent it under its own,
 * and a question or forbidden list it let through was sent all the same.
 */
export const StoredRequestSchema: z.ZodType<Request> = z.strictObject({
  ...RequestShape,
  question: z.string(),
  forbiddenPaths: z.array(z.string().min(1)),
});

/** What a caller supplies to createRequest. */
export type RequestFields = Omit<Request, "id" | "schema">;

const RequestBodySchema = RequestSchema.omit({ id: true });

/** A validated request with `schema` and `id` filled in; throws ProtocolError if a field is invalid. */
export function createRequest(fields: RequestFields): Request {
  const parsed = RequestBodySchema.safeParse(
    { ...fields, schema: REQUEST_SCHEMA },
    { error: describeIssue, reportInput: true },
  );
  if (!parsed.success) {
    throw new ProtocolError("internal: the request is invalid", {
      details: formatIssues(parsed.error.issues, "request"),
    });
  }
  return assembleRequest(parsed.data);
}

export function hasValidRequestId(request: Request): boolean {
  return computeRequestId(request) === request.id;
}
