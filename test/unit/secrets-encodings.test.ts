import { describe, expect, test } from "vitest";
import { detectForm } from "../../src/secrets/decode/detect.js";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";

const scanner = createContentScanner();

function scanInChunks(content: Buffer, size: number, path = "config/app.txt"): Finding[] {
  const file = scanner.scanFile(path);
  for (let offset = 0; offset < content.length; offset += size)
    file.write(content.subarray(offset, offset + size));
  return file.end();
}

const summary = (findings: Finding[]) => findings.map((finding) => `${finding.line}:${finding.rule}`);

function utf16be(text: string): Buffer {
  return Buffer.from(text, "utf16le").swap16();
}

function utf32(text: string, littleEndian: boolean): Buffer {
  const points = [...text].map((char) => char.codePointAt(0) as number);
  const out = Buffer.alloc(points.length * 4);
  points.forEach((point, index) => {
    if (littleEndian) out.writeUInt32LE(point, index * 4);
    else out.writeUInt32BE(point, index * 4);
  });
  return out;
}

const token = fake.githubPat();
const text = `# settings\nname = "café ☕ 😀"\ntoken = "${token}"\n`;
const ENCODINGS: [string, Buffer][] = [
  ["UTF-16 LE with a mark", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])],
  ["UTF-16 BE with a mark", Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)])],
  ["UTF-16 LE without a mark", Buffer.from(text, "utf16le")],
  ["UTF-16 BE without a mark", utf16be(text)],
  ["UTF-32 LE with a mark", utf32(`\ufeff${text}`, true)],
  ["UTF-32 BE with a mark", utf32(`\ufeff${text}`, false)],
  ["UTF-32 LE without a mark", utf32(text, true)],
  ["UTF-32 BE without a mark", utf32(text, false)],
];

describe("text in UTF-16 and UTF-32 is scanned after decoding", () => {
  test.each(ENCODINGS)("finds the token in %s, on its line, in chunks of any size", (_, content) => {
    for (const size of [1, 3, 7, 64, 65_536]) {
      expect(summary(scanInChunks(content, size)), `chunks of ${size}`).toEqual(["3:github-pat"]);
    }
  });

  test.each(ENCODINGS)("%s: the finding shows no more of the token than UTF-8 text would", (_, content) => {
    const [finding] = scanInChunks(content, 4096);
    expect(finding?.redacted).toBe("ghp_…");
    expect(JSON.stringify(finding)).not.toContain(token.slice(4));
  });

  test("a secret past 8 KiB of non-ASCII UTF-16 text (no NUL bytes to tell it by) is found", () => {
    const content = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`${"漢字かな".repeat(3000)}\nkey = ${token}\n`, "utf16le"),
    ]);
    expect(summary(scanInChunks(content, 4096))).toEqual(["2:github-pat"]);
  });

  test("8-bit text that starts like a UTF-16 mark is still read as it is", () => {
    const content = Buffer.concat([Buffer.from([0xff, 0xfe, 0x41, 0x0a]), Buffer.from(`k=${token}\n`)]);
    expect(summary(scanInChunks(content, 5))).toEqual(["2:github-pat"]);
  });

  test("binary content whose NUL bytes fall anywhere stays unread", () => {
    const binary = Buffer.concat([
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]),
      Buffer.from(`k=${token}`),
    ]);
    expect(detectForm(binary)).toBe("binary");
    expect(scanInChunks(binary, 7)).toEqual([]);
  });
});

describe("form detection", () => {
  test.each([
    [Buffer.from("plain text\n"), "text"],
    [Buffer.from([0xef, 0xbb, 0xbf, 0x41]), "text"],
    [Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0]), "binary"],
    [Buffer.from("abcdefgh", "utf16le"), "utf16le"],
    [Buffer.from([0x1f, 0x8b, 0x08, 0]), "gzip"],
    [Buffer.from("PK\x03\x04", "latin1"), "zip"],
    [Buffer.from("PK\x05\x06", "latin1"), "zip"],
  ] as const)("%j is %s", (head, form) => {
    expect(detectForm(head)).toBe(form);
  });
});
