// The request as a client makes and sends it (design §6): its schema name, its id (the sha256 of the
// RFC 8785 canonical JSON of everything else, so it names the content) and the envelope's request
// line. Free of the schemas (request.ts): a local review sends its request before they have loaded.

import { createHash } from "node:crypto";
import { ProtocolError } from "./errors.js";
import { canonicalJson } from "./jcs.js";

export const REQUEST_SCHEMA = "git-review-remote/request@1";

/** What a request holds besides `schema` and `id`, in design §6's order. */
interface RequestFieldsShape {
  bundle: unknown;
  snapshot: unknown;
  range: unknown;
  question: unknown;
  actions: unknown;
  forbiddenPaths: unknown;
  limits: unknown;
}

/** sha256 hex of the canonical JSON of the request without `id` (an `id` present is ignored). */
export function computeRequestId(body: object & { id?: string }): string {
  const { id: _ignored, ...rest } = body;
  return createHash("sha256").update(canonicalJson(rest), "utf8").digest("hex");
}

/**
 * `fields` with `schema` and `id` filled in, keys in design §6's order (for people reading a stored
 * request; the id does not depend on it). Not checked against the schema: request.ts's
 * createRequest and request-check.ts's checkRequestLine are.
 */
export function assembleRequest<F extends RequestFieldsShape>(
  fields: F,
): Pick<F, keyof RequestFieldsShape> & { schema: typeof REQUEST_SCHEMA; id: string } {
  const { bundle, snapshot, range, question, actions, forbiddenPaths, limits } = fields;
  const body = { schema: REQUEST_SCHEMA, bundle, snapshot, range, question, actions, forbiddenPaths, limits };
  const id = computeRequestId(body);
  return { schema: REQUEST_SCHEMA, id, bundle, snapshot, range, question, actions, forbiddenPaths, limits };
}

/** Throws ProtocolError unless `request.id` is the hash of the request's content. */
export function verifyRequestId(request: object & { id: string }): void {
  const expected = computeRequestId(request);
  if (expected !== request.id) {
    throw new ProtocolError(`request id ${request.id} does not match its content (expected ${expected})`);
  }
}

/**
 * Writer side of the envelope: the request as one line of canonical JSON plus "\n"; the bundle bytes
 * follow it. Throws ProtocolError if its id does not match its content.
 */
export function envelopeHeader(request: object & { id: string }): Buffer {
  verifyRequestId(request);
  // JSON text never holds a raw newline (they are escaped inside strings), so the line framing holds.
  return Buffer.from(`${canonicalJson(request)}\n`, "utf8");
}
