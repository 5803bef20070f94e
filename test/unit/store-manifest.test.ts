import { describe, expect, it } from "vitest";
import type { ManifestFile } from "../../src/export/archive.js";
import { manifestText } from "../../src/store/bundles.js";

const SHA = "a".repeat(64);

function files(count: number): ManifestFile[] {
  return Array.from({ length: count }, (_, i) => ({
    path: i % 7 === 0 ? `dir "${i}"/caf\u00e9\n\\${i}.ts` : `src/mod${i % 13}/file${i}.ts`,
    mode: i % 5 === 0 ? "100755" : i % 11 === 0 ? "120000" : "100644",
    size: i * 37,
    lines: i % 3,
  }));
}

describe("a stored bundle's manifest text", () => {
  it.each([0, 1, 2, 999, 1000, 1001, 2500])("is JSON.stringify's, indented 1, for %i files", (count) => {
    const listed = files(count);
    const text = [...manifestText(SHA, listed)].join("");
    expect(text).toBe(`${JSON.stringify({ sha256: SHA, files: listed }, null, 1)}\n`);
    expect(JSON.parse(text)).toEqual({ sha256: SHA, files: listed });
  });

  it("comes in parts of at most 1000 files past its first line", () => {
    const parts = [...manifestText(SHA, files(2500))];
    expect(parts).toHaveLength(5);
    expect(parts.slice(1, -1).map((part) => (part.match(/"path"/g) ?? []).length)).toEqual([1000, 1000, 500]);
  });
});
