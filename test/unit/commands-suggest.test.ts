// "Did you mean": the command names git would suggest for a mistyped word, by git's own scoring.
import { describe, expect, it } from "vitest";
import { similarCommands } from "../../src/commands/suggest.js";

const NAMES = [
  "audit",
  "install-hook",
  "hook",
  "list",
  "show",
  "merge",
  "prune",
  "drop",
  "import",
  "worker",
  "export",
];

describe("similarCommands", () => {
  it("finds a swapped pair of letters, a missing letter and an extra one", () => {
    expect(similarCommands("shwo", NAMES)).toEqual(["show"]);
    expect(similarCommands("merg", NAMES)).toEqual(["merge"]);
    expect(similarCommands("pruune", NAMES)).toEqual(["prune"]);
    expect(similarCommands("lsit", NAMES)).toEqual(["list"]);
  });

  it("counts a prefix as a perfect match, and lists every command equally close", () => {
    expect(similarCommands("ex", NAMES)).toEqual(["export"]);
    expect(similarCommands("i", NAMES)).toEqual(["install-hook", "import"]);
  });

  it("suggests nothing for words far from every command", () => {
    expect(similarCommands("main", NAMES)).toEqual([]);
    expect(similarCommands("feature", NAMES)).toEqual([]);
    expect(similarCommands("HEAD", NAMES)).toEqual([]);
  });
});
