// RFC 8785 (JSON Canonicalization Scheme): the byte-exact JSON the request id is hashed over, so that any
// implementation in any language derives the same id from the same request.
// https://www.rfc-editor.org/rfc/rfc8785

// In a `u` regex a surrogate pair is one code point, so this matches lone surrogates only.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Canonical JSON per RFC 8785: object keys sorted by UTF-16 code units, no whitespace, numbers as
 * ECMAScript's Number::toString, strings escaped as JSON.stringify does. Throws a TypeError for values
 * JSON cannot represent exactly: non-finite numbers, lone surrogates, bigint, functions, cycles and
 * non-plain objects. Object properties whose value is `undefined` are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, "$", new Set());
}

function serialize(value: unknown, where: string, ancestors: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${where} is ${value}, not a finite number`);
      // Number::toString is exactly RFC 8785 §3.2.2.3; it already prints -0 as "0".
      return String(value);
    case "string":
      return serializeString(value, where);
    case "object":
      return serializeContainer(value, where, ancestors);
    default:
      throw new TypeError(`canonicalJson: ${where} is a ${typeof value}, which JSON cannot represent`);
  }
}

function serializeString(value: string, where: string): string {
  if (LONE_SURROGATE.test(value)) throw new TypeError(`canonicalJson: ${where} contains a lone surrogate`);
  // For well-formed strings JSON.stringify escapes exactly what RFC 8785 §3.2.2.2 escapes.
  return JSON.stringify(value);
}

function serializeContainer(value: object, where: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new TypeError(`canonicalJson: ${where} is a circular reference`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item, index) => serialize(item, `${where}[${index}]`, ancestors)).join(",")}]`;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`canonicalJson: ${where} is not a plain object`);
    }
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 requires.
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${serializeString(key, where)}:${serialize(record[key], `${where}.${key}`, ancestors)}`);
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}
