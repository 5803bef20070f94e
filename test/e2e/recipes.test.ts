// The README's reviewer recipes, as a user sets them up: a worker host whose --tools directory holds
// the real ESLint (with eslint-formatter-rdjson), Biome, ast-grep and Prettier (this package's own
// devDependencies, installed as `npm install --prefix` would) and Debian's ShellCheck, reached through
// `git review-remote` with each recipe configured as a worker. A crafted repository with known
// problems must come back with each tool's rule ids on the right lines and proposals that are each
// tool's own fixes; a project whose ESLint config imports a plugin reviews from a prepared dependency
// cache without network; an agent CLI's edits and summary come back too.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, PROJECT_ROOT, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
const scratch = mkdtempSync(join(tmpdir(), "rr-recipes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The tools directory: this package's install, laid out as `npm install --prefix DIR` lays one out. */
const TOOLS = PROJECT_ROOT;
const BIN_DIR = join(TOOLS, "node_modules", ".bin");
const RDJSON = join(TOOLS, "node_modules", "eslint-formatter-rdjson", "index.js");
const CRAFTED = join(FIXTURES, "reviewer-formats", "tree");
const AGENT = join(FIXTURES, "reviewers", "stand-in-agent.sh");

/** The recipes of the README: tool, command, format. */
const RECIPES = {
  eslint: { command: `eslint -f ${RDJSON} src`, format: "rdjson" },
  biome: { command: "biome lint --reporter=rdjson src", format: "rdjson" },
  "ast-grep": { command: "ast-grep scan --format=sarif", format: "sarif" },
  shellcheck: { command: "shellcheck -f diff scripts/*.sh", format: "diff" },
  prettier: { command: "prettier --write src/ugly.js", format: "comments" },
} as const;
type Tool = keyof typeof RECIPES;

/** What each tool's own write mode does to a copy of the crafted tree (run here, outside any worker). */
const OWN_FIXES: Record<Tool, string> = {
  eslint: `${BIN_DIR}/eslint --fix src || true`,
  biome: `${BIN_DIR}/biome lint --write --unsafe src >/dev/null 2>&1 || true`,
  "ast-grep": `${BIN_DIR}/ast-grep scan --update-all >/dev/null`,
  shellcheck: "shellcheck -f diff scripts/*.sh | git apply",
  prettier: `${BIN_DIR}/prettier --write src/ugly.js >/dev/null`,
};

function workerCommand(...flags: string[]): string {
  return shellWords(process.execPath, BIN, "worker", "--sandbox=require", "--tools", TOOLS, ...flags);
}

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
function ownFixes(tool: Tool): Record<string, string> {
  const copy = mkdtempSync(join(scratch, `${tool}-`));
  cpSync(CRAFTED, copy, { recursive: true });
  const before = filesOf(copy);
  execFileSync("sh", ["-c", OWN_FIXES[tool]], { cwd: copy, stdio: ["ignore", "ignore", "inherit"] });
  const changed: Record<string, string> = {};
  for (const [path, content] of filesOf(copy)) if (before.get(path) !== content) changed[path] = content;
  return changed;
}

function craftedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  cpSync(CRAFTED, repo.dir, { recursive: true });
  repo.commit("a project with known problems");
  return repo;
}

interface Reviewed {
  branch: string;
  summary: string;
  comments: { path?: string; line?: number; rule?: string; severity: string; message: string }[];
}

function review(repo: TestRepo, args: string[]): Reviewed {
  const run = repo.run(["--json", "--no-cache", ...args]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

/** The branch's version of each path the tool changed. */
function proposed(repo: TestRepo, branch: string): Record<string, string> {
  const names = repo.git("diff", "--name-only", "HEAD", branch).trim().split("\n").filter(Boolean);
  return Object.fromEntries(
    names.map((path) => [
      path,
      execFileSync("git", ["show", `${branch}:${path}`], { cwd: repo.dir, env: repo.env }).toString("latin1"),
    ]),
  );
}

function places(comments: Reviewed["comments"]): string[] {
  return comments.map((comment) => `${comment.path}:${comment.line} ${comment.rule}`);
}

describe("linter recipes on a worker with a tools directory", () => {
  const expectedPlaces: Record<Tool, string[]> = {
    eslint: [
      "src/app.js:1 no-var",
      "src/app.js:2 prefer-const",
      "src/app.js:3 eqeqeq",
      "src/app.js:6 prefer-const",
      "src/app.js:6 no-unused-vars",
      "src/app.js:6 prefer-const",
      "src/app.js:6 no-unused-vars",
      "src/crlf.js:1 prefer-const",
      "src/crlf.js:2 prefer-const",
      "src/noeol.js:1 eol-last",
      "src/ugly.js:1 no-unused-vars",
      "src/ugly.js:3 no-unused-vars",
    ],
    biome: [
      "src/app.js:2 lint/style/useConst",
      "src/app.js:6 lint/style/useConst",
      "src/app.js:6 lint/style/useConst",
      "src/app.js:6 lint/correctness/noUnusedVariables",
      "src/app.js:6 lint/correctness/noUnusedVariables",
      "src/crlf.js:1 lint/style/useConst",
      "src/crlf.js:2 lint/style/useConst",
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
    biome:
      /^biome: 10 fixes \(lint\/style\/useConst, lint\/correctness\/noUnusedVariables, lint\/suspicious\/noDoubleEquals\)$/,
    "ast-grep": /^ast-grep: 2 fixes \(no-console-log\)$/,
    shellcheck: /^shellcheck: 1 file changed \(scripts\/deploy\.sh\)$/,
    prettier: /^prettier --write: 1 file changed \(src\/ugly\.js\)$/,
  };

  it.each(Object.keys(RECIPES) as Tool[])(
    "%s: its rule ids on the right lines, its own fixes proposed",
    (tool) => {
      const repo = craftedRepo();
      const { command, format } = RECIPES[tool];
      configureWorker(repo, tool, workerCommand("--reviewer-command", command, "--reviewer-format", format));
      const result = review(repo, ["--all", "--worker", tool]);
      expect(places(result.comments).sort()).toEqual([...expectedPlaces[tool]].sort());
      expect(proposed(repo, result.branch)).toEqual(ownFixes(tool));
      expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toMatch(messages[tool]);
      expect(result.summary).toMatch(
        new RegExp(`- ${tool === "prettier" ? "prettier --write" : tool} \\d+\\.\\d+`),
      );
    },
  );

  it("runs them all in order on one worker: one commit each, comments merged", () => {
    const repo = craftedRepo();
    const flags = (Object.keys(RECIPES) as Tool[]).flatMap((tool) => [
      "--reviewer-command",
      RECIPES[tool].command,
      "--reviewer-format",
      RECIPES[tool].format,
    ]);
    configureWorker(repo, "lint", workerCommand(...flags));
    const result = review(repo, ["--all", "--worker", "lint"]);
    const subjects = repo.git("log", "--reverse", "--format=%s", `HEAD..${result.branch}`).trim().split("\n");
    expect(subjects.map((subject) => subject.split(":")[0])).toEqual([
      "eslint",
      "biome",
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
});

describe("a project whose ESLint config imports a plugin", () => {
  /** A plugin package, as a tarball the project depends on: `npm ci` needs no network for it. */
  function pluginTarball(): string {
    const dir = mkdtempSync(join(scratch, "plugin-"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "eslint-plugin-demo", version: "1.0.0", main: "index.js" }),
    );
    writeFileSync(
      join(dir, "index.js"),
      `module.exports = { rules: { "no-foo": { meta: { type: "problem", fixable: "code" }, create(context) {
  return { Identifier(node) { if (node.name === "foo") context.report({ node, message: "No foo.", fix: (f) => f.replaceText(node, "bar") }); } };
} } } };\n`,
    );
    const name = execFileSync("npm", ["pack", "--silent"], { cwd: dir, encoding: "utf8" }).trim();
    return join(dir, name);
  }

  const SETUP = "npm ci --offline --ignore-scripts --no-audit --no-fund";
  const ESLINT = [
    "--reviewer-command",
    RECIPES.eslint.command.replace(" src", " ."),
    "--reviewer-format",
    "rdjson",
  ];

  function pluginProject(): TestRepo {
    const repo = repos.add(createTestRepo());
    mkdirSync(join(repo.dir, "vendor"));
    cpSync(pluginTarball(), join(repo.dir, "vendor", "eslint-plugin-demo-1.0.0.tgz"));
    repo.write(
      "package.json",
      `${JSON.stringify({ name: "demo", version: "1.0.0", private: true, devDependencies: { "eslint-plugin-demo": "file:vendor/eslint-plugin-demo-1.0.0.tgz" } }, null, 2)}\n`,
    );
    repo.write(".gitignore", "node_modules/\n");
    repo.write(
      "eslint.config.mjs",
      'import demo from "eslint-plugin-demo";\n\nexport default [{ files: ["**/*.js"], plugins: { demo }, rules: { "demo/no-foo": "error" } }];\n',
    );
    repo.write("src/x.js", "const foo = 1;\nexport default foo;\n");
    execFileSync("npm", ["install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: repo.dir,
      stdio: "ignore",
    });
    repo.commit("a project with a lint plugin");
    return repo;
  }

  function lockfileKey(repo: TestRepo): string {
    return createHash("sha256")
      .update(readFileSync(join(repo.dir, "package-lock.json")))
      .digest("hex");
  }

  function expectPluginFindings(repo: TestRepo, result: Reviewed): void {
    expect(places(result.comments)).toEqual(["src/x.js:1 demo/no-foo", "src/x.js:2 demo/no-foo"]);
    expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toBe("eslint: 2 fixes (demo/no-foo)");
    expect(proposed(repo, result.branch)).toEqual({ "src/x.js": "const bar = 1;\nexport default bar;\n" });
  }

  it("reviews after --setup-command restored its dependencies from a prepared --cache-dir, with no network", () => {
    const repo = pluginProject();
    // The host prepares the cache once, as the README says: what `npm ci` makes, under the lockfile's sha256.
    const cache = mkdtempSync(join(scratch, "cache-"));
    const key = lockfileKey(repo);
    cpSync(join(repo.dir, "node_modules"), join(cache, key, "node_modules"), { recursive: true });
    configureWorker(repo, "lint", workerCommand("--setup-command", SETUP, "--cache-dir", cache, ...ESLINT));
    const result = review(repo, ["--all", "--worker", "lint"]);
    expect(result.summary).toContain(
      `Setup: restored from the cache for package-lock.json ${key.slice(0, 12)}`,
    );
    expectPluginFindings(repo, result);

    // Without its dependencies the same config cannot load: ESLint leaves no report, and says why.
    configureWorker(repo, "bare", workerCommand(...ESLINT));
    const bare = repo.run(["--json", "--no-cache", "--all", "--worker", "bare"]);
    expect(bare.status).toBe(3);
    expect(bare.stderr).toContain("Cannot find package 'eslint-plugin-demo'");
    expect(bare.stderr).toContain(
      "rdjson: not valid JSON: empty document (line 1, column 1) (the reviewer exited with code 2)",
    );
  });

  it("fills an empty --cache-dir with what npm ci installed in the sandbox, without network", () => {
    const repo = pluginProject();
    const cache = mkdtempSync(join(scratch, "cache-"));
    const key = lockfileKey(repo);
    configureWorker(repo, "lint", workerCommand("--setup-command", SETUP, "--cache-dir", cache, ...ESLINT));
    const first = review(repo, ["--all", "--worker", "lint"]);
    expect(first.summary).toContain(`Setup: \`${SETUP}\``);
    expect(first.summary).toContain(
      `added node_modules/; kept in the cache for package-lock.json ${key.slice(0, 12)}`,
    );
    expectPluginFindings(repo, first);
    expect(readdirSync(join(cache, key))).toEqual(["node_modules"]);
    const second = review(repo, ["--all", "--worker", "lint"]);
    expect(second.summary).toContain(
      `Setup: restored from the cache for package-lock.json ${key.slice(0, 12)}`,
    );
    expectPluginFindings(repo, second);
  });
});

describe("agent CLI recipes with a scripted stand-in agent", () => {
  /** The README's agent tools directory: the agent itself and one small script per pattern. */
  function agentTools(): string {
    const tools = mkdtempSync(join(scratch, "agent-"));
    mkdirSync(join(tools, "bin"));
    cpSync(AGENT, join(tools, "bin", "my-agent"));
    writeFileSync(
      join(tools, "bin", "review-agent"),
      '#!/bin/sh\nexec my-agent -p "$REVIEW_REMOTE_QUESTION" > "$REVIEW_REMOTE_SUMMARY"\n',
      { mode: 0o755 },
    );
    writeFileSync(
      join(tools, "bin", "review-agent-exec"),
      '#!/bin/sh\nexec my-agent exec "$REVIEW_REMOTE_QUESTION"\n',
      {
        mode: 0o755,
      },
    );
    execFileSync("chmod", ["-R", "a+rX", scratch]);
    return tools;
  }

  function agentRepo(script: string): TestRepo {
    const repo = repos.add(createTestRepo());
    repo.write("src/a.js", "export const same = (a, b) => a == b;\n");
    repo.commit("a loose comparison");
    const worker = shellWords(
      process.execPath,
      BIN,
      "worker",
      "--sandbox=require",
      "--network",
      "--tools",
      agentTools(),
      "--reviewer-command",
      script,
    );
    configureWorker(repo, "agent", worker);
    return repo;
  }

  it("print mode: the prompt from $REVIEW_REMOTE_QUESTION, edits proposed, its answer the summary", () => {
    const repo = agentRepo("review-agent");
    const result = review(repo, ["--all", "--worker", "agent", "-m", "Use strict equality."]);
    expect(proposed(repo, result.branch)).toEqual({ "src/a.js": "export const same = (a, b) => a === b;\n" });
    expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toBe(
      "review-agent: 1 file changed (src/a.js)",
    );
    expect(result.summary).toContain("review-agent: Used strict equality in: src/a.js.");
  });

  it("autonomous mode: the agent's own commits are the proposals, with its messages", () => {
    const repo = agentRepo("review-agent-exec");
    const result = review(repo, ["--all", "--worker", "agent", "-m", "Use strict equality."]);
    expect(repo.git("log", "--format=%s", `HEAD..${result.branch}`).trim()).toBe("Use strict equality");
    expect(repo.git("log", "-1", "--format=%b", result.branch)).toContain("Asked: Use strict equality.");
    expect(proposed(repo, result.branch)).toEqual({ "src/a.js": "export const same = (a, b) => a === b;\n" });
  });
});
