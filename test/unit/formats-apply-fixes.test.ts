import { describe, expect, it } from "vitest";
import { applyFixes } from "../../src/worker/formats/apply-fixes.js";
import {
  type ColumnUnit,
  DEFAULT_FORMAT_LIMITS,
  type EditRange,
  type Fix,
  type FormatLimits,
} from "../../src/worker/formats/types.js";

const files = (entries: Record<string, string | Uint8Array>) =>
  new Map(Object.entries(entries).map(([path, content]) => [path, Buffer.from(content)]));

const cols = (line: number, start: number, end: number, unit: ColumnUnit = "utf8"): EditRange => ({
  kind: "lineColumn",
  start: { line, column: start },
  end: { line, column: end },
  unit,
});

const fix = (range: EditRange, text: string, extra: Partial<Fix> = {}): Fix => ({
  path: "a.txt",
  line: range.kind === "lineColumn" ? range.start.line : 1,
  rule: "r",
  edits: [{ path: "a.txt", range, text }],
  ...extra,
});

function apply(content: string | Uint8Array, fixes: Fix[], limits: Partial<FormatLimits> = {}) {
  const result = applyFixes(fixes, files({ "a.txt": content }), { ...DEFAULT_FORMAT_LIMITS, ...limits });
  const changed = result.files.get("a.txt");
  return {
    text: changed === undefined ? undefined : Buffer.from(changed).toString("utf8"),
    comments: result.comments,
    warnings: result.warnings,
    applied: result.applied.length,
  };
}

const reasons = (comments: { message: string }[]) => comments.map((comment) => comment.message);

describe("columns", () => {
  // "b" comes after a 4-byte character: column 6 in bytes, 4 in UTF-16 units, 3 in code points.
  const line = "a🐶b é\n";

  it("counts UTF-8 bytes, UTF-16 code units or code points as the report says", () => {
    expect(apply(line, [fix(cols(1, 6, 7, "utf8"), "B")]).text).toBe("a🐶B é\n");
    expect(apply(line, [fix(cols(1, 4, 5, "utf16"), "B")]).text).toBe("a🐶B é\n");
    expect(apply(line, [fix(cols(1, 3, 4, "codePoint"), "B")]).text).toBe("a🐶B é\n");
  });

  it("refuses a column inside a character instead of splitting it", () => {
    const inEmoji = apply(line, [fix(cols(1, 3, 4, "utf8"), "x")]);
    expect(inEmoji.text).toBeUndefined();
    expect(reasons(inEmoji.comments)).toEqual([
      "fix not applied: column 3 of line 1 falls inside a character",
    ]);
    const halfPair = apply(line, [fix(cols(1, 3, 4, "utf16"), "x")]);
    expect(reasons(halfPair.comments)).toEqual([
      "fix not applied: column 3 of line 1 falls inside a character",
    ]);
    const inAccent = apply(line, [fix(cols(1, 9, 10, "utf8"), "x")]);
    expect(reasons(inAccent.comments)).toEqual([
      "fix not applied: column 9 of line 1 falls inside a character",
    ]);
  });

  it("accepts the column just past the last character and refuses anything further", () => {
    expect(apply("ab\ncd\n", [fix(cols(1, 3, 3), "!")]).text).toBe("ab!\ncd\n");
    const past = apply("ab\ncd\n", [fix(cols(1, 4, 4), "!")]);
    expect(past.text).toBeUndefined();
    expect(reasons(past.comments)).toEqual(["fix not applied: column 4 is past the end of line 1"]);
  });

  it("takes a missing end column as the end of the line, before its newline", () => {
    const range: EditRange = {
      kind: "lineColumn",
      start: { line: 1, column: 2 },
      end: { line: 1 },
      unit: "utf16",
    };
    expect(apply("abc\r\nd\r\n", [fix(range, "X")]).text).toBe("aX\r\nd\r\n");
  });
});

describe("line endings", () => {
  it("keeps CRLF: the CR is never split off, new lines in inserted text become CRLF", () => {
    const crlf = "one\r\ntwo\r\n";
    expect(apply(crlf, [fix(cols(1, 4, 4), "\nnew")]).text).toBe("one\r\nnew\r\ntwo\r\n");
    expect(apply(crlf, [fix(cols(2, 1, 4), "2")]).text).toBe("one\r\n2\r\n");
    expect(reasons(apply(crlf, [fix(cols(1, 5, 5), "x")]).comments)).toEqual([
      "fix not applied: column 5 is past the end of line 1",
    ]);
  });

  it("leaves inserted newlines alone in an LF file and in a file of mixed endings", () => {
    expect(apply("a\nb\n", [fix(cols(1, 2, 2), "\nx")]).text).toBe("a\nx\nb\n");
    expect(apply("a\r\nb\n", [fix(cols(2, 2, 2), "\nx")]).text).toBe("a\r\nb\nx\n");
  });

  it("replaces whole lines with their newline, the way rdjson's line ranges mean", () => {
    const lines = (startLine: number, endLine: number): EditRange => ({ kind: "lines", startLine, endLine });
    expect(apply("1\r\n2\r\n3\r\n", [fix(lines(2, 3), "two")]).text).toBe("1\r\ntwo\r\n");
    expect(apply("1\n2\n3\n", [fix(lines(2, 2), "")]).text).toBe("1\n3\n");
    expect(apply("1\n2", [fix(lines(2, 2), "two")]).text).toBe("1\ntwo");
    expect(reasons(apply("1\n", [fix(lines(2, 3), "x")]).comments)).toEqual([
      "fix not applied: line 3 is past the end of the file (2 lines)",
    ]);
    expect(reasons(apply("1\n2\n", [fix(lines(2, 1), "x")]).comments)).toEqual([
      "fix not applied: the region ends before it starts",
    ]);
  });
});

