// What a new user meets running each command bare or wrong in a fresh repository: a message that
// says what is missing, in git's words, the exit code of design §4, and the repository as it was.
import { describe, expect, it } from "vitest";
import { createTrailingSpaceRepo, repoTracker, runUnchanged } from "../helpers/repo.js";

const repos = repoTracker();

describe("an option given without its value", () => {
  const cases: [string[], string, string][] = [
    [["--timeout"], "--timeout", "-h"],
    [["-m"], "-m, --question", "-h"],
    [["export", "-o"], "-o, --output", "export -h"],
    [["prune", "--expire"], "--expire", "prune -h"],
  ];
  it.each(cases)("%j names the option as the user may type it", (args, option, help) => {
    const repo = createTrailingSpaceRepo(repos);
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toBe(
      `git-review-remote: option '${option}' needs a value\nhint: see 'git review-remote ${help}'\n`,
    );
  });
});
