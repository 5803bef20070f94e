import { describe, expect, it } from "vitest";
import { checkSymlink } from "../../src/paths/bundle.js";
import { resolveLink } from "../../src/paths/symlink.js";

/** Where a link of `targets` leads, or undefined when the bundle rules keep it out. */
function resolve(path: string, targets: ReadonlyMap<string, string>): string | undefined {
  const target = targets.get(path) ?? "";
  if (checkSymlink(path, target, targets) !== undefined) return undefined;
  const resolved = resolveLink(path.split("/").slice(0, -1), target, targets);
  return resolved.ok ? resolved.path : undefined;
}

describe("symlinks under the bundle rules (export and worker alike)", () => {
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
    ["dotgit-dot", ".git./config"],
    ["dotgit-case", "sub/.GIT/hooks"],
    ["dotgit-zwnj", ".g\u200cit/config"],
    ["dotgit-short", "GIT~1/config"],
    ["backslash", "..\\x"],
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
    ["dotgit-dot", undefined],
    ["dotgit-case", undefined],
    ["dotgit-zwnj", undefined],
    ["dotgit-short", undefined],
    ["backslash", undefined],
  ])("%s resolves to %s", (path, expected) => {
    expect(resolve(path, targets)).toBe(expected);
  });

  it("names the rule that keeps a link out", () => {
    expect(checkSymlink("link", ".git./config", targets)?.rule).toBe("symlink-dotgit");
    expect(checkSymlink("up", "..", targets)?.rule).toBe("symlink-escape");
    expect(checkSymlink("loop1", "loop2", targets)?.rule).toBe("symlink-loop");
    expect(checkSymlink("abs", "/etc/passwd", targets)?.rule).toBe("symlink-absolute-path");
  });
});
