// JSON Schema (draft 2020-12) of the v1 request, result and receipt statement, generated from the zod
// schemas for third-party worker authors. Rules zod refinements express are added by hand where it can.

import { z } from "zod";
import { RECEIPT_NAMESPACE, RESULT_PREDICATE_TYPE, StatementSchema } from "../receipt/statement.js";
import { RequestSchema } from "./request.js";
import { REQUEST_SCHEMA } from "./request-line.js";
import { RESULT_SCHEMA, ResultSchema } from "./result.js";

type JsonObject = Record<string, unknown>;

export function requestJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(RequestSchema) as JsonObject;
  const properties = schema.properties as Record<string, JsonObject>;
  const actions = properties.actions as JsonObject;
  actions.uniqueItems = true;
  return {
    $schema: schema.$schema,
    title: REQUEST_SCHEMA,
    description:
      "git-review-remote wire protocol v1: the request line of the envelope. id is the sha256 (hex) of the RFC 8785 (JCS) canonical JSON of the request without id.",
    ...withoutKey(schema, "$schema"),
  };
}

export function resultJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(ResultSchema) as JsonObject;
  const properties = schema.properties as Record<string, JsonObject>;
  const comment = (properties.comments as JsonObject).items as JsonObject;
  // Also enforced, but not expressible here: endLine >= line; and the request's limits.
  comment.dependentRequired = { line: ["path"], endLine: ["line"] };
  return {
    $schema: schema.$schema,
    title: RESULT_SCHEMA,
    description:
      "git-review-remote wire protocol v1: the result a worker writes on stdout. requestId and bundleSha256 must equal the request's; counts and patch sizes must be within request.limits; comment endLine must be >= line.",
    ...withoutKey(schema, "$schema"),
    if: { properties: { status: { const: "failed" } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword is named "then".
    then: { required: ["error"] },
    else: { not: { required: ["error"] } },
  };
}

export function statementJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(StatementSchema) as JsonObject;
  return {
    $schema: schema.$schema,
    title: RESULT_PREDICATE_TYPE,
    description: `git-review-remote receipt: the in-toto Statement v1 in a result's receipt.statement, signed with ssh-keygen -Y sign -n ${RECEIPT_NAMESPACE}. Subjects: "bundle.tar.gz" (sha256 of the bundle), "request" (sha256: the request id) and "snapshot" (gitCommit: the request's snapshot.commit). Unknown fields of the statement and its subjects are ignored, as in-toto's parsing rules say; the predicate is closed.`,
    ...withoutKey(schema, "$schema"),
  };
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = object;
  return rest;
}
