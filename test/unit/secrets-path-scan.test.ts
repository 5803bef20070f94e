// A path leaves with the bundle as its tar entry's name: a credential in a file or directory name is
// a finding, as one in the file's content is.
import { describe, expect, test } from "vitest";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";

const scanner = createContentScanner();

describe("a credential in a path", () => {
  test.each([
    [`cache/${fake.githubPat()}.json`, "github-pat"],
    [`tokens/${fake.stripeLive()}/config.yaml`, "stripe-access-token"],
    [`keys/${fake.awsKeyId()}`, "aws-access-token"],
  ])("%s is a %s finding on the path itself", (path, rule) => {
    const [finding, ...rest] = scanner.scanPath(path);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      path,
      line: 1,
      rule,
      description: expect.stringMatching(/in the path itself$/),
    });
    expect(finding?.redacted).toMatch(/^.{1,4}…$/);
  });

  test("ordinary paths find nothing", () => {
    for (const path of [
      "src/app.ts",
      "docs/ghp_prefix.md",
      "tests/fixtures/sk_live_notes.txt",
      "a/b/c/d.json",
    ]) {
      expect(scanner.scanPath(path), path).toEqual([]);
    }
  });

  test("a policy allow by path lets it through, and says so", () => {
    const path = `testdata/${fake.githubPat()}.json`;
    const allowing = createContentScanner({ allow: [{ path: "testdata/**" }] });
    expect(allowing.scanPath(path)).toEqual([]);
    expect(allowing.allowed().map((finding) => finding.path)).toEqual([path]);
  });
});
