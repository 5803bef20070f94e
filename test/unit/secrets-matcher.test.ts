import { describe, expect, test } from "vitest";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { ALNUM, fakeChars } from "../fixtures/secrets/fake-tokens.js";

const scanner = createContentScanner();

function scanInChunks(content: Buffer, size: number): Finding[] {
  const file = scanner.scanFile("src/app.ts");
  for (let offset = 0; offset < content.length; offset += size)
    file.write(content.subarray(offset, offset + size));
  return file.end();
}

describe("rule matcher windows", () => {
  test("a secret captured behind its keyword (…_mmk) is found once across window boundaries", () => {
    const key = `${fakeChars(ALNUM, 6)}_${fakeChars(ALNUM, 29, 2)}${"_mm"}k`;
    const filler = `${"x".repeat(99)}\n`;
    // The first window (256 KiB) accepts hits up to its end less the tail (12 KiB + 512): the key
    // straddles that cut, and then the end of the window.
    for (const total of [249_344, 262_144]) {
      for (let shift = -key.length - 2; shift <= 2; shift++) {
        const before = filler.repeat(Math.floor((total + shift) / filler.length));
        const head = before + "y".repeat(total + shift - before.length);
        const found = scanInChunks(Buffer.from(`${head} ${key}\n${filler.repeat(200)}`), 65_536);
        expect(
          found.map((finding) => `${finding.line}:${finding.rule}`),
          `total ${total} shift ${shift}`,
        ).toEqual([`${before.length / filler.length + 1}:maxmind-license-key`]);
      }
    }
  });
});
