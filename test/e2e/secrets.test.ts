// Nothing secret leaves: what a new user meets when a credential is committed, and the whole corpus.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(init = true): TestRepo {
  const repo = createTestRepo({ init });
  repos.add(repo);
  return repo;
}

// Assembled here so that no complete fake key sits in the source.
/** What a worker was sent of the range HEAD~1..HEAD (an echo worker says it in its summary). */
function rangeSeenByWorker(repo: TestRepo): { range: { paths: string[]; patch: string } } {
  configureWorker(repo, "echo", shellWords("node", join(FIXTURES, "workers", "echo-worker.mjs")));
  const result = repo.run(["HEAD~1..HEAD", "--worker", "echo", "--json"]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(JSON.parse(result.stdout).summary);
}

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
    // --list runs the same content scan: the findings listed, redacted, and exit 6.
    const list = repo.run(["export", "--list"]);
    expect(list.status).toBe(6);
    expect(list.stdout).toContain("The content scan would stop the export (1):");
    expect(list.stdout).toMatch(/^ {2}src\/settings\.ts:2: aws-access-token: .*\(AKIA…\)/m);
    expect(list.stderr).toContain("git-review-remote: the export would be refused: 1 possible secret found");
    expect(list.stderr).toContain("hint: ");
    expect(list.stdout + list.stderr).not.toContain(AWS_KEY.slice(4));
    const listJson = repo.run(["export", "--list", "--json"]);
    expect(listJson.status).toBe(6);
    expect(JSON.parse(listJson.stdout).findings[0]).toMatchObject({ path: "src/settings.ts", line: 2 });
    expect(listJson.stdout).not.toContain(AWS_KEY.slice(4));
    // Nothing stored, nothing sent, nothing logged.
    const stored = storeFiles(repo);
    expect(stored.map((file) => readFileSync(file, "utf8")).join("")).not.toContain(AWS_KEY);
    expect(stored.filter((file) => file.endsWith(".tar.gz"))).toEqual([]);
    expect(repoState(repo)).toEqual(before);
  });

  it("stops the export when the credential is in a file's name, the content clean", () => {
    const repo = newRepo();
    const path = `cache/${AWS_KEY}.json`;
    repo.write(path, '{"ok": true}\n');
    repo.commit("cache");
    const before = repoState(repo);
    const result = repo.run(["export", "--json"]);
    expect(result.status, result.stderr).toBe(6);
    expect(JSON.parse(result.stdout).findings).toEqual([
      expect.objectContaining({ path, line: 1, rule: "aws-access-token", redacted: "AKIA…" }),
    ]);
    expect(storeFiles(repo).filter((file) => file.endsWith(".tar.gz"))).toEqual([]);
    expect(repoState(repo)).toEqual(before);
  });

  it("stops the local worker it started while exporting: nothing sent, audited or left behind", () => {
    const repo = newRepo();
    repo.write("src/settings.ts", `export const key = "${AWS_KEY}";\n`);
    repo.commit("settings");
    const before = repoState(repo);
    // The worker's workspaces go here: a worker not stopped, or stopped without its cleanup, leaves one.
    const workspaces = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "rr-early-"));
    chmodSync(workspaces, 0o755);
    try {
      const result = repo.run([], { env: { REVIEW_REMOTE_WORKER_TMPDIR: workspaces } });
      expect(result.status, result.stderr).toBe(6);
      expect(result.stderr).not.toMatch(/^remote:/m);
      expect(readdirSync(workspaces)).toEqual([]);
    } finally {
      rmSync(workspaces, { recursive: true, force: true });
    }
    expect(storeFiles(repo).filter((file) => file.endsWith("audit.jsonl"))).toEqual([]);
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
    // As a Windows editor saves it: a byte-order mark and CRLF line ends.
    repo.write(
      ".review-remote.json",
      `\uFEFF${JSON.stringify({ secrets: { allow: [{ fingerprint }] } }, null, 2).replaceAll("\n", "\r\n")}\r\n`,
    );
    const saved = repo.run(["export"]);
    expect(saved.status, saved.stderr).toBe(0);
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

