// Degrade, never discard: a result with a bad comment among good ones, or proposals over a limit, still
// brings in what is valid, says what was dropped and how to get it; a hostile result is still refused whole.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, createBaseRepo, FIXTURES, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const BENIGN = JSON.parse(readFileSync(join(FIXTURES, "results", "01-benign-result.json"), "utf8"));
const GOOD = { path: "src/app.ts", line: 4, severity: "info", message: "Consider validating the total." };

const repos = repoTracker();
function baseRepo(): TestRepo {
  const repo = createBaseRepo();
  repos.add(repo);
  return repo;
}

/** A result template beside the repo, served by the fixture worker as worker `fake`. */
function serve(repo: TestRepo, changes: Record<string, unknown>): void {
  const file = join(repo.home, "result.json");
  writeFileSync(file, JSON.stringify({ ...BENIGN, ...changes }));
  configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, file));
}

function storedRecord(repo: TestRepo, id: string) {
  return JSON.parse(
    readFileSync(join(repo.dir, ".git", "review-remote", "reviews", id, "state.json"), "utf8"),
  );
}

describe("invalid comments", () => {
  it("drops a bad comment among good ones with a counted warning and imports the rest (exit 0)", () => {
    const repo = baseRepo();
    serve(repo, {
      comments: [
        GOOD,
        { path: "src/app.ts", line: 4000, severity: "warning", message: "Out of range." },
        { path: "src/nowhere.ts", line: 1, severity: "error", message: "Unknown path." },
        { path: "src/app.ts", line: 2, severity: "critical", message: "Bad severity." },
        { path: "src/app.ts", line: 3, severity: "warning", message: "Also fine." },
      ],
    });
    const result = repo.run(["--worker", "fake", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.comments.map((c: { message: string }) => c.message)).toEqual([
      "Consider validating the total.",
      "Also fine.",
    ]);
    expect(json.branch).toBe(`review/${json.id}`);
    expect(repo.git("diff", "--stat", "HEAD", json.branch)).toContain("src/app.ts | 3 +++");
    expect(result.stderr).toContain(
      "warning: dropped 3 invalid comments of worker 'fake'; the others were imported",
    );
    expect(result.stderr).toMatch(/^ {2}comments\.1\.line: src\/app\.ts has \d+ lines, not 4000$/m);
    expect(result.stderr).toContain('  comments.2.path: "src/nowhere.ts" was not sent to the worker');
    expect(result.stderr).toContain(
      '  comments.3.severity: must be one of "error", "warning", "info" (got "critical")',
    );
    expect(json.reviews[0].dropped).toEqual([expect.objectContaining({ part: "comments", count: 3 })]);
    // The record keeps what was dropped: a second run answered from the store says it again.
    expect(storedRecord(repo, json.id).dropped[0].count).toBe(3);
    const again = repo.run(["--worker", "fake"]);
    expect(again.stdout).toContain("(cached: the worker was not contacted)");
    expect(again.stderr).toContain("warning: dropped 3 invalid comments of worker 'fake'");
    expect(repo.run(["show", json.id]).stdout).toMatch(/^dropped {2}3 comments: comments\.1\.line: /m);
  });

  it("counts one dropped comment as one, in the warning and in show", () => {
    const repo = baseRepo();
    serve(repo, {
      comments: [GOOD, { path: "src/nowhere.ts", line: 1, severity: "error", message: "Unknown path." }],
    });
    const result = repo.run(["--worker", "fake", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { id } = JSON.parse(result.stdout) as { id: string };
    expect(result.stderr).toContain("warning: dropped 1 invalid comment of worker 'fake'");
    expect(repo.run(["show", id]).stdout).toMatch(/^dropped {2}1 comment: comments\.1\.path: /m);
  });

  it("says a worker whose every comment was dropped sent no others, not that they were imported", () => {
    const repo = baseRepo();
    serve(repo, {
      comments: [{ path: "src/nowhere.ts", line: 1, severity: "error", message: "Unknown path." }],
    });
    const result = repo.run(["--worker", "fake"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: 0 comments, 1 proposed commit$/m);
    expect(result.stderr).toContain(
      "warning: dropped 1 invalid comment of worker 'fake'; it sent no others\n",
    );
  });

  it("keeps a comment at the end of a file, past its last newline, on its last line", () => {
    const repo = baseRepo();
    const lines = readFileSync(join(repo.dir, "src/app.ts"), "utf8").split("\n").length - 1;
    // Where a parser says the file ended too soon: line 1 past the last, column 1 (Biome, ESLint).
    const atEnd = {
      path: "src/app.ts",
      line: lines + 1,
      severity: "error",
      message: "Unexpected end of file.",
    };
    serve(repo, { comments: [GOOD, atEnd] });
    const result = repo.run(["--worker", "fake", "--filter-mode=nofilter", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("dropped");
    const json = JSON.parse(result.stdout);
    expect(json.comments).toContainEqual({ ...atEnd, line: lines });
    expect(json.reviews[0].dropped).toEqual([]);
  });

  it("keeps the most severe comments up to review-remote.maxComments, with a hint to raise it", () => {
    const repo = baseRepo();
    const info = (line: number) => ({ path: "src/app.ts", line, severity: "info", message: `Note ${line}.` });
    serve(repo, { comments: [info(1), info(2), { ...info(3), severity: "error" }, info(4)] });
    repo.git("config", "review-remote.maxComments", "2");
    const result = repo.run(["--worker", "fake", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).comments.map((c: { line: number }) => c.line)).toEqual([1, 3]);
    expect(result.stderr).toContain(
      "warning: dropped 2 comments of worker 'fake' over the limit; the most severe were kept",
    );
    expect(result.stderr).toContain(
      "hint: or raise the limit: git config review-remote.maxComments <n> (at most 20000",
    );
  });
});

describe("proposals over a limit", () => {
  it("drops them with a hint, imports and shows the comments, and raising the limit brings them in", () => {
    const repo = baseRepo();
    serve(repo, {});
    repo.git("config", "review-remote.maxPatchBytes", "100");
    const refs = repoState(repo).refs ?? "";
    const result = repo.run(["--worker", "fake"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("  src/app.ts:4 info Consider validating the total.");
    expect(result.stdout).toContain("No proposals: they went over a limit (see the warning).");
    expect(result.stderr).toContain(
      "warning: dropped the 1 proposed commit of worker 'fake' over a limit; its comments were imported",
    );
    expect(result.stderr).toMatch(/^ {2}commits: patches total \d+ bytes, over the limit of 100$/m);
    expect(result.stderr).toContain("hint: review less at once: a shorter range, or a pathspec");
    expect(result.stderr).toContain(
      "hint: or raise the limit: git config review-remote.maxPatchBytes <n> (at most 33554432",
    );
    // No branch: only the comments' note was added.
    expect(repo.git("branch", "--list", "review/*")).toBe("");
    const notNotes = (text: string) => text.split("\n").filter((line) => !line.startsWith("refs/notes/"));
    expect(notNotes(repoState(repo).refs ?? "")).toEqual(notNotes(refs));

    repo.git("config", "review-remote.maxPatchBytes", "1m");
    const raised = repo.run(["--worker", "fake", "--json"]);
    expect(raised.status, raised.stderr).toBe(0);
    expect(JSON.parse(raised.stdout).branch).toMatch(/^review\/[0-9a-f]{12}$/);
    expect(raised.stderr).not.toContain("warning: dropped");
  });

  it("refuses the result whole (exit 4, repo unchanged) when nothing but the proposals was sent", () => {
    const repo = baseRepo();
    serve(repo, { comments: [] });
    repo.git("config", "review-remote.maxCommits", "1");
    const commit = BENIGN.commits[0];
    serve(repo, { comments: [], commits: [commit, { ...commit, message: "Again" }] });
    const result = runUnchanged(repo, ["--worker", "fake"], 4);
    expect(result.stderr).toContain("git-review-remote: rejected the proposals of worker 'fake'");
    expect(result.stderr).toContain("  commits: 2 commits, over the limit of 1");
    expect(result.stderr).toContain(
      "hint: or raise the limit: git config review-remote.maxCommits <n> (at most 200",
    );
  });

  it("the local worker leaves proposals over maxPatchBytes out, and its comments still come in", () => {
    const repo = repos.add(createTestRepo());
    const lines = Array.from({ length: 40 }, (_, i) => `const value${i} = ${i};   `).join("\n");
    repo.write("src/a.ts", `${lines}\n`);
    repo.write("src/merge.ts", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n");
    repo.commit();
    repo.git("config", "review-remote.maxPatchBytes", "200");
    const result = repo.run(["--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.branch).toBeNull();
    expect(json.comments).toContainEqual(
      expect.objectContaining({ path: "src/merge.ts", severity: "error" }),
    );
    expect(json.comments).toContainEqual(
      expect.objectContaining({ rule: "limits.maxPatchBytes", severity: "warning" }),
    );
    expect(json.summary).toMatch(/^The proposed changes were left out: .*over the limit of 200 bytes\.\n\n/);
    expect(result.stderr).toContain("warning: dropped the proposals of worker 'local' over a limit");
    expect(result.stderr).toContain("hint: or raise the limit: git config review-remote.maxPatchBytes <n>");
    // The reason is said by the imported comment, not repeated by the warning.
    expect(result.stderr).not.toContain("The proposed changes were left out");
    const shown = repo.run(["show", json.id]);
    expect(shown.stdout).toContain("dropped  proposals: over a limit (see the comments)");
    expect(shown.stdout).toContain("warning The proposed changes were left out");
    expect(repo.git("branch", "--list", "review/*")).toBe("");
    // The note is about the review, not the code: no finding for --fail-level.
    expect(repo.run(["--fail-level", "warning"]).status).toBe(7);
    expect(repo.run(["--fail-level", "error"]).status).toBe(7);
    repo.write("src/merge.ts", "fine\n");
    repo.commit("resolved");
    const noted = repo.run(["--all", "--fail-level", "warning", "--json"]);
    expect(JSON.parse(noted.stdout).comments).toContainEqual(
      expect.objectContaining({ rule: "limits.maxPatchBytes" }),
    );
    expect(noted.status, noted.stderr).toBe(0);
  });
});
