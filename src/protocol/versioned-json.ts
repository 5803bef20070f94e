// Shared first steps for reading a versioned protocol document (request or result): size gate, strict
// JSON, and the `schema` field, so another protocol version is named as such instead of as field errors.

import { quoteForMessage } from "./quote.js";
import { parseStrictJson, StrictJsonError } from "./strict-json.js";

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface VersionedJsonOptions {
  /** Name used for problems about the whole document ("result", "request"). */
  root: string;
  /** The one `schema` value this version reads. */
  schema: string;
  maxBytes: number;
}

/**
 * Size gate, strict JSON, then the `schema` field checked first: a document of another version is
 * reported as such, not as a list of field errors that would only be noise.
 */
export function parseVersionedJson(bytes: Uint8Array, options: VersionedJsonOptions): ParseOutcome<unknown> {
  const { root, schema, maxBytes } = options;
  if (bytes.length > maxBytes) {
    return { ok: false, problems: [`${root}: ${bytes.length} bytes, over the limit of ${maxBytes}`] };
  }
  let value: unknown;
  try {
    value = parseStrictJson(bytes);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    return { ok: false, problems: [`${error.jsonPath || root}: not valid JSON: ${jsonErrorText(error)}`] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problems: [`${root}: must be a JSON object`] };
  }
  const found = (value as { schema?: unknown }).schema;
  if (typeof found === "string" && found !== schema) {
    return {
      ok: false,
      problems: [
        `schema: unsupported ${root} schema ${quoteForMessage(found)} (this version reads ${schema})`,
      ],
    };
  }
  return { ok: true, value };
}

function jsonErrorText(error: StrictJsonError): string {
  return error.line > 0 ? `${error.reason} (line ${error.line}, column ${error.column})` : error.reason;
}
