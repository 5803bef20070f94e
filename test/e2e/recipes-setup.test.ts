// The README's recipe for a project whose ESLint config imports a plugin: its dependencies come from
// --setup-command, and without network from a --cache-dir, prepared by the host or filled by setup.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker } from "../helpers/fixtures.js";
import { proposed, RECIPES, type Reviewed, review, workerCommand } from "../helpers/recipes.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";
import { places } from "../helpers/reviewer-formats.js";

const repos = repoTracker();
const scratch = mkdtempSync(join(tmpdir(), "rr-recipes-setup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const before = repoState(repo);
    const bare = repo.run(["--json", "--no-cache", "--all", "--worker", "bare"]);
    expect(repoState(repo)).toEqual(before);
    expect(bare.status).toBe(3);
    expect(bare.stderr).toContain("Cannot find package 'eslint-plugin-demo'");
    expect(bare.stderr).toContain("the reviewer exited with code 2 and wrote no rdjson report");
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
