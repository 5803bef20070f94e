// The built-in reviewer as a user meets it on a crafted repository, and what any reviewer is told
// of the change: both through `git review-remote` with workers configured as users configure them.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, useReviewerWorker } from "../helpers/fixtures.js";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const RECORD_FOCUS = join(FIXTURES, "reviewers", "record-focus.sh");
const repos = repoTracker();

/** A review with `--json` that must succeed: what it printed, and the branch of its proposals. */
function reviewed(repo: TestRepo, ...args: string[]): { stdout: string; stderr: string; branch: string } {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  return { stdout: result.stdout, stderr: result.stderr, branch: JSON.parse(result.stdout).branch };
}

/** Every line the review branch changes against HEAD, as `git diff` prints them. */
function proposedLines(repo: TestRepo, branch: string): string[] {
  return repo
    .git("diff", "--no-color", "--no-prefix", "HEAD", branch)
    .split("\n")
    .filter((line) => /^[-+]/.test(line) && !/^(?:---|\+\+\+) /.test(line));
}

describe("hygiene, safe to merge", () => {
  it("makes exactly one fix, on the one changed line with trailing whitespace", () => {
    const repo = repos.add(createTestRepo());
    repo.write(".editorconfig", "root = true\n\n[*.txt]\ntrim_trailing_whitespace = false\n");
    repo.write(".gitattributes", "legacy.cfg -whitespace\n");
    repo.write("src/app.ts", "export const a = 1;\nexport const old = 0;   \n");
    repo.write("README.md", "# Title\n");
    repo.commit("base");
    repo.write("src/app.ts", "export const a = 2;   \nexport const old = 0;   \n");
    repo.write("README.md", "# Title\n\nFirst line  \nsecond line\\\nthird line\n");
    repo.write("src/__snapshots__/app.test.ts.snap", "exports[`app 1`] = `\n  indented  \n`;\n");
    repo.write("legacy.cfg", "key = value   \n");
    repo.write("notes.txt", "kept as typed  \n");
    repo.commit("the change");
    const { branch } = reviewed(repo);
    expect(proposedLines(repo, branch)).toEqual(["-export const a = 2;   ", "+export const a = 2;"]);
  });
});

describe("generated and vendored files", () => {
  it("are neither fixed nor reported, even in a whole-tree review", () => {
    const repo = repos.add(createTestRepo());
    repo.write(
      ".gitattributes",
      "dist/** linguist-generated\n.yarn/releases/** linguist-vendored\nkept.js -linguist-generated\n",
    );
    repo.write("dist/bundle.js", "var a = 1;   \n");
    // A committed Yarn release: large, and the project's deliberate choice.
    repo.write(".yarn/releases/yarn-4.0.0.cjs", `${"x".repeat(1_200_000)}  \n`);
    repo.write("kept.js", "var k = 1;  \n");
    repo.commit("base");
    const result = reviewed(repo, "--all");
    expect(proposedLines(repo, result.branch)).toEqual(["-var k = 1;  ", "+var k = 1;"]);
    expect(result.stdout).not.toContain("yarn-4.0.0.cjs");
  });
});

describe("snapshot tests' inputs", () => {
  it("leaves the files beside a test directory's snapshots as they were written", () => {
    const repo = repos.add(createTestRepo());
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.write("tests/format/js/in/format.test.js", "runFormatTest(import.meta, ['babel']);\n");
    repo.write("tests/format/js/in/__snapshots__/format.test.js.snap", "exports[`x`] = `\nold\n`;\n");
    repo.write("src/components/__snapshots__/Button.test.tsx.snap", "exports[`b`] = `ok`;\n");
    repo.commit("base");
    // A new case whose input keeps a trailing space, as prettier's tests/format/**/ inputs do: the
    // snapshot prints the input verbatim, so "fixing" it would fail the test.
    repo.write("tests/format/js/in/10732.js", "type A<\n    T in \n> = T;\n");
    repo.write(
      "tests/format/js/in/__snapshots__/format.test.js.snap",
      "exports[`10732.js`] = `\ntype A<\n    T in \n> = T;\n`;\n",
    );
    repo.write("src/components/Button.tsx", "export const b = 1;  \n");
    repo.write("src/app.ts", "export const a = 2;   \n");
    repo.commit("the change");
    const { branch } = reviewed(repo);
    expect(proposedLines(repo, branch)).toEqual([
      "-export const a = 2;   ",
      "+export const a = 2;",
      "-export const b = 1;  ",
      "+export const b = 1;",
    ]);
  });
});

/**
 * A change of a small file's trailing blanks beside a large file of `rows` at `path`: the large one's
 * lines are left out of the request, and the small one's line is still fixed.
 */
