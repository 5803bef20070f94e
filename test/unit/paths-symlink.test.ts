import { describe, expect, it } from "vitest";
import { resolveSymlink } from "../../src/export/filter.js";

describe("resolveSymlink", () => {
  const targets = new Map([
    ["docs/latest", "v2"],
    ["up", ".."],
    ["chain", "docs/latest/../.."],
    ["via", "up/x"],
    ["loop1", "loop2"],
    ["loop2", "loop1"],
    ["dotgit", "sub/.git/config"],
    ["abs", "/etc/passwd"],
    ["self", "."],
    ["inner", "docs/latest/index.md"],
  ]);
  it.each([
    ["docs/latest", "docs/v2"],
    ["inner", "docs/v2/index.md"],
    ["self", ""],
    ["up", undefined],
    ["chain", ""],
    ["via", undefined],
    ["loop1", undefined],
    ["dotgit", undefined],
    ["abs", undefined],
  ])("%s resolves to %s", (path, expected) => {
    expect(resolveSymlink(path, targets)).toBe(expected);
  });
});