describe("edits at the edges", () => {
  it("inserts at the end of a file without a final newline, and after its final newline", () => {
    expect(apply("x", [fix(cols(1, 2, 2), "\n")]).text).toBe("x\n");
    expect(apply("x\n", [fix(cols(2, 1, 1), "y\n")]).text).toBe("x\ny\n");
    expect(apply("", [fix(cols(1, 1, 1), "new\n")]).text).toBe("new\n");
  });

  it("applies deletions, and an empty insertion changes nothing", () => {
    expect(apply("keep drop keep\n", [fix(cols(1, 5, 10), "")]).text).toBe("keep keep\n");
    const empty = apply("same\n", [fix(cols(1, 2, 2), "")]);
    expect(empty.applied).toBe(1);
    expect(empty.text).toBeUndefined();
  });

  it("skips a region out of range with a comment at the fix's place and rule", () => {
    const result = apply("a\nb\n", [
      fix(cols(9, 1, 1), "x", { line: 9, rule: "far" }),
      fix({ kind: "bytes", offset: 2, length: 9 }, "x"),
      fix(cols(1, 2, 1), "x"),
    ]);
    expect(result.text).toBeUndefined();
    expect(result.comments).toEqual([
      {
        path: "a.txt",
        line: 9,
        severity: "info",
        message: "fix not applied: line 9 is past the end of the file (3 lines)",
        rule: "far",
      },
      {
        path: "a.txt",
        line: 1,
        severity: "info",
        message: "fix not applied: offset 11 is past the end of the file (4)",
        rule: "r",
      },
      {
        path: "a.txt",
        line: 1,
        severity: "info",
        message: "fix not applied: the region ends before it starts",
        rule: "r",
      },
    ]);
  });
});

describe("byte and character offsets", () => {
  it("applies byte offsets, checking the line numbers that come with them", () => {
    const content = "é1\nx2\n";
    expect(
      apply(content, [fix({ kind: "bytes", offset: 4, length: 2, startLine: 2, endLine: 2 }, "y")]).text,
    ).toBe("é1\ny\n");
    const stale = apply(content, [fix({ kind: "bytes", offset: 4, length: 2, startLine: 1 }, "y")]);
    expect(reasons(stale.comments)).toEqual([
      "fix not applied: offset 4 is not on line 1 as the report says",
    ]);
    const split = apply(content, [fix({ kind: "bytes", offset: 1, length: 1 }, "y")]);
    expect(reasons(split.comments)).toEqual(["fix not applied: offset 1 falls inside a character"]);
  });

  it("counts character offsets from the start of the file in the report's unit", () => {
    const content = "🐶a\nb\n";
    expect(apply(content, [fix({ kind: "chars", offset: 2, length: 1, unit: "utf16" }, "A")]).text).toBe(
      "🐶A\nb\n",
    );
    expect(apply(content, [fix({ kind: "chars", offset: 1, length: 1, unit: "codePoint" }, "A")]).text).toBe(
      "🐶A\nb\n",
    );
  });

  it("refuses a fix whose region does not hold the text the report says it replaces", () => {
    const range: EditRange = { kind: "bytes", offset: 0, length: 3 };
    const withExpected = (expected: string): Fix => ({
      rule: "r",
      edits: [{ path: "a.txt", range, text: "new", expected }],
    });
    expect(apply("old\n", [withExpected("old")]).text).toBe("new\n");
    expect(reasons(apply("odd\n", [withExpected("old")]).comments)).toEqual([
      "fix not applied: the file does not hold the text the fix replaces (the report is stale?)",
    ]);
  });
});

