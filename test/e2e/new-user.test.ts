// What a new user meets first: mistyped revisions, a review dropped after its merge, the store and
// the repository left as they were by a refusal.
import { describe, expect, it } from "vitest";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

function committedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", "export const a = 1;   \n");
  repo.commit("trailing spaces");
  return repo;
}

describe("an unknown revision", () => {
  const cases: [string, string[]][] = [
    ["a review", ["no-such-rev"]],
    ["a range review", ["no-such-rev..HEAD"]],
    ["an export", ["export", "no-such-rev"]],
    ["an export listing", ["export", "--list", "no-such-rev"]],
  ];
  it.each(cases)("in %s is a usage error whose hint fits every command", (_, args) => {
    const repo = committedRepo();
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toBe(
      "git-review-remote: unknown revision: no-such-rev\n" +
        "hint: name a commit, branch or tag, such as HEAD~1 or main (git log --oneline lists commits)\n",
    );
  });
});
