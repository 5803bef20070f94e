// The README's linter recipes, as a user sets them up: a worker host whose --tools directory holds
// the real ESLint (with eslint-formatter-rdjson), Biome, ast-grep and Prettier (this package's own
// devDependencies) and Debian's ShellCheck, reached through `git review-remote` with each recipe
// configured as a worker. A crafted repository with known problems must come back with each tool's
// rule ids on the right lines and proposals that are each tool's own fixes.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, FIXTURES } from "../helpers/fixtures.js";
import {
  BIOME_UNSAFE_RECIPE,
  CHANGED_FILES_RECIPES,
  proposed,
  RECIPES,
  recipeFlags,
  review,
  TOOLS,
  type Tool,
  workerCommand,
} from "../helpers/recipes.js";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";
import { ESLINT_PLACES, places } from "../helpers/reviewer-formats.js";

const repos = repoTracker();
const scratch = mkdtempSync(join(tmpdir(), "rr-recipes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BIN_DIR = join(TOOLS, "node_modules", ".bin");
const CRAFTED = join(FIXTURES, "reviewer-formats", "tree");

/** What each tool's own write mode does to a copy of the crafted tree (run here, outside any worker). */
const OWN_FIXES: Record<Tool, string> = {
  eslint: `${BIN_DIR}/eslint --fix src || true`,
  biome: `${BIN_DIR}/biome lint --write src >/dev/null 2>&1 || true`,
  "ast-grep": `${BIN_DIR}/ast-grep scan --update-all >/dev/null`,
  shellcheck: "shellcheck -f diff scripts/*.sh | git apply",
  prettier: `${BIN_DIR}/prettier --write src/ugly.js >/dev/null`,
};

function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.parentPath.includes(".git")) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path, "latin1"));
  }
  return files;
}

/** The files the tool's own write mode changed, with their new contents. */
function ownFixes(tool: Tool, command = OWN_FIXES[tool]): Record<string, string> {
  const copy = mkdtempSync(join(scratch, `${tool}-`));
  cpSync(CRAFTED, copy, { recursive: true });
  const before = filesOf(copy);
  execFileSync("sh", ["-c", command], { cwd: copy, stdio: ["ignore", "ignore", "inherit"] });
  const changed: Record<string, string> = {};
  for (const [path, content] of filesOf(copy)) if (before.get(path) !== content) changed[path] = content;
  return changed;
}

/** The worker `changed`: the README's ESLint and ShellCheck recipes over the changed files, in order. */
function useChangedFilesRecipes(repo: TestRepo): void {
  const flags = (["eslint", "shellcheck"] as const).flatMap((tool) => [
    "--reviewer-command",
    CHANGED_FILES_RECIPES[tool],
    "--reviewer-format",
    tool === "eslint" ? "rdjson" : "diff",
  ]);
  configureWorker(repo, "changed", workerCommand(...flags));
}

function craftedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  cpSync(CRAFTED, repo.dir, { recursive: true });
  repo.commit("a project with known problems");
  return repo;
}