describe("overlapping fixes", () => {
  it("keeps the first of two overlapping fixes and reports the other", () => {
    const result = apply("abcdef\n", [
      fix(cols(1, 2, 5), "X", { rule: "first" }),
      fix(cols(1, 4, 7), "Y", { rule: "second" }),
    ]);
    expect(result.text).toBe("aXef\n");
    expect(result.comments).toEqual([
      {
        path: "a.txt",
        line: 1,
        severity: "info",
        message: "fix not applied: overlaps an earlier fix",
        rule: "second",
      },
    ]);
  });

  it("applies fixes that only touch, an insertion before a replacement at its place", () => {
    expect(apply("abcdef\n", [fix(cols(1, 2, 4), "X"), fix(cols(1, 4, 6), "Y")]).text).toBe("aXYf\n");
    expect(apply("abc\n", [fix(cols(1, 2, 3), "X"), fix(cols(1, 2, 2), "+")]).text).toBe("a+Xc\n");
  });

  it("treats two insertions at one place, or one inside a replaced span, as overlapping", () => {
    expect(reasons(apply("abc\n", [fix(cols(1, 2, 2), "1"), fix(cols(1, 2, 2), "2")]).comments)).toEqual([
      "fix not applied: overlaps an earlier fix",
    ]);
    const inside = apply("abcd\n", [fix(cols(1, 2, 4), "X"), fix(cols(1, 3, 3), "+")]);
    expect(inside.text).toBe("aXd\n");
    expect(inside.comments).toHaveLength(1);
  });

  it("applies a fix all or nothing: one bad edit, in any file, keeps every file as it was", () => {
    const both: Fix = {
      rule: "r",
      edits: [
        { path: "a.txt", range: cols(1, 1, 2), text: "A" },
        { path: "b.txt", range: cols(5, 1, 1), text: "B" },
      ],
    };
    const result = applyFixes([both], files({ "a.txt": "a\n", "b.txt": "b\n" }), DEFAULT_FORMAT_LIMITS);
    expect(result.files.size).toBe(0);
    expect(result.applied).toEqual([]);
    expect(reasons(result.comments)).toEqual([
      "fix not applied: line 5 is past the end of the file (2 lines)",
    ]);
  });

  it("refuses a fix whose own edits overlap, and keeps the order of its insertions at one place", () => {
    const overlapping: Fix = {
      edits: [
        { path: "a.txt", range: cols(1, 1, 3), text: "X" },
        { path: "a.txt", range: cols(1, 2, 4), text: "Y" },
      ],
    };
    expect(reasons(apply("abcd\n", [overlapping]).comments)).toEqual([
      "fix not applied: its edits overlap each other",
    ]);
    const quoted: Fix = {
      edits: [
        { path: "a.txt", range: cols(1, 2, 2), text: '"' },
        { path: "a.txt", range: cols(1, 2, 2), text: "$" },
        { path: "a.txt", range: cols(1, 3, 3), text: '"' },
      ],
    };
    expect(apply("(x)\n", [quoted]).text).toBe('("$x")\n');
  });
});

describe("files that cannot be edited", () => {
  it("reports a missing, binary, non-UTF-8 or oversized file instead of editing it", () => {
    const result = applyFixes(
      [
        { path: "gone.txt", edits: [{ path: "gone.txt", range: cols(1, 1, 1), text: "x" }] },
        { path: "nul.bin", edits: [{ path: "nul.bin", range: cols(1, 1, 1), text: "x" }] },
        { path: "latin1.txt", edits: [{ path: "latin1.txt", range: cols(1, 1, 1), text: "x" }] },
        { path: "big.txt", edits: [{ path: "big.txt", range: cols(1, 1, 1), text: "x" }] },
      ],
      files({
        "nul.bin": "a\0b",
        "latin1.txt": Uint8Array.of(0x63, 0x61, 0x66, 0xe9),
        "big.txt": "x".repeat(101),
      }),
      { ...DEFAULT_FORMAT_LIMITS, maxFileBytes: 100 },
    );
    expect(result.files.size).toBe(0);
    expect(reasons(result.comments)).toEqual([
      'fix not applied: no file "gone.txt" in the tree',
      'fix not applied: "nul.bin" is not UTF-8 text',
      'fix not applied: "latin1.txt" is not UTF-8 text',
      'fix not applied: "big.txt" is over 100 bytes',
    ]);
  });
});

describe("limits", () => {
  it("stops at the edit limit with one warning, keeping the fixes before it", () => {
    const fixes = [1, 2, 3, 4].map((n) => fix(cols(n, 1, 1), "#"));
    const result = apply("1\n2\n3\n4\n", fixes, { maxEdits: 2 });
    expect(result.text).toBe("#1\n#2\n3\n4\n");
    expect(result.applied).toBe(2);
    expect(result.comments).toEqual([]);
    expect(result.warnings).toEqual([
      "2 fixes not applied: over the limit of 2 edits or 1048576 inserted bytes",
    ]);
  });

  it("stops at the inserted-bytes limit", () => {
    const result = apply("a\nb\n", [fix(cols(1, 1, 1), "12345"), fix(cols(2, 1, 1), "678")], {
      maxInsertedBytes: 6,
    });
    expect(result.text).toBe("12345a\nb\n");
    expect(result.warnings).toEqual(["1 fix not applied: over the limit of 10000 edits or 6 inserted bytes"]);
  });
});