describe("ranges and work-tree snapshots", () => {
  const body = [0, 1, 2].map((i) => randomBytes(48).toString("base64") + (i < 2 ? "\n" : "")).join("");
  const KEY_BLOCK = ["-----BEGIN", ` RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\n`].join(
    "",
  );

  it("refuses a range whose patch would carry a secret the range removes", () => {
    const repo = newRepo();
    repo.write("notes.md", `# notes\n${KEY_BLOCK}`);
    repo.write("infra/main.tf", 'resource "x" "y" {\n  password = "Zq8-vK2pW7rT4mN"\n}\n');
    repo.commit("oops");
    repo.write("notes.md", "# notes\n");
    repo.write("infra/main.tf", 'resource "x" "y" {\n  password = var.db_password\n}\n');
    repo.commit("remove them");
    repo.git("config", "review-remote.echo.command", "cat > /dev/null; exit 1");
    const result = repo.run(["HEAD~1..HEAD", "--worker", "echo"]);
    expect(result.status, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/notes\.md:2: private-key/);
    expect(result.stderr).toMatch(/infra\/main\.tf:2: hashicorp-tf-password/);
    expect(result.stderr).not.toContain("Zq8-vK2pW7rT4mN");
  });

  it("refuses a range that removes a symbolic link whose target is a secret", () => {
    const repo = newRepo();
    const target = `https://deploy:${["Zq8", "vK2pW7", "rT4mN"].join("-")}@db.internal/app`;
    repo.write("docs/readme.md", "# docs\n");
    symlinkSync(target, join(repo.dir, "docs/database"));
    repo.commit("link");
    repo.git("rm", "-q", "docs/database");
    repo.commit("unlink");
    repo.git("config", "review-remote.echo.command", "cat > /dev/null; exit 1");
    const result = runUnchanged(repo, ["HEAD~1..HEAD", "--worker", "echo"], 6);
    expect(result.stderr).toMatch(/docs\/database:1: url-credentials/);
    expect(result.stderr).not.toContain("vK2pW7");
  });

  it("refuses a range that deletes a file whose name holds a token: the patch's headers carry it", () => {
    const repo = newRepo();
    const name = `fixtures/${AWS_KEY}.json`;
    repo.write("docs/readme.md", "# docs\n");
    repo.write(name, "{}\n");
    repo.commit("a fixture named after a key");
    repo.git("rm", "-q", name);
    repo.commit("drop it");
    repo.git("config", "review-remote.echo.command", "cat > /dev/null; exit 1");
    const result = runUnchanged(repo, ["HEAD~1..HEAD", "--worker", "echo"], 6);
    // The name is printed with the key in it redacted, as a key in a file's content is, and no line.
    expect(result.stderr).toMatch(
      /^ {2}fixtures\/AKIA…\.json: aws-access-token: .*\(in the range's base\)$/m,
    );
    expect(result.stderr).not.toContain(AWS_KEY);
    // The head's tree alone, which lacks the file, still leaves.
    const tree = repo.run(["export", "--list"]);
    expect(tree.status, tree.stderr).toBe(0);
  });

  it("keeps an export-ignored file of the range's base out of its patch", () => {
    const repo = newRepo();
    repo.write(".gitattributes", "internal.txt export-ignore\n");
    repo.write("internal.txt", "internal plans\n");
    repo.write("a.txt", "a\n");
    repo.commit("base");
    repo.git("rm", "-q", "internal.txt");
    repo.write("a.txt", "b\n");
    repo.commit("head");
    const seen = rangeSeenByWorker(repo);
    expect(seen.range.paths).toEqual(["a.txt"]);
    expect(seen.range.patch).not.toContain("internal");
  });

  it("keeps a file the base's nested .gitattributes export-ignores out of its patch", () => {
    const repo = newRepo();
    repo.write("docs/.gitattributes", "draft.md export-ignore\n");
    repo.write("docs/draft.md", "draft plans\n");
    repo.write("a.txt", "a\n");
    repo.commit("base");
    repo.git("rm", "-q", "docs/draft.md", "docs/.gitattributes");
    repo.write("a.txt", "b\n");
    repo.commit("head");
    const seen = rangeSeenByWorker(repo);
    expect(seen.range.paths).toEqual(["a.txt", "docs/.gitattributes"]);
    expect(seen.range.patch).not.toContain("draft plans");
  });

  it("keeps a file the head's export-ignore leaves out of the bundle out of the range too", () => {
    const repo = newRepo();
    repo.write(".gitattributes", "internal/ export-ignore\n");
    repo.write("internal/plans.txt", "first plans\n");
    repo.write("a.txt", "a\n");
    repo.commit("base");
    repo.write("internal/plans.txt", "second plans\n");
    repo.write("internal/more.txt", "more plans\n");
    repo.write("a.txt", "b\n");
    repo.commit("head");
    const seen = rangeSeenByWorker(repo);
    expect(seen.range.paths).toEqual(["a.txt"]);
    expect(seen.range.patch).not.toContain("plans");
  });

  it("judges the range's base in git's path order: the first of two folding names stays", () => {
    const repo = newRepo();
    repo.write("Notes.txt", "old line\n");
    repo.write("notes.txt", "folds onto Notes.txt\n");
    repo.write("a", "a file\n");
    repo.write("z.txt", "z\n");
    symlinkSync("a", join(repo.dir, "link"));
    repo.write("id_rsa", "kept back by its name\n");
    repo.commit("base");
    repo.write("Notes.txt", "new line\n");
    repo.git("rm", "-q", "a", "id_rsa", "link");
    repo.write("a/x", "a directory now\n");
    symlinkSync("z.txt", join(repo.dir, "link"));
    repo.commit("head");
    const seen = rangeSeenByWorker(repo);
    expect(seen.range.paths).toEqual(["Notes.txt", "a", "a/x", "link"]);
    expect(seen.range.patch).toContain("-old line\n+new line\n");
    expect(seen.range.patch).toContain("-a file\n");
    expect(seen.range.patch).toContain("-a\n\\ No newline at end of file\n+z.txt\n");
    expect(seen.range.patch).not.toContain("folds onto");
    expect(seen.range.patch).not.toContain("kept back");
  });

  it("judges the range's base in git's path order past U+FFFF too", () => {
    // U+FF21 (FULLWIDTH A) sorts before U+1D41A (MATHEMATICAL BOLD SMALL A) in git's byte order, and
    // after it in UTF-16; both fold to "a.txt".
    const repo = newRepo();
    repo.write("\uff21.txt", "full width\n");
    repo.write("\u{1d41a}.txt", "bold\n");
    repo.commit("base");
    repo.write("\uff21.txt", "full width again\n");
    repo.commit("head");
    const seen = rangeSeenByWorker(repo);
    expect(seen.range.paths).toEqual(["\uff21.txt"]);
    expect(seen.range.patch).toContain("-full width\n+full width again\n");
    expect(seen.range.patch).not.toContain("bold");
  });

  it("keeps uncommitted secret files out of a work-tree snapshot and so off the review branch", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.write(".env.local", "TOKEN=committed\n");
    repo.commit();
    repo.write("src/app.ts", "export const a = 2;   \n");
    repo.write(".env", "TOKEN=untracked-secret\n");
    repo.write(".env.local", "TOKEN=changed-secret\n");
    const result = repo.run(["--worktree", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { id, branch } = JSON.parse(result.stdout);
    const snapshot = repo.git("rev-parse", `refs/review-remote/${id}/snapshot`).trim();
    expect(repo.git("rev-parse", `${branch}~1`).trim()).toBe(snapshot);
    expect(repo.git("ls-tree", "-r", "--name-only", snapshot)).not.toContain(".env\n");
    expect(repo.git("show", `${snapshot}:.env.local`)).toBe("TOKEN=committed\n");
    expect(repo.git("show", `${snapshot}:src/app.ts`)).toBe("export const a = 2;   \n");
  });
});

describe("a Yarn Berry repository", () => {
  // What every vendored Yarn release carries: dotenv's documentation example and URL-credential code.
  const RELEASE = [
    "#!/usr/bin/env node",
    "/* eslint-disable */",
    "//prettier-ignore",
    "(()=>{var Dge=Object.create;",
    'function ytt(t,e){let r;try{r=new URL(e)}catch(f){throw f.code==="ERR_INVALID_URL"?new Error("INVALID_DOTENV_KEY: Wrong format. Must be in valid uri format like dotenv://:key_1234@dotenv.org/vault/.env.vault?environment=development"):f}let s=r.password;if(!s)throw new Error("INVALID_DOTENV_KEY: Missing key part")}',
    'e.stripAuthentication&&(a.username="",a.password=""),e.stripHash&&(a.hash="")',
    'var e={protocols:[],protocol:null,port:null,resource:"",host:"",user:"",password:"",pathname:""};',
    'return e.token="",e.password==="x-oauth-basic"?e.token=e.user:e.user==="x-token-auth"&&(e.token=e.password)',
    "})();",
    "",
  ].join("\n");

  it("exports its vendored release and plugins without an allow entry", () => {
    const repo = newRepo();
    repo.write("package.json", '{\n  "name": "app",\n  "packageManager": "yarn@4.5.3"\n}\n');
    repo.write(".yarnrc.yml", "nodeLinker: node-modules\n\nyarnPath: .yarn/releases/yarn-4.5.3.cjs\n");
    repo.write(".yarn/releases/yarn-4.5.3.cjs", RELEASE);
    repo.write(".yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs", RELEASE.replace("ytt", "ztt"));
    repo.write("yarn.lock", "__metadata:\n  version: 8\n  cacheKey: 10c0\n");
    repo.write("src/index.ts", "export const answer = 42;\n");
    repo.commit("yarn berry");
    const result = repo.run(["export", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const paths = (
      JSON.parse(repo.run(["export", "--list", "--json"]).stdout).files as { path: string }[]
    ).map((file) => file.path);
    expect(paths).toContain(".yarn/releases/yarn-4.5.3.cjs");
    expect(paths).toContain(".yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs");
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
