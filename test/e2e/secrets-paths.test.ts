// The paths export and a refused review print, as git prints paths: `export --list`'s files, the
// paths it keeps back, the findings and the refusal's hint, quoted under core.quotePath (a tab or a
// line break always), --json keeping them as they are.
import { execFileSync, spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(): TestRepo {
  return repos.add(createTestRepo());
}

/** A tree of names git quotes: a non-ASCII letter, a tab; a key in two files of `café/`, a zip's member named `.env`. */
function quotedTree(): TestRepo {
  const repo = newRepo();
  repo.write("caf\u00e9.txt", "hi\n");
  repo.write("tab\there.txt", "tab\n");
  repo.write("caf\u00e9/.env", "A=1\n");
  repo.write("caf\u00e9/key.ts", `export const key = "${fake.awsKeyId(1)}";\n`);
  repo.write("caf\u00e9/other.ts", `export const key = "${fake.awsKeyId(2)}";\n`);
  repo.write("caf\u00e9/a.zip", makeZip([{ name: "\u00fcn/.env", data: Buffer.from("B=2\n") }]));
  repo.commit("quoted names");
  return repo;
}

describe("export's paths, as git prints them", () => {
  it.each([
    ["true", (path: string) => `"${path}"`, "caf\\303\\251", "\\303\\274n"],
    ["false", (path: string) => path, "caf\u00e9", "\u00fcn"],
  ] as const)(
    "core.quotePath=%s: the listing, the kept back, the findings and the hint",
    (quotePath, q, cafe, un) => {
      const repo = quotedTree();
      repo.git("config", "core.quotePath", quotePath);
      expect(repo.git("ls-files", "caf\u00e9.txt")).toBe(`${q(`${cafe}.txt`)}\n`);
      const list = runUnchanged(repo, ["export", "--list"], 6);
      expect(list.stdout).toMatch(new RegExp(`^ +3 B {2}${literal(q(`${cafe}.txt`))}$`, "m"));
      // A tab is quoted whatever the setting, as git quotes it.
      expect(list.stdout).toMatch(/^ +4 B {2}"tab\\there\.txt"$/m);
      expect(list.stdout).toMatch(new RegExp(`^ {2}${literal(q(`${cafe}/.env`))} +secret name: dotenv`, "m"));
      expect(list.stdout).toMatch(
        new RegExp(`^ {2}${literal(q(`${cafe}/key.ts`))}:1: aws-access-token: .*\\(AKIA…\\)`, "m"),
      );
      expect(list.stdout).toMatch(
        new RegExp(`^ {2}${literal(q(`${cafe}/a.zip!/${un}/.env`))}: secret-file-name: `, "m"),
      );
      expect(list.stderr).toContain(`hint:   3 in ${q(`${cafe}/`)} (aws-access-token 2, secret-file-name 1)`);
      // The refusal of the export and of a review print them the same way.
      for (const args of [["export"], []]) {
        const refused = runUnchanged(repo, args, 6);
        expect(refused.stderr).toMatch(
          new RegExp(`^ {2}${literal(q(`${cafe}/key.ts`))}:1: aws-access-token: `, "m"),
        );
        expect(refused.stderr).toMatch(
          new RegExp(`^ {2}${literal(q(`${cafe}/a.zip!/${un}/.env`))}: secret-file-name: `, "m"),
        );
        expect(refused.stderr).toContain(
          `hint:   3 in ${q(`${cafe}/`)} (aws-access-token 2, secret-file-name 1)`,
        );
      }
    },
  );

  it("--json keeps every path as it is, whatever core.quotePath says", () => {
    const repo = quotedTree();
    for (const quotePath of ["true", "false"]) {
      repo.git("config", "core.quotePath", quotePath);
      const listed = JSON.parse(runUnchanged(repo, ["export", "--list", "--json"], 6).stdout);
      expect(listed.files.map((file: { path: string }) => file.path)).toEqual(
        expect.arrayContaining(["caf\u00e9.txt", "tab\there.txt"]),
      );
      expect(listed.excluded).toContainEqual(expect.objectContaining({ path: "caf\u00e9/.env" }));
      expect(listed.findings).toContainEqual(
        expect.objectContaining({ path: "caf\u00e9/a.zip", member: "\u00fcn/.env" }),
      );
      const refused = JSON.parse(runUnchanged(repo, ["export", "--json"], 6).stdout);
      expect(refused.findings).toContainEqual(expect.objectContaining({ path: "caf\u00e9/key.ts", line: 1 }));
    }
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("a credential in a file's path", () => {
  const token = fake.githubPat();
  const path = `d/${token}.txt`;
  /** `d/ghp_….txt: github-pat: ..., in a name (ghp_…) [fingerprint <fp>]`: no line, the value redacted. */
  const finding =
    /^ {2}d\/ghp_….txt: github-pat: GitHub personal access token, in a name \(ghp_…\) \[fingerprint [0-9a-f]{16}\]$/m;

  function tokenRepo(): TestRepo {
    const repo = newRepo();
    repo.write("a.txt", "ok\n");
    repo.write(path, "x\n");
    repo.commit("a token in a name");
    return repo;
  }

  it("is reported with no line and no line marker in the hint, by export --list, export and a review", () => {
    const repo = tokenRepo();
    const list = runUnchanged(repo, ["export", "--list"], 6);
    expect(list.stdout).toMatch(finding);
    for (const args of [["export"], []]) {
      const refused = runUnchanged(repo, args, 6);
      expect(refused.stderr).toMatch(finding);
      expect(refused.stderr).not.toContain(token);
    }
    for (const output of [list.stderr, runUnchanged(repo, ["export"], 6).stderr]) {
      expect(output).toMatch(
        /^hint: or, for a false positive, add \{"fingerprint": "[0-9a-f]{16}"\} to secrets\.allow there$/m,
      );
      expect(output).not.toContain("review-remote:allow");
      expect(output).not.toContain(":1:");
    }
    // A value on a line beside it: the marker is offered again, for that one.
    repo.write("src/key.ts", `export const key = "${fake.awsKeyId()}";\n`);
    repo.commit("a key on a line");
    const both = runUnchanged(repo, ["export"], 6);
    expect(both.stderr).toMatch(/^ {2}src\/key\.ts:1: aws-access-token: /m);
    expect(both.stderr).toMatch(finding);
    expect(both.stderr).toContain(', or "review-remote:allow" on the line');
  });

  it("is reported the same way by the pre-push hook, whose push it stops", () => {
    const repo = tokenRepo();
    const bare = join(repo.home, "remote.git");
    execFileSync("git", ["init", "-q", "--bare", bare], { env: repo.env });
    repo.git("remote", "add", "origin", bare);
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.failClosed", "true");
    const pushed = spawnSync("git", ["push", "origin", "HEAD:main"], {
      cwd: repo.dir,
      env: repo.env,
      encoding: "utf8",
    });
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toMatch(
      /^review-remote: {3}d\/ghp_….txt: github-pat: GitHub personal access token, in a name \(ghp_…\) \[fingerprint [0-9a-f]{16}\]$/m,
    );
    expect(pushed.stderr).not.toContain(token);
    expect(repo.git("ls-remote", "origin")).toBe("");
  });
});

describe("a listed name that holds a credential", () => {
  const onFile = fake.githubPat(1);
  const onDir = fake.githubPat(2);
  const redacted = "(redacted: its name holds a credential the scan found; --json names it whole)";

  it.each([
    ["true", "caf\\303\\251", (path: string) => `"${path}"`],
    ["false", "caf\u00e9", (path: string) => path],
  ] as const)(
    "core.quotePath=%s: is listed redacted, as its finding prints it, and named whole by --json",
    (quotePath, cafe, q) => {
      const repo = newRepo();
      repo.git("config", "core.quotePath", quotePath);
      repo.write(`d/${onFile}.txt`, "x\n");
      repo.write(`caf\u00e9/${onDir}/x.json`, "{}\n");
      repo.write(`caf\u00e9/${onDir}/.env`, "A=1\n");
      repo.write("key.py", `k = "${fake.awsKeyId()}"\n`);
      repo.commit("tokens in names");
      const list = runUnchanged(repo, ["export", "--list"], 6);
      expect(list.stdout).toContain(`\n        2 B  d/ghp_….txt  ${redacted}\n`);
      expect(list.stdout).toContain(`\n        3 B  ${q(`${cafe}/ghp_…/x.json`)}  ${redacted}\n`);
      // Kept back, not scanned: its directory's name is the value found in the file beside it.
      expect(list.stdout).toMatch(
        new RegExp(`^ {2}${literal(`${q(`${cafe}/ghp_…/.env`)}  ${redacted}`)} +secret name: dotenv`, "m"),
      );
      expect(list.stdout).toMatch(/^ {2}d\/ghp_….txt: github-pat: /m);
      expect(list.stderr).toContain("hint:   1 in d/ghp_….txt (github-pat 1)\n");
      expect(list.stderr).toContain(`hint:   1 in ${q(`${cafe}/ghp_…/x.json`)} (github-pat 1)\n`);
      // The refusals of the export and of a review name the places the same way.
      for (const args of [["export"], []]) {
        const refused = runUnchanged(repo, args, 6);
        expect(refused.stderr).toContain("hint:   1 in d/ghp_….txt (github-pat 1)\n");
        expect(refused.stderr).not.toContain(onFile);
        expect(refused.stderr).not.toContain(onDir);
      }
      expect(list.stdout + list.stderr).not.toContain(onFile);
      expect(list.stdout + list.stderr).not.toContain(onDir);
      // --json names each file whole, to find it by.
      const json = JSON.parse(runUnchanged(repo, ["export", "--list", "--json"], 6).stdout);
      expect(json.files.map((file: { path: string }) => file.path)).toEqual(
        expect.arrayContaining([`d/${onFile}.txt`, `caf\u00e9/${onDir}/x.json`]),
      );
    },
  );

  it("is listed redacted when an allow lets it through too, as its allowed finding prints it", () => {
    const repo = newRepo();
    repo.write(`d/${onFile}.txt`, "x\n");
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: "d/**" }] } }));
    repo.commit("an allowed token in a name");
    const list = runUnchanged(repo, ["export", "--list"], 0);
    expect(list.stdout).toContain(`\n        2 B  d/ghp_….txt  ${redacted}\n`);
    expect(list.stdout).toMatch(
      /^ {2}d\/ghp_….txt: github-pat: .*: allowed by secrets\.allow \{"path": "d\/\*\*"\}$/m,
    );
    expect(list.stdout + list.stderr).not.toContain(onFile);
  });
});

