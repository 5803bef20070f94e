import { describe, expect, it } from "vitest";
import { isSupportedGit, MINIMUM_GIT, parseGitVersion } from "../../src/git/version.js";

describe("git version's line", () => {
  const cases: [string, string, number, number, number, boolean][] = [
    ["git version 2.39.5\n", "2.39.5", 2, 39, 5, true],
    ["git version 2.38.0\n", "2.38.0", 2, 38, 0, true],
    ["git version 2.37.7\n", "2.37.7", 2, 37, 7, false],
    ["git version 2.30.2\n", "2.30.2", 2, 30, 2, false],
    ["git version 2.39.3 (Apple Git-146)\n", "2.39.3 (Apple Git-146)", 2, 39, 3, true],
    ["git version 2.37.1 (Apple Git-137.1)\n", "2.37.1 (Apple Git-137.1)", 2, 37, 1, false],
    ["git version 2.45.1.windows.1\n", "2.45.1.windows.1", 2, 45, 1, true],
    ["git version 2.35.1.windows.2\n", "2.35.1.windows.2", 2, 35, 1, false],
    ["git version 2.38.0.rc0\n", "2.38.0.rc0", 2, 38, 0, true],
    ["git version 2.40.0-rc1\n", "2.40.0-rc1", 2, 40, 0, true],
    ["git version 2.39.GIT\n", "2.39.GIT", 2, 39, 0, true],
    ["git version 2.43.0.381.gb435a96ce8\n", "2.43.0.381.gb435a96ce8", 2, 43, 0, true],
    ["git version 2.40.1.vfs.0.0\n", "2.40.1.vfs.0.0", 2, 40, 1, true],
    ["git version 3.0.0\n", "3.0.0", 3, 0, 0, true],
    ["git version 1.9.5\n", "1.9.5", 1, 9, 5, false],
  ];
  it.each(cases)("%j is git %s", (output, text, major, minor, patch, supported) => {
    const version = parseGitVersion(output);
    expect(version).toEqual({ major, minor, patch, text });
    expect(isSupportedGit(version as NonNullable<typeof version>)).toBe(supported);
  });

  it.each(["", "usage: git [--version]", "hub version 2.14.2", "git version two\n"])(
    "%j names no version",
    (output) => {
      expect(parseGitVersion(output)).toBeUndefined();
    },
  );

  it("sets the floor at merge-tree --write-tree's release", () => {
    expect(MINIMUM_GIT).toEqual({ major: 2, minor: 38 });
  });
});
