// The reviewer recipes' shared parts: the tools directory (this package's own install, laid out as
// `npm install --prefix DIR` lays one out), the README's linter recipes, a worker configured with
// them, and what a review through `git review-remote --json` brought back.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { shellWords } from "./fixtures.js";
import { BIN, PROJECT_ROOT, type TestRepo } from "./repo.js";

export const TOOLS = PROJECT_ROOT;
const RDJSON = join(TOOLS, "node_modules", "eslint-formatter-rdjson", "index.js");

/**
 * The recipes of the README: tool, command, format, and the worker's flags for them. Biome's rdjson
 * holds its unsafe fixes too and cannot say which: Biome writes its safe fixes itself, and the report
 * gives the comments only.
 */
export const RECIPES = {
  eslint: { command: `eslint -f ${RDJSON} src`, format: "rdjson" },
  biome: { command: "biome lint --write --reporter=rdjson src", format: "rdjson", fixes: "none" },
  "ast-grep": { command: "ast-grep scan --format=sarif", format: "sarif" },
  shellcheck: { command: "shellcheck -f diff scripts/*.sh", format: "diff" },
  prettier: { command: "prettier --write --log-level=warn src/ugly.js", format: "comments" },
} as const;
export type Tool = keyof typeof RECIPES;

/** The README's Biome recipe that applies its unsafe fixes too (`biome lint --write --unsafe`). */
export const BIOME_UNSAFE_RECIPE = { command: "biome lint --reporter=rdjson src", format: "rdjson" } as const;

/** A recipe's worker flags: its command, format and `--reviewer-fixes` if it has one. */
export function recipeFlags(tool: Tool): string[] {
  const recipe: { command: string; format: string; fixes?: string } = RECIPES[tool];
  const fixes = recipe.fixes === undefined ? [] : ["--reviewer-fixes", recipe.fixes];
  return ["--reviewer-command", recipe.command, "--reviewer-format", recipe.format, ...fixes];
}

/**
 * The README's recipes for the changed files of a focused review, instead of a whole directory; `--`
 * ends the tool's options, so a file named `--fix` or `-x.sh` is a file, and `-r` runs no tool on no
 * file (ESLint given none lints the whole tree).
 */
export const CHANGED_FILES_RECIPES = {
  eslint: `grep -zE "\\.[cm]?jsx?$" "$REVIEW_REMOTE_CHANGED" | xargs -0 -r eslint -f ${RDJSON} --`,
  shellcheck: `grep -z "\\.sh$" "$REVIEW_REMOTE_CHANGED" | xargs -0 -r shellcheck -f diff --`,
} as const;

/** The worker command of a recipe: sandbox required, the tools directory, then `flags`. */
export function workerCommand(...flags: string[]): string {
  return shellWords(process.execPath, BIN, "worker", "--sandbox=require", "--tools", TOOLS, ...flags);
}

export interface Reviewed {
  branch: string;
  summary: string;
  comments: { path?: string; line?: number; rule?: string; severity: string; message: string }[];
  hiddenComments: number;
  /** What the review printed on stderr: the worker's `remote:` lines among it. */
  stderr: string;
}

export function review(repo: TestRepo, args: string[]): Reviewed {
  const run = repo.run(["--json", "--no-cache", ...args]);
  expect(run.status, run.stderr).toBe(0);
  return { ...JSON.parse(run.stdout), stderr: run.stderr };
}

/** The branch's version of each path it changed. */
export function proposed(repo: TestRepo, branch: string): Record<string, string> {
  const names = repo.git("diff", "--name-only", "HEAD", branch).trim().split("\n").filter(Boolean);
  return Object.fromEntries(
    names.map((path) => [
      path,
      execFileSync("git", ["show", `${branch}:${path}`], { cwd: repo.dir, env: repo.env }).toString("latin1"),
    ]),
  );
}