describe("linter recipes on a worker with a tools directory", () => {
  const expectedPlaces: Record<Tool, string[]> = {
    eslint: [...ESLINT_PLACES],
    // What Biome's own safe fixes (useConst) leave: the findings whose fixes are unsafe, or none.
    biome: [
      "src/app.js:6 lint/correctness/noUnusedVariables",
      "src/app.js:6 lint/correctness/noUnusedVariables",
      "src/ugly.js:1 lint/correctness/noUnusedVariables",
      "src/ugly.js:3 lint/correctness/noUnusedVariables",
      "src/app.js:3 lint/suspicious/noDoubleEquals",
    ],
    "ast-grep": ["src/crlf.js:3 no-console-log", "src/app.js:4 no-console-log"],
    shellcheck: [],
    prettier: [],
  };
  const messages: Record<Tool, RegExp> = {
    eslint: /^eslint: 7 fixes \(no-var, prefer-const, eol-last\)$/,
    biome: /^biome --write: 2 files changed \(src\/app\.js, src\/crlf\.js\)$/,
    "ast-grep": /^ast-grep: 2 fixes \(no-console-log\)$/,
    shellcheck: /^shellcheck: 1 file changed \(scripts\/deploy\.sh\)$/,
    prettier: /^prettier --write: 1 file changed \(src\/ugly\.js\)$/,
  };

  it.each(Object.keys(RECIPES) as Tool[])(
    "%s: its rule ids on the right lines, its own fixes proposed",
    (tool) => {
      const repo = craftedRepo();
      configureWorker(repo, tool, workerCommand(...recipeFlags(tool)));
      const result = review(repo, ["--all", "--worker", tool]);
      expect(places(result.comments).sort()).toEqual([...expectedPlaces[tool]].sort());
      expect(proposed(repo, result.branch)).toEqual(ownFixes(tool));
      expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toMatch(messages[tool]);
      expect(result.summary).toMatch(
        new RegExp(`- ${tool === "prettier" || tool === "biome" ? `${tool} --write` : tool} \\d+\\.\\d+`),
      );
      // Prettier's --write prints a line per file, a remote: line each on a large tree: not with
      // the recipe's --log-level=warn.
      if (tool === "prettier") expect(result.stderr).not.toMatch(/^remote: .*ugly\.js/m);
      // ESLint's eqeqeq offers `===` as an editor suggestion only, Biome's noDoubleEquals as an unsafe
      // fix: neither is what the tool's write mode applies, so the `==` stays, with its comment.
      if (tool === "eslint" || tool === "biome")
        expect(proposed(repo, result.branch)["src/app.js"]).toContain("if (count == 1)");
      // Biome's rdjson held the unsafe fixes of what its --write left: counted, not applied. Its exit 1
      // comes with "Some errors were emitted" on stderr: shown, as git shows a remote's stderr, on a
      // review that succeeded.
      if (tool === "biome") expect(result.stderr).toMatch(/^remote: .*Some errors were emitted/m);
      if (tool === "biome")
        expect(result.summary).toMatch(
          /, rdjson, fixes none, exit 1, .*: 5 comments, 0 of 5 fixes applied, 2 files changed$/m,
        );
    },
  );

  it("runs them all in order on one worker: a commit each that changed files, comments merged", () => {
    const repo = craftedRepo();
    const flags = (Object.keys(RECIPES) as Tool[]).flatMap(recipeFlags);
    configureWorker(repo, "lint", workerCommand(...flags));
    const result = review(repo, ["--all", "--worker", "lint"]);
    const subjects = repo.git("log", "--reverse", "--format=%s", `HEAD..${result.branch}`).trim().split("\n");
    // ESLint's prefer-const fixes leave Biome's safe fixes (useConst) nothing to write: no commit.
    expect(subjects.map((subject) => subject.split(":")[0])).toEqual([
      "eslint",
      "ast-grep",
      "shellcheck",
      "prettier --write",
    ]);
    // Each finds what the ones before left: ESLint's prefer-const fixes leave Biome's useConst nothing.
    const rules = new Set(result.comments.map((comment) => comment.rule));
    for (const rule of ["no-var", "lint/suspicious/noDoubleEquals", "no-console-log"])
      expect(rules).toContain(rule);
    expect(result.summary.match(/^- /gm)).toHaveLength(5);
  });

  it("eslint: a file it cannot parse is a comment, not a failed reviewer; one it ignores is none", () => {
    // ESLint reports both without a rule id, and its rdjson formatter writes `"code": {"value": null}`;
    // "File ignored because no matching configuration was supplied" is about ESLint, not the file.
    const repo = craftedRepo();
    repo.write("src/broken.js", "export const broken = (;\n");
    repo.write("notes.md", "# Notes\n");
    repo.commit("a file that does not parse");
    const command = `${RECIPES.eslint.command} notes.md`;
    configureWorker(
      repo,
      "eslint",
      workerCommand("--reviewer-command", command, "--reviewer-format", "rdjson"),
    );
    const result = review(repo, ["--all", "--worker", "eslint"]);
    expect(result.comments).toContainEqual(
      expect.objectContaining({
        path: "src/broken.js",
        line: 1,
        severity: "error",
        message: expect.stringMatching(/^Parsing error/),
      }),
    );
    expect(result.comments.filter((comment) => comment.path === "notes.md")).toEqual([]);
    expect(places(result.comments)).toEqual(expect.arrayContaining([...ESLINT_PLACES]));
  });

  it("biome's recipe for its unsafe fixes too: each finding's fixes, as biome lint --write --unsafe", () => {
    const repo = craftedRepo();
    const { command, format } = BIOME_UNSAFE_RECIPE;
    configureWorker(repo, "biome", workerCommand("--reviewer-command", command, "--reviewer-format", format));
    const result = review(repo, ["--all", "--worker", "biome"]);
    expect(proposed(repo, result.branch)).toEqual(
      ownFixes("biome", `${BIN_DIR}/biome lint --write --unsafe src >/dev/null 2>&1 || true`),
    );
    expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toBe(
      "biome: 10 fixes (lint/style/useConst, lint/correctness/noUnusedVariables, lint/suspicious/noDoubleEquals)",
    );
    expect(places(result.comments)).toHaveLength(10);
    // The default recipe leaves the unsafe ones (`==` to `===`) to the human: a comment, no edit.
    expect(readFileSync(join(CRAFTED, "src/app.js"), "utf8")).toContain(" == ");
    expect(proposed(repo, result.branch)["src/app.js"]).toContain(" === ");
  });

  it("a worker given --reviewer-fixes it does not know fails the review, and the repository is unchanged", () => {
    const repo = craftedRepo();
    const flags = recipeFlags("biome").map((flag) => (flag === "none" ? "safe" : flag));
    configureWorker(repo, "biome", workerCommand(...flags));
    const run = runUnchanged(repo, ["--all", "--worker", "biome", "--no-cache"], 3);
    expect(run.stderr).toContain(
      "remote: git-review-remote: --reviewer-fixes must be one of all, none, not 'safe'",
    );
    expect(run.stderr).toContain("worker 'biome' exited with status 2");
  });

  it("biome over the whole tree in a focused review: the counts and the title are the change's", () => {
    const repo = craftedRepo();
    repo.write("src/extra.js", "let more = 1;\nexport { more };\n");
    repo.commit("a change to one file");
    const { command, format } = BIOME_UNSAFE_RECIPE;
    configureWorker(repo, "biome", workerCommand("--reviewer-command", command, "--reviewer-format", format));
    const run = repo.run(["--worker", "biome"]);
    expect(run.status, run.stderr).toBe(0);
    // The review kept one comment and one file's fix: its line says so, and what it left out after.
    expect(run.stdout).toMatch(
      /^Review ([0-9a-f]{12}) by biome \[sandbox: [^\]]+\]: 1 comment, 1 proposed commit$/m,
    );
    const id = run.stdout.match(/^Review ([0-9a-f]{12})/m)?.[1] ?? "";
    expect(run.stdout).toContain("  src/extra.js:1 ");
    expect(run.stdout).toContain(
      `  10 comments outside the change hidden (--filter-mode=added); see git review-remote show ${id}`,
    );
    expect(run.stdout).toContain(
      "  10 fixes in 3 files outside the change left out (--filter-mode=nofilter keeps them)",
    );
    const message = repo.git("log", "-1", "--format=%B", `review/${id}`);
    expect(message).toMatch(
      /^biome: 1 fix \(lint\/style\/useConst\)\n\nsrc\/extra\.js: 1 fix \(lint\/style\/useConst\)\n\nKept to the reviewed change: 1 of the 4 files this commit changed/,
    );
    expect(Object.keys(proposed(repo, `review/${id}`))).toEqual(["src/extra.js"]);
    expect(repo.run(["show", id]).stdout).toContain("\nresult   1 comment, 1 proposed commit\n");
    expect(repo.run(["list"]).stdout).toMatch(
      new RegExp(
        `^${id} .* 1 comment \\(\\d+ errors?\\), 1 proposed commit; 10 comments outside the change hidden$`,
        "m",
      ),
    );
    // Every fix kept, the title is the worker's own again.
    const all = repo.run(["--worker", "biome", "--filter-mode=nofilter"]);
    expect(all.stdout).toMatch(/: 11 comments, 1 proposed commit$/m);
    const whole = all.stdout.match(/^Review ([0-9a-f]{12})/m)?.[1] ?? "";
    expect(repo.git("log", "-1", "--format=%s", `review/${whole}`)).toMatch(/^biome: 11 fixes \(/);
  });

  it("gives the changed files' recipes a file named like an option as a file: --fix.js, -x.sh", () => {
    const repo = craftedRepo();
    repo.write("src/extra.js", "let more = 1;\nexport { more };\n");
    repo.write("scripts/new.sh", "#!/bin/sh\necho $1\n");
    // Read as options, `-x.sh` stopped ShellCheck ("unrecognized option"), and `--fix.js` was no file
    // to ESLint (`--fix` turned on its fixing). Both are clean: nothing is proposed to them.
    repo.write("--fix.js", "export const notes = 1;\n");
    repo.write("-x.sh", '#!/bin/sh\necho "$1"\n');
    repo.commit("a change with files named like options");
    useChangedFilesRecipes(repo);
    const result = review(repo, ["--worker", "changed"]);
    expect(places(result.comments)).toEqual(["src/extra.js:1 prefer-const"]);
    expect(Object.keys(proposed(repo, result.branch)).sort()).toEqual(["scripts/new.sh", "src/extra.js"]);
    expect(repo.git("log", "--format=%s", `HEAD..${result.branch}`).split("\n").filter(Boolean)).toEqual([
      "shellcheck: 1 file changed (scripts/new.sh)",
      expect.stringMatching(/^eslint: 1 fix \(prefer-const\)/),
    ]);
  });

  it("lints nothing when the change leaves no file in the tree: a deletion alone", () => {
    const repo = craftedRepo();
    repo.git("rm", "-q", "src/noeol.js");
    repo.commit("a change that only deletes");
    useChangedFilesRecipes(repo);
    const result = review(repo, ["--worker", "changed"]);
    // Given no file, ESLint linted the whole tree: its findings there came back, hidden.
    expect(result.comments).toEqual([]);
    expect(result.hiddenComments).toBe(0);
    expect(result.branch).toBeNull();
  });

  it("lints only the changed files of a focused review, a deleted one and a README among them", () => {
    const repo = craftedRepo();
    repo.write("src/extra.js", "let more = 1;\nexport { more };\n");
    repo.write("scripts/new.sh", "#!/bin/sh\necho $1\n");
    repo.write("notes.md", "# Notes\n");
    repo.git("rm", "-q", "src/noeol.js");
    repo.commit("a change that adds, edits and deletes");
    useChangedFilesRecipes(repo);
    const result = review(repo, ["--worker", "changed"]);
    expect(places(result.comments)).toEqual(["src/extra.js:1 prefer-const"]);
    expect(result.hiddenComments).toBe(0);
    expect(Object.keys(proposed(repo, result.branch)).sort()).toEqual(["scripts/new.sh", "src/extra.js"]);
  });
});
