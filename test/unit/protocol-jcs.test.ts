import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/protocol/jcs.js";
import { parseStrictJson } from "../../src/protocol/strict-json.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");

function fromIeeeHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("canonicalJson (RFC 8785)", () => {
  it("reproduces the RFC 8785 §3.2.2 example", () => {
    const input =
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n' +
      '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n' +
      '  "literals": [null, true, false]\n}';
    expect(canonicalJson(parseStrictJson(utf8(input)))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("sorts keys by UTF-16 code units as in the RFC 8785 §3.2.3 example", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const output = canonicalJson(input);
    expect(output).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis",' +
        '"€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("sorts a surrogate pair (U+1F600) before U+FB33, unlike code point order", () => {
    expect(canonicalJson({ "\ufb33": 1, "\u{1f600}": 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
  });

  it.each([
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ])("serializes the IEEE 754 value %s as %s (RFC 8785 appendix B)", (hex, expected) => {
    expect(canonicalJson(fromIeeeHex(hex))).toBe(expected);
  });

  it("serializes 1e30, 4.50, 0.002 and -0 as the RFC does", () => {
    expect(canonicalJson([1e30, 4.5, 0.002, -0])).toBe("[1e+30,4.5,0.002,0]");
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "refuses the non-finite number %s",
    (n) => {
      expect(() => canonicalJson({ a: [n] })).toThrow(/\$\.a\[0\] is .*not a finite number/);
    },
  );

  it("escapes strings as JSON.stringify does, control characters in lowercase hex", () => {
    expect(canonicalJson('\u0000\u001f\b\f\n\r\t"\\/\u007f\u2028')).toBe(
      '"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/\u007f\u2028"',
    );
  });

  it("refuses lone surrogates in values and keys", () => {
    expect(() => canonicalJson("a\ud800")).toThrow(/lone surrogate/);
    expect(() => canonicalJson("\udc00b")).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ "\ud83d": 1 })).toThrow(/lone surrogate/);
    expect(canonicalJson("\ud83d\ude00")).toBe('"😀"');
  });

  it("has no whitespace and sorts nested objects", () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: { z: null, y: true } })).toBe(
      '{"a":{"y":true,"z":null},"b":[1,{"c":2,"d":1}]}',
    );
  });

  it("leaves out properties whose value is undefined, as JSON.stringify does", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it("refuses values JSON cannot represent", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson([undefined])).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
    expect(() => canonicalJson(new Date(0))).toThrow(/not a plain object/);
    expect(() => canonicalJson(new Map())).toThrow(/not a plain object/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/circular/);
  });

  it("accepts null-prototype objects and repeated (non-circular) references", () => {
    const shared = { x: 1 };
    const bare = Object.assign(Object.create(null), { b: shared, a: shared });
    expect(canonicalJson(bare)).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
