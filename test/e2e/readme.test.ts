// The README's first command, run as a new user would: a fresh clone, `npm ci`, a global install of
// the packed package (into a private prefix here), then `git review-remote` reviewing the clone
// itself; and the installed command still working once the clone is gone.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestRepo, PROJECT_ROOT, repoTracker, testEnv } from "../helpers/repo.js";

const root = mkdtempSync(join(tmpdir(), "rr-readme-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function readmeCommands(): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/\s+#.*$/, "").trim());
}

describe("the README", () => {
  it("starts with two commands: install and review, then the tests", () => {
    const [install, tests] = readmeCommands();
    // A copy of the packed package, not `npm install -g .`, which links to the clone.
    expect(install).toBe(
      "npm ci && npm pack && npm install -g --ignore-scripts ./git-review-remote-*.tgz && git review-remote",
    );
    expect(tests).toBe("npm test");
  });

  it("installs the tool and reviews a repository with its first command", { timeout: 600_000 }, () => {
    const clone = join(root, "clone");
    const home = join(root, "home");
    const prefix = join(root, "prefix");
    execFileSync("git", ["clone", "-q", PROJECT_ROOT, clone], { env: testEnv(home) });
    const env = testEnv(home, {
      npm_config_prefix: prefix,
      // A cache of its own: the install must work from the registry, not from what the developer has.
      npm_config_cache: join(root, "npm-cache"),
      npm_config_audit: "false",
      npm_config_fund: "false",
      PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
    });
    const [install] = readmeCommands();
    const result = spawnSync("sh", ["-c", install as string], {
      cwd: clone,
      env,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect(result.status, result.stderr.slice(-2000)).toBe(0);
    // The package runs no script when installed: npm has nothing to warn about it.
    expect(result.stderr).not.toMatch(/git-review-remote@[^\n]*\(prepare/);
    // What the README's comment says the review prints.
    const said = /prints "(Review <id> by local [^"]*): \.\.\."/.exec(
      readFileSync(join(PROJECT_ROOT, "README.md"), "utf8"),
    );
    expect(said).not.toBeNull();
    const escaped = (said?.[1] ?? "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("<id>", "[0-9a-f]{12}");
    expect(result.stdout).toMatch(new RegExp(`^${escaped}: `, "m"));
    const version = spawnSync(join(prefix, "bin", "git-review-remote"), ["--version"], {
      env,
      encoding: "utf8",
    });
    expect(version.stdout).toMatch(/^git-review-remote version \d+\.\d+\.\d+/);
    // The man page is installed with the package, so `git review-remote --help` finds it.
    const man = spawnSync("man", ["-w", "git-review-remote"], {
      env: { ...env, MANPATH: join(prefix, "share", "man") },
      encoding: "utf8",
    });
    if (man.error === undefined) expect(man.stdout.trim()).toMatch(/git-review-remote\.1$/);

    // A copy, not a link into the clone: with the clone gone, the command still reviews a repository.
    const installed = realpathSync(join(prefix, "bin", "git-review-remote"));
    expect(installed.startsWith(realpathSync(prefix))).toBe(true);
    // The bundled third-party code ships with its licence.
    expect(readFileSync(join(dirname(dirname(installed)), "dist", "zod.LICENSE"), "utf8")).toMatch(
      /^MIT License/,
    );
    rmSync(clone, { recursive: true, force: true });
    const other = join(root, "other");
    mkdirSync(other);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: other, env, encoding: "utf8" });
    git("init", "-q");
    writeFileSync(join(other, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "one");
    writeFileSync(join(other, "a.txt"), "one\ntwo   \n");
    git("commit", "-q", "-am", "two, with trailing spaces");
    const review = spawnSync("git", ["review-remote"], { cwd: other, env, encoding: "utf8" });
    expect(review.status, review.stderr).toBe(0);
    expect(review.stdout).toMatch(/^Proposals are on branch review\/[0-9a-f]{12}\. Next:$/m);
  });
});

/** The lines of the README's transcript that starts with `$ <command>`. */
function transcript(command: string): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n$ ${command}\n`);
  expect(start, command).toBeGreaterThan(0);
  const block = readme.slice(start + command.length + 4);
  return block.slice(0, block.indexOf("```")).split("\n").filter(Boolean);
}

/** Review ids and commit ids as the README cannot know them. */
const anonymous = (line: string): string =>
  line.replace(/\b[0-9a-f]{40}\b/g, "<oid>").replace(/\b[0-9a-f]{12}\b/g, "<id>");

describe("the README's transcripts", () => {
  const repos = repoTracker();

  it("open with what a review of two commits ahead of the upstream prints, line for line", () => {
    const repo = repos.add(createTestRepo());
    repo.write("README", "x\n");
    repo.commit("base");
    repo.git("remote", "add", "origin", repo.dir);
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD");
    repo.git("branch", "-q", "-u", "origin/main");
    repo.write("src/app.ts", "a  \n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> x\n");
    repo.commit("one");
    repo.write("src/util.ts", "one\r\ntwo\n");
    repo.commit("two");
    const review = repo.run([]);
    expect(review.status, review.stderr).toBe(0);
    // The README's line names no real commits: theirs are its own, ours this repository's.
    const oids = (line: string) => anonymous(line).replace(/\b[0-9a-f]{10}\.\.[0-9a-f]{10}\b/g, "<range>");
    const printed = `${review.stdout}${review.stderr}`.split("\n").filter(Boolean).map(oids);
    expect(transcript("git review-remote").map(oids).sort()).toEqual(printed.sort());
  });

  it("show what a work-tree merge prints, line for line", () => {
    const repo = repos.add(createTestRepo());
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.commit("base");
    repo.write("src/app.ts", "export const a = 1;   \n");
    const review = repo.run(["--worktree", "--json"]);
    expect(review.status, review.stderr).toBe(0);
    const { id } = JSON.parse(review.stdout) as { id: string };
    const merge = repo.run(["merge", id]);
    expect(merge.status, merge.stderr).toBe(0);
    const printed = `${merge.stdout}${merge.stderr}`.split("\n").filter(Boolean).map(anonymous);
    expect(transcript("git review-remote merge 3b1f0c9a2d4e").map(anonymous).sort()).toEqual(printed.sort());
  });
});