describe("why a path is kept back", () => {
  it.each([
    ["true", (path: string) => `"${path}"`, "Caf\\303\\251", "../\\303\\274n"],
    ["false", (path: string) => path, "Caf\u00e9", "../\u00fcn"],
  ] as const)(
    "core.quotePath=%s: names the path it collides with and a link's target as the listing prints paths",
    (quotePath, q, cafe, target) => {
      const repo = newRepo();
      repo.git("config", "core.quotePath", quotePath);
      repo.write("Caf\u00e9.txt", "1\n");
      repo.write("caf\u00e9.txt", "2\n");
      symlinkSync("../\u00fcn", join(repo.dir, "link"));
      symlinkSync("../out", join(repo.dir, "plain"));
      repo.commit("names that stay");
      const list = runUnchanged(repo, ["export", "--list"], 0);
      expect(list.stdout).toContain(
        ` collides with ${q(`${cafe}.txt`)} on case-insensitive or normalizing filesystems (rule: case-collision)\n`,
      );
      expect(list.stdout).toMatch(
        new RegExp(
          `^ {2}link +symlink resolves outside the tree \\(-> ${literal(q(target))}\\) \\(rule: symlink-escape\\)$`,
          "m",
        ),
      );
      expect(list.stdout).toMatch(
        /^ {2}plain +symlink resolves outside the tree \(-> \.\.\/out\) \(rule: symlink-escape\)$/m,
      );
      // --json keeps the reason as the worker's rules spell it.
      const json = JSON.parse(runUnchanged(repo, ["export", "--list", "--json"], 0).stdout);
      expect(json.excluded).toContainEqual({
        path: "caf\u00e9.txt",
        reason:
          'collides with "Caf\\u00e9.txt" on case-insensitive or normalizing filesystems (rule: case-collision)',
      });
    },
  );
});

describe("a refusal remembered", () => {
  it("is said again under the core.quotePath it was printed under, and scanned again under another", () => {
    const repo = newRepo();
    repo.write("caf\u00e9/key.ts", `export const key = "${fake.awsKeyId()}";\n`);
    repo.commit("a key");
    const remembered = "hint: answered from the store: this snapshot and policy were refused before";
    const first = runUnchanged(repo, [], 6);
    expect(first.stderr).toMatch(/^ {2}"caf\\303\\251\/key\.ts":1: aws-access-token: /m);
    expect(first.stderr).not.toContain(remembered);
    expect(runUnchanged(repo, [], 6).stderr).toContain(remembered);
    repo.git("config", "core.quotePath", "false");
    const unquoted = runUnchanged(repo, [], 6);
    expect(unquoted.stderr).toMatch(/^ {2}caf\u00e9\/key\.ts:1: aws-access-token: /m);
    expect(unquoted.stderr).not.toContain(remembered);
    const again = runUnchanged(repo, [], 6);
    expect(again.stderr).toMatch(/^ {2}caf\u00e9\/key\.ts:1: aws-access-token: /m);
    expect(again.stderr).toContain(remembered);
  });
});
