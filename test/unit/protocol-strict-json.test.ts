import { describe, expect, it } from "vitest";
import { parseStrictJson, StrictJsonError } from "../../src/protocol/strict-json.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");
const parse = (text: string) => parseStrictJson(utf8(text));

function failure(input: string | Uint8Array): StrictJsonError {
  try {
    parseStrictJson(typeof input === "string" ? utf8(input) : input);
  } catch (error) {
    expect(error).toBeInstanceOf(StrictJsonError);
    return error as StrictJsonError;
  }
  throw new Error("expected parseStrictJson to throw");
}

describe("parseStrictJson", () => {
  it.each([
    "null",
    "true",
    "false",
    "0",
    "-0",
    "12.5e-3",
    "1E+2",
    '""',
    '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00"',
    "[]",
    "{}",
    ' \t\r\n{ "a" : [ 1 , { "b" : null } ] , "c" : "x" } \n',
    '{"toString":1,"constructor":{"prototype":2},"hasOwnProperty":3}',
    '"€ and 😀 raw"',
  ])("parses %j as JSON.parse does", (text) => {
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it("keeps keys named like Object.prototype members as own data, without touching the prototype", () => {
    const value = parse(
      '{"a":{"constructor":{"prototype":{"polluted":1}},"toString":2,"hasOwnProperty":3}}',
    ) as {
      a: Record<string, unknown>;
    };
    expect(Object.keys(value.a)).toEqual(["constructor", "toString", "hasOwnProperty"]);
    expect(value.a.toString).toBe(2);
    expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString).toBeTypeOf("function");
  });

  it("treats keys named like inherited members as duplicates only when repeated", () => {
    expect(failure('{"toString":1,"toString":2}').reason).toBe('duplicate key "toString"');
  });

  it.each([
    '{"__proto__":{"polluted":true}}',
    '{"a":[{"__proto__":1}]}',
    '{"\\u005f_proto__":{"polluted":true}}',
  ])("refuses a __proto__ key anywhere: %s", (text) => {
    expect(failure(text).reason).toBe('key "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses duplicate keys and says where", () => {
    const error = failure('{"commits":[{"message":"m","patch":"a","patch":"b"}]}');
    expect(error.reason).toBe('duplicate key "patch"');
    expect(error.jsonPath).toBe("commits.0");
    expect(error.message).toBe('commits.0: duplicate key "patch" (line 1, column 40)');
  });

  it("refuses duplicate keys spelled differently with escapes", () => {
    expect(failure('{"a":1,"\\u0061":2}').reason).toBe('duplicate key "a"');
  });

  it("accepts equal keys in different objects", () => {
    expect(parse('{"a":{"a":1},"b":{"a":2}}')).toEqual({ a: { a: 1 }, b: { a: 2 } });
  });

  it.each([
    ['"\\uD800"', "lone surrogate escape \\uD800"],
    ['"\\uDC00"', "lone surrogate escape \\uDC00"],
    ['"\\uD800\\u0041"', "lone surrogate escape \\uD800"],
    ['"\\uD800\\n"', "lone surrogate escape \\uD800"],
    ['"\\uDBFF\\uDBFF"', "lone surrogate escape \\uDBFF"],
  ])("refuses the lone surrogate escape in %s", (text, reason) => {
    expect(failure(text).reason).toBe(reason);
  });

  it.each([
    ["a lone continuation byte", [0x22, 0x80, 0x22], 1],
    ["an overlong encoding", [0x22, 0xc0, 0x80, 0x22], 1],
    ["an encoded surrogate (CESU-8)", [0x22, 0xed, 0xa0, 0x80, 0x22], 1],
    ["a code point past U+10FFFF", [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
    ["a truncated sequence", [0x22, 0x61, 0xe2, 0x82], 2],
  ])("refuses invalid UTF-8: %s", (_name, bytes, offset) => {
    expect(failure(Uint8Array.from(bytes)).reason).toBe(`not valid UTF-8 (byte offset ${offset})`);
  });

  it("refuses a byte order mark", () => {
    expect(failure(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).reason).toBe(
      "starts with a byte order mark (BOM)",
    );
  });

  it("accepts nesting of 64 levels and refuses 65", () => {
    expect(parse(`${"[".repeat(64)}${"]".repeat(64)}`)).toBeInstanceOf(Array);
    expect(failure(`${"[".repeat(65)}${"]".repeat(65)}`).reason).toBe("nested deeper than 64 levels");
    expect(failure(`${'{"a":'.repeat(65)}1${"}".repeat(65)}`).reason).toBe("nested deeper than 64 levels");
  });

  it("refuses deep nesting without a stack overflow", () => {
    expect(failure("[".repeat(1_000_000)).reason).toBe("nested deeper than 64 levels");
  });

  it.each([
    ["", "empty document"],
    ["  \n ", "empty document"],
    ["{} {}", "unexpected data after the JSON value"],
    ["[1] x", "unexpected data after the JSON value"],
    ["{}\u0000", "unexpected data after the JSON value"],
    ["Traceback (most recent call last):", "unexpected character 'T'"],
    ["[1,]", "unexpected character ']'"],
    ['{"a":1,}', "expected a string key"],
    ["{'a':1}", "expected a string key"],
    ['{"a" 1}', "expected ':' after a key"],
    ["[1 2]", "expected ',' or ']'"],
    ['{"a":1', "expected ',' or '}'"],
    ["[", "unexpected end of input"],
    ["01", "invalid number"],
    ["1.", "invalid number"],
    ["-", "invalid number"],
    [".5", "unexpected character '.'"],
    ["+1", "unexpected character '+'"],
    ["1e", "invalid number"],
    ["NaN", "unexpected character 'N'"],
    ["Infinity", "unexpected character 'I'"],
    ["1e400", "number out of range"],
    ["-1e400", "number out of range"],
    ['"abc', "unterminated string"],
    ['"a\tb"', "unescaped control character U+0009 in a string"],
    ['"\\x41"', "invalid escape 'x'"],
    ['"\\u12G4"', "invalid \\u escape: expected 4 hex digits"],
    ["/* c */ 1", "unexpected character '/'"],
    ["\u00a01", "unexpected character U+00A0"],
    ["tru", "unexpected character 't'"],
  ])("refuses %j: %s", (text, reason) => {
    expect(failure(text).reason).toBe(reason);
  });

  it("reports 1-based line and column", () => {
    const error = failure('{\n  "a": 1,\n  "a": 2\n}');
    expect([error.line, error.column]).toEqual([3, 3]);
  });

  // Its speed is measured by the bench (npm run bench), not asserted here: shared machines are noisy.
  it("parses an 8 MiB result exactly as JSON.parse does", () => {
    const comment = { path: "src/a.ts", line: 12, severity: "info", message: "é ".repeat(30) };
    const comments = Array.from({ length: 40_000 }, () => comment);
    const big = { summary: "x".repeat(2 * 1024 * 1024), comments, patch: "line\\n\t".repeat(100_000) };
    const bytes = utf8(JSON.stringify(big));
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(parseStrictJson(bytes)).toEqual(big);
  });
});
