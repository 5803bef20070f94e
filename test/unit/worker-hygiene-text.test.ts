import { describe, expect, it } from "vitest";
import { cleanFilesObserver } from "../../src/worker/reviewers/hygiene.js";
import { HYGIENE_MAX_FILE_BYTES } from "../../src/worker/reviewers/hygiene-files.js";
import {
  CleanTextStream,
  checkText,
  findConflictMarkers,
  isBinary,
  isCleanText,
} from "../../src/worker/reviewers/hygiene-text.js";

const fixed = (text: string) => checkText(Buffer.from(text, "latin1")).fixed?.toString("latin1");

describe("hygiene text checks", () => {
  it.each([
    ["a  \nb\t\n", "a\nb\n"],
    ["a \t \r\nb\r\n", "a\r\nb\r\n"],
    ["no newline", "no newline\n"],
    ["crlf\r\nno newline", "crlf\r\nno newline\r\n"],
    ["a\n   ", "a\n"],
    ["trailing and none  ", "trailing and none\n"],
  ])("fixes %j", (input, output) => {
    expect(fixed(input)).toBe(output);
  });

  it.each(["", "clean\n", "a\r\nb\r\n", "  leading is fine\n", "\n\n"])("leaves %j alone", (input) => {
    expect(checkText(Buffer.from(input)).fixed).toBeUndefined();
  });

  it.each([
    "",
    "clean\n",
    "  leading is fine\n",
    "\n\n",
    "\nfirst line empty\n",
    "a \u000b\n",
    "<<<<<< six\n",
  ])("finds %j clean from its bytes alone, with nothing to report", (input) => {
    const content = Buffer.from(input, "latin1");
    expect(isCleanText(content)).toBe(true);
    expect(checkText(content)).toEqual({
      trailingWhitespaceLines: 0,
      missingFinalNewline: false,
      conflicts: [],
    });
  });

  it.each([
    "a \n",
    "b\t\n",
    " \nat the start\n",
    "clean\nthen  \nclean\n",
    "no newline",
    "a\r\nb\r\n",
    "a\nb\r\n",
    "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> topic\n",
    "x <<<<<<< not at a line start\n",
  ])("looks at the lines of %j", (input) => {
    expect(isCleanText(Buffer.from(input, "latin1"))).toBe(false);
  });

  it("counts and trims the blanks /[ \\t]+$/ finds at a line's end, and no other character", () => {
    const lines = ["a ", "b\t", " \t ", "", "c", " d", "e\u00a0", "f \u000b", "g \r h", "\t\t"];
    const report = checkText(Buffer.from(`${lines.join("\n")}\n`, "latin1"));
    expect(report.trailingWhitespaceLines).toBe(lines.filter((line) => /[ \t]+$/.test(line)).length);
    expect(report.fixed?.toString("latin1")).toBe(
      `${lines.map((line) => line.replace(/[ \t]+$/, "")).join("\n")}\n`,
    );
  });

  it("keeps every other byte as it is", () => {
    const input = Buffer.from([0xe9, 0x20, 0x0a, 0xff, 0xfe]);
    expect([...(checkText(input).fixed ?? [])]).toEqual([0xe9, 0x0a, 0xff, 0xfe, 0x0a]);
  });

  it("finds conflict blocks only when all three markers appear in order", () => {
    expect(findConflictMarkers(["x", "<<<<<<< HEAD", "a", "=======", "b", ">>>>>>> topic", "y"])).toEqual([
      { line: 2, endLine: 6 },
    ]);
    expect(findConflictMarkers(["<<<<<<<", "=======", ">>>>>>>"])).toEqual([{ line: 1, endLine: 3 }]);
    expect(findConflictMarkers(["<<<<<<< HEAD", "a", ">>>>>>> topic"])).toEqual([]);
    expect(findConflictMarkers(["=======", "heading underline"])).toEqual([]);
    expect(findConflictMarkers(["<<<<<<<< eight", "=======", ">>>>>>> x"])).toEqual([]);
  });

  it("reports mixed line endings with the first line of the minority kind", () => {
    expect(checkText(Buffer.from("a\nb\r\nc\n")).mixedLineEndings).toEqual({
      crlf: 1,
      lf: 2,
      firstMinorityLine: 2,
    });
    expect(checkText(Buffer.from("a\r\nb\r\nc\n")).mixedLineEndings).toEqual({
      crlf: 2,
      lf: 1,
      firstMinorityLine: 3,
    });
    expect(checkText(Buffer.from("a\r\nb\r\n")).mixedLineEndings).toBeUndefined();
  });

  it("treats a NUL in the first 8000 bytes as binary", () => {
    expect(isBinary(Buffer.from("abc\0def"))).toBe(true);
    expect(isBinary(Buffer.concat([Buffer.alloc(8000, 0x61), Buffer.from([0])]))).toBe(false);
  });

  // Every split of each text into three chunks, as a bundle's gunzip hands a file's bytes over.
  it.each([
    "",
    "clean\n",
    "\n\n",
    "a \n",
    "b\t\n",
    "x\n\ty\n",
    "ab\n \ncd\n",
    "no newline",
    "a\r\nb\n",
    "<<<<<<<\n",
    "x<<<<<<<y\n",
    "<<<<<< six\n",
    "<<<<<<\n<\n",
  ])("streams %j to the answer isCleanText gives the whole", (input) => {
    const content = Buffer.from(input, "latin1");
    const whole = isCleanText(content);
    for (let first = 0; first <= content.length; first++) {
      for (let second = first; second <= content.length; second++) {
        const stream = new CleanTextStream();
        stream.write(content.subarray(0, first));
        stream.write(content.subarray(first, second));
        stream.write(content.subarray(second));
        expect(stream.isClean(), `split at ${first} and ${second}`).toBe(whole);
        expect(stream.bytes).toBe(content.length);
      }
    }
  });

  it("notes a clean file for the unpack only up to the size hygiene reports, and no other file", () => {
    const clean = new Set<string>();
    const observe = cleanFilesObserver(clean);
    const write = (path: string, ...chunks: Buffer[]) => {
      const sink = observe(path);
      for (const chunk of chunks) sink.write(chunk);
      sink.end();
    };
    const line = Buffer.from(`${"x".repeat(1023)}\n`);
    write("small.ts", Buffer.from("export {};\n"));
    write("large.txt", ...Array.from({ length: HYGIENE_MAX_FILE_BYTES / 1024 + 1 }, () => line));
    write("at-limit.txt", ...Array.from({ length: HYGIENE_MAX_FILE_BYTES / 1024 }, () => line));
    write("trailing.ts", Buffer.from("a \n"));
    expect([...clean].sort()).toEqual(["at-limit.txt", "small.ts"]);
  });
});