function expectSmallFileFixedBeside(path: string, rows: readonly string[]): void {
  const repo = repos.add(createTestRepo());
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.write("src/app.ts", "export const a = 2;   \n");
  repo.write(path, `${rows.join("\n")}\n`);
  repo.commit("the change");
  const result = reviewed(repo);
  expect(result.stderr).toMatch(/too large to send whole; the reviewer gets the lines of 1 of its 2 files/);
  expect(proposedLines(repo, result.branch)).toEqual(["-export const a = 2;   ", "+export const a = 2;"]);
}

describe("a change whose patch is too large to send whole", () => {
  it("still fixes the line of a small file beside a large one, and says what was left out", () => {
    // A lock file's worth of changed lines, well over what a request carries.
    const rows = Array.from({ length: 20_000 }, (_, i) => `package-${i}@1.0.${i}: resolved ${i}  `);
    expectSmallFileFixedBeside("deps.lock", rows);
  });
});

describe("a change whose request line would be longer than a worker reads", () => {
  it("leaves out a patch that fits by its bytes but not once escaped in the line, and reviews the rest", () => {
    // A snapshot of coloured output: under the patch limit as bytes, each escape six bytes in JSON.
    const rows = Array.from({ length: 18_000 }, () => "\x1b[m".repeat(8));
    expectSmallFileFixedBeside("__snapshots__/colors.snap", rows);
  });

  it("is refused before anything is sent when its changed paths alone are too many, and nothing changes", () => {
    const repo = repos.add(createTestRepo());
    repo.write("README.md", "# Title\n");
    repo.commit("base");
    const dir = `${"generated-".repeat(10)}/${"fixtures-".repeat(11)}`;
    for (let i = 0; i < 5200; i++) repo.write(`${dir}/case-${i}.txt`, `${i}\n`);
    repo.commit("many files");
    const refused = runUnchanged(repo, [], 1);
    expect(refused.stderr).toMatch(
      /^git-review-remote: the review's request would be \d+ bytes, more than the 1048576 a worker reads: the change names 5200 paths$/m,
    );
    expect(refused.stderr).toContain(
      "hint: review part of the change (git review-remote <rev> -- <pathspec>) or the tree alone (--all <rev>)\n",
    );
    // No worker was asked: no audit line, no review record.
    const store = join(repo.dir, ".git", "review-remote");
    expect(existsSync(join(store, "audit.jsonl"))).toBe(false);
    expect(existsSync(join(store, "reviews")) ? readdirSync(join(store, "reviews")) : []).toEqual([]);
    const part = repo.run(["HEAD", "--", `${dir}/case-1*`]);
    expect(part.status, part.stderr).toBe(0);
  });
});

describe("what a reviewer is told of the change", () => {
  function recordingRepo(): TestRepo {
    const repo = repos.add(createTestRepo());
    useReviewerWorker(repo, "rec", RECORD_FOCUS);
    repo.write("README.md", "# Title\n");
    repo.write("src/app.ts", "a\nb\nc\n");
    repo.write("gone.txt", "gone\n");
    repo.commit("base");
    repo.write("README.md", "# Title\n\nMore.\n");
    repo.write("src/app.ts", "a\nB\nc\n");
    repo.git("rm", "-q", "gone.txt");
    repo.commit("the change");
    return repo;
  }

  it("names the changed paths in the tree in $REVIEW_REMOTE_CHANGED and every change's lines in $REVIEW_REMOTE_CHANGED_LINES", () => {
    const repo = recordingRepo();
    const { branch } = reviewed(repo);
    expect(repo.git("show", `${branch}:seen-env.txt`)).toBe("CHANGED=set\nCHANGED_LINES=set\n");
    expect(repo.git("show", `${branch}:seen-changed.txt`)).toBe("README.md|src/app.ts|");
    expect(JSON.parse(repo.git("show", `${branch}:seen-lines.json`))).toEqual({
      schema: "git-review-remote/changed-lines@1",
      base: repo.git("rev-parse", "HEAD^").trim(),
      head: repo.git("rev-parse", "HEAD").trim(),
      complete: true,
      files: [
        { path: "README.md", added: [[2, 3]], hunks: [[1, 3]] },
        { path: "gone.txt", added: [], hunks: [] },
        { path: "src/app.ts", added: [[2, 2]], hunks: [[1, 3]] },
      ],
    });
  });

  it("sets neither in a whole-tree review", () => {
    const repo = recordingRepo();
    const { branch } = reviewed(repo, "--all");
    expect(repo.git("show", `${branch}:seen-env.txt`)).toBe("CHANGED=\nCHANGED_LINES=\n");
    expect(repo.git("ls-tree", "--name-only", branch)).not.toContain("seen-changed.txt");
  });
});
