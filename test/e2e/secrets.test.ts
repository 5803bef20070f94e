// Nothing secret leaves: what a new user meets when a credential is committed, and the whole corpus.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(init = true): TestRepo {
  const repo = createTestRepo({ init });
  repos.add(repo);
  return repo;
}

// Assembled here so that no complete fake key sits in the source.
const AWS_KEY = ["AK", "IA", "QYLPMN5HFIQR7XYZ"].join("");

function storeFiles(repo: TestRepo): string[] {
  const root = join(repo.dir, ".git", "review-remote");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  try {
    return walk(root);
  } catch {
    return [];
  }
}

describe("a committed credential", () => {
  it("stops the export with exit 6, names path:line and rule, and never echoes the key", () => {
    const repo = newRepo();
    repo.write("src/settings.ts", `export const region = "eu-west-1";\nexport const key = "${AWS_KEY}";\n`);
    repo.commit("settings");
    const before = repoState(repo);
    for (const args of [["export"], ["export", "--json"], []]) {
      const result = repo.run(args);
      expect(result.status, args.join(" ")).toBe(6);
      expect(result.stderr).toMatch(/^ {2}src\/settings\.ts:2: aws-access-token: .*\(AKIA…\)/m);
      expect(result.stderr).toContain("hint: ");
      expect(result.stdout + result.stderr).not.toContain(AWS_KEY);
      expect(result.stdout + result.stderr).not.toContain(AWS_KEY.slice(4));
    }
    expect(JSON.parse(repo.run(["export", "--json"]).stdout).findings[0]).toMatchObject({
      path: "src/settings.ts",
      line: 2,
      rule: "aws-access-token",
    });
    const list = repo.run(["export", "--list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("The content scan would stop the export (1):");
    expect(list.stdout).not.toContain(AWS_KEY);
    // Nothing stored, nothing sent, nothing logged.
    const stored = storeFiles(repo);
    expect(stored.map((file) => readFileSync(file, "utf8")).join("")).not.toContain(AWS_KEY);
    expect(stored.filter((file) => file.endsWith(".tar.gz"))).toEqual([]);
    expect(repoState(repo)).toEqual(before);
  });

  it("lets the export through once the key is removed, allowed by fingerprint, or marked inline", () => {
    const repo = newRepo();
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}";\n`);
    repo.commit("settings");
    const fingerprint = JSON.parse(repo.run(["export", "--json"]).stdout).findings[0].fingerprint;
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ fingerprint }] } }));
    expect(repo.run(["export"]).status).toBe(0);
    repo.write(
      ".review-remote.json",
      JSON.stringify({ secrets: { allow: [{ rule: "aws-access-token", path: "src/**" }] } }),
    );
    expect(repo.run(["export"]).status).toBe(0);
    repo.write(".review-remote.json", "{}");
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}"; // review-remote:allow\n`);
    repo.commit("allow inline");
    expect(repo.run(["export"]).status).toBe(0);
    repo.write("src/settings.ts", "export const key = process.env.AWS_KEY;\n");
    repo.commit("remove");
    expect(repo.run(["export"]).status).toBe(0);
  });

  it("rejects a malformed allow entry as a config error naming it", () => {
    const repo = newRepo();
    repo.write("a.txt", "a\n");
    repo.commit();
    repo.write(
      ".review-remote.json",
      JSON.stringify({ secrets: { allow: [{ rule: "jwt" }, { fingerprint: "xyz" }] } }),
    );
    const result = repo.run(["export"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^ {2}secrets\.allow\.1\.fingerprint: /m);
  });
});

describe("the secret corpus", () => {
  it("excludes every secret name, stops on every flagged file and keeps every control file", () => {
    const repo = newRepo(false);
    execFileSync("bash", [join(FIXTURES, "secrets", "make-secret-repo.sh"), repo.dir], {
      env: repo.env,
      stdio: "ignore",
    });
    const verdicts = readFileSync(join(FIXTURES, "secrets", "expected-manifest.tsv"), "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => line.split("\t") as [string, string]);
    const list = JSON.parse(repo.run(["export", "--list", "--json"]).stdout) as {
      files: { path: string }[];
      excluded: { path: string }[];
      findings: { path: string }[];
    };
    const files = new Set(list.files.map((file) => file.path));
    const flagged = new Set(list.findings.map((finding) => finding.path));
    for (const [path, verdict] of verdicts) {
      if (verdict === "exclude") expect(files.has(path), path).toBe(false);
      if (verdict === "flag") expect(flagged.has(path), path).toBe(true);
      if (verdict === "keep") {
        expect(files.has(path), path).toBe(true);
        expect(flagged.has(path), path).toBe(false);
      }
    }
    const refused = repo.run(["export"]);
    expect(refused.status).toBe(6);
    const secrets = execFileSync(
      "git",
      ["grep", "-h", "-o", "-E", "(sk_live_|glpat-|npm_|AKIA)[A-Za-z0-9_-]{8,}"],
      {
        cwd: repo.dir,
        env: repo.env,
        encoding: "utf8",
      },
    )
      .split("\n")
      .filter(Boolean);
    for (const secret of secrets) expect(refused.stderr).not.toContain(secret);
  });
});
