import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(): TestRepo {
  const repo = createTestRepo();
  repos.add(repo);
  return repo;
}

interface ExportJson {
  sha256: string;
  bytes: number;
  path: string;
  files: number;
  excluded: { path: string; reason: string }[];
}
interface ListJson {
  files: { path: string; mode: string; size: number; lines: number }[];
  excluded: { path: string; reason: string }[];
  findings: unknown[];
}

function exportJson(repo: TestRepo, args: string[] = [], cwd?: string): ExportJson {
  const result = repo.run(["export", "--json", ...args], { cwd });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as ExportJson;
}

function listJson(repo: TestRepo, args: string[] = [], cwd?: string): ListJson {
  const result = repo.run(["export", "--list", "--json", ...args], { cwd });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ListJson;
}

/** Temporary directories outside any test repo, removed after the file's tests. */
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function unpack(bundle: string): string {
  const dir = mkdtempSync(join(tmpdir(), "rr-unpack-"));
  scratch.push(dir);
  execFileSync("tar", ["-xzf", bundle, "-C", dir]);
  return dir;
}

function basicRepo(): TestRepo {
  const repo = newRepo();
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.write("README.md", "# demo\n");
  repo.write(".env", "TOKEN=abc\n");
  repo.commit("base");
  return repo;
}

describe("export", () => {
  it("stores a read-only, sha256-addressed bundle and keeps the repository byte-identical", () => {
    const repo = basicRepo();
    const before = repoState(repo);
    const result = exportJson(repo);
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.path).toBe(join(repo.dir, ".git", "review-remote", "bundles", `${result.sha256}.tar.gz`));
    const bytes = readFileSync(result.path);
    expect(bytes.length).toBe(result.bytes);
    expect(execFileSync("sha256sum", [result.path], { encoding: "utf8" }).split(" ")[0]).toBe(result.sha256);
    expect(statSync(result.path).mode & 0o222).toBe(0);
    expect(result.files).toBe(2);
    expect(result.excluded).toEqual([{ path: ".env", reason: "secret name: dotenv (dotenv file)" }]);
    expect(repoState(repo)).toEqual(before);
    expect(readdirSync(join(repo.dir, ".git", "review-remote", "tmp"))).toEqual([]);
  });

  it("gives the same sha256 for the same tree whatever the commit metadata", () => {
    const repo = basicRepo();
    const first = exportJson(repo).sha256;
    expect(exportJson(repo).sha256).toBe(first);
    const other = newRepo();
    other.write("src/app.ts", "export const a = 1;\n");
    other.write("README.md", "# demo\n");
    other.commit("another message");
    expect(exportJson(other, [], undefined).sha256).toBe(first);
    other.write("README.md", "# changed\n");
    other.commit("change");
    expect(exportJson(other).sha256).not.toBe(first);
  });

  it("sends the same bytes whether the archive starts before the filter is done or after it", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.write("docs/guide.md", "# guide\n");
    repo.commit("base");
    // No policy: the archive of the whole tree starts while the listing is filtered.
    const ahead = exportJson(repo);
    // A policy exclude that matches nothing: the archive waits for the filtered tree.
    repo.write(".review-remote.json", JSON.stringify({ exclude: ["nothing-here/"] }));
    const after = exportJson(repo);
    expect(after.sha256).toBe(ahead.sha256);
    rmSync(join(repo.dir, ".review-remote.json"));
    // The filter leaves a secret file out: the archive started ahead is dropped and nothing of it stays.
    repo.write("config/.env", "TOKEN=abc\n");
    repo.commit("env");
    const filtered = exportJson(repo);
    expect(filtered.excluded).toEqual([{ path: "config/.env", reason: "secret name: dotenv (dotenv file)" }]);
    expect(filtered.sha256).toBe(ahead.sha256);
    expect(readdirSync(join(repo.dir, ".git", "review-remote", "tmp"))).toEqual([]);
    expect(readdirSync(join(repo.dir, ".git", "review-remote", "bundles")).sort()).toEqual([
      `${ahead.sha256}.manifest.json`,
      `${ahead.sha256}.tar.gz`,
    ]);
  });

  it("exports any revision, and names an unknown one", () => {
    const repo = basicRepo();
    repo.write("src/new.ts", "export {};\n");
    repo.commit("second");
    const old = listJson(repo, ["HEAD~1"]);
    expect(old.files.map((f) => f.path)).toEqual(["README.md", "src/app.ts"]);
    const before = repoState(repo);
    const bad = repo.run(["export", "no-such-rev"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("git-review-remote: unknown revision: no-such-rev");
    expect(bad.stderr).toContain("hint: ");
    expect(repoState(repo)).toEqual(before);
  });

  it("holds the committed blob bytes exactly, whatever export-subst, eol, ident and filter say", () => {
    const repo = newRepo();
    repo.git("config", "filter.upper.smudge", "tr a-z A-Z");
    repo.git("config", "filter.upper.clean", "cat");
    repo.write(
      ".gitattributes",
      "* text eol=crlf\nsubst.txt export-subst\nid.txt ident\nf.txt filter=upper\n",
    );
    repo.write("subst.txt", "version $Format:%H$\n");
    repo.write("id.txt", "$Id$\n");
    repo.write("f.txt", "lower case\n");
    repo.write("lines.txt", "a\nb\n");
    repo.write("bin.dat", Buffer.from([0, 1, 2, 13, 10, 255]));
    repo.commit();
    const dir = unpack(exportJson(repo).path);
    for (const file of ["subst.txt", "id.txt", "f.txt", "lines.txt", "bin.dat", ".gitattributes"]) {
      const blob = execFileSync("git", ["cat-file", "blob", `HEAD:${file}`], {
        cwd: repo.dir,
        env: repo.env,
      });
      expect(readFileSync(join(dir, file)), file).toEqual(blob);
    }
  });

  it("honors export-ignore and reports it", () => {
    const repo = newRepo();
    repo.write(".gitattributes", "internal/ export-ignore\n");
    repo.write("internal/notes.md", "private\n");
    repo.write("src/a.ts", "a\n");
    repo.commit();
    const list = listJson(repo);
    expect(list.files.map((f) => f.path)).toEqual([".gitattributes", "src/a.ts"]);
    expect(list.excluded).toEqual([{ path: "internal/notes.md", reason: "export-ignore attribute" }]);
  });

  it("keeps symlinks inside the tree and drops those that leave it, and gitlinks", () => {
    const repo = newRepo();
    repo.write("docs/v2/index.md", "# v2\n");
    symlinkSync("v2", join(repo.dir, "docs/latest"));
    symlinkSync("../../etc/passwd", join(repo.dir, "docs/escape"));
    symlinkSync("/etc/passwd", join(repo.dir, "abs"));
    symlinkSync("docs/latest/../../..", join(repo.dir, "chain"));
    repo.write("exec.sh", "#!/bin/sh\n");
    chmodSync(join(repo.dir, "exec.sh"), 0o755);
    repo.commit();
    const sub = repo.git("rev-parse", "HEAD").trim();
    repo.git("update-index", "--add", "--cacheinfo", `160000,${sub},vendor/lib`);
    repo.git("commit", "-q", "-m", "gitlink");
    const list = listJson(repo);
    expect(list.files).toEqual([
      { path: "docs/latest", mode: "120000", size: 0, lines: 0 },
      { path: "docs/v2/index.md", mode: "100644", size: 5, lines: 1 },
      { path: "exec.sh", mode: "100755", size: 10, lines: 1 },
    ]);
    expect(list.excluded).toEqual([
      { path: "abs", reason: "the symlink target is absolute (rule: symlink-absolute-path)" },
      {
        path: "chain",
        reason: 'symlink resolves outside the tree (-> "docs/latest/../../..") (rule: symlink-escape)',
      },
      {
        path: "docs/escape",
        reason: 'symlink resolves outside the tree (-> "../../etc/passwd") (rule: symlink-escape)',
      },
      { path: "vendor/lib", reason: "gitlink (submodule)" },
    ]);
  });

  it("keeps back links to .git look-alikes with their rule, so the worker takes the rest", () => {
    const repo = newRepo();
    repo.write("a.txt", "untidy  \n");
    symlinkSync(".git./config", join(repo.dir, "dot"));
    symlinkSync("sub/.GIT/hooks", join(repo.dir, "upper"));
    symlinkSync("GIT~1/config", join(repo.dir, "short"));
    symlinkSync("a.txt", join(repo.dir, "fine"));
    repo.commit();
    const list = listJson(repo);
    expect(list.files.map((f) => f.path)).toEqual(["a.txt", "fine"]);
    expect(list.excluded).toEqual([
      {
        path: "dot",
        reason: 'symlink target goes through a ".git" look-alike ".git." (rule: symlink-dotgit)',
      },
      {
        path: "short",
        reason: 'symlink target goes through a ".git" look-alike "GIT~1" (rule: symlink-dotgit)',
      },
      {
        path: "upper",
        reason: 'symlink target goes through a ".git" look-alike ".GIT" (rule: symlink-dotgit)',
      },
    ]);
    const text = repo.run(["export", "--list"]);
    expect(text.stdout).toMatch(
      /^ {2}dot +symlink target goes through a "\.git" look-alike "\.git\." \(rule: symlink-dotgit\)$/m,
    );
    // The local worker gets a bundle it accepts: the review runs instead of failing with exit 3.
    const before = repoState(repo);
    const review = repo.run(["--json"]);
    expect(review.status, review.stderr).toBe(0);
    expect(JSON.parse(review.stdout)).toMatchObject({ status: "imported", commits: 1 });
    expect(repoState(repo).head).toBe(before.head);
  });

  it("keeps back names a checkout could misread and names that fold onto another", () => {
    const repo = newRepo();
    repo.write("README", "one\n");
    repo.write("readme", "two\n");
    repo.write("Docs/a.md", "a\n");
    repo.write("docs/b.md", "b\n");
    repo.write("back\\slash.txt", "b\n");
    repo.commit();
    const list = listJson(repo);
    expect(list.files.map((f) => f.path)).toEqual(["Docs/a.md", "README"]);
    expect(list.excluded).toEqual([
      {
        path: "back\\slash.txt",
        reason: "backslash in the name (a separator on Windows) (rule: backslash)",
      },
      {
        path: "docs/b.md",
        reason: 'collides with "Docs" on case-insensitive or normalizing filesystems (rule: case-collision)',
      },
      {
        path: "readme",
        reason:
          'collides with "README" on case-insensitive or normalizing filesystems (rule: case-collision)',
      },
    ]);
    const review = repo.run(["--json"]);
    expect(review.status, review.stderr).toBe(0);
  });

  it("applies the policy's exclude and include with gitignore semantics", () => {
    const repo = newRepo();
    repo.write("src/a.ts", "a\n");
    repo.write("src/gen/b.ts", "b\n");
    repo.write("docs/c.md", "c\n");
    repo.write("fixtures/big.json", "{}\n");
    repo.write(".review-remote.json", JSON.stringify({ include: ["src/", "docs/*.md"], exclude: ["gen/"] }));
    repo.commit();
    const list = listJson(repo);
    expect(list.files.map((f) => f.path)).toEqual(["docs/c.md", "src/a.ts"]);
    expect(list.excluded).toContainEqual({ path: "src/gen/b.ts", reason: "policy exclude: gen/" });
    expect(list.excluded).toContainEqual({ path: "fixtures/big.json", reason: "not in policy include" });
  });

  it("counts what a pathspec or the include leaves out in the text listing; --json names each", () => {
    const repo = newRepo();
    for (const name of ["a", "b", "c"]) repo.write(`lib/${name}.ts`, `${name}\n`);
    repo.write("docs/d.md", "d\n");
    repo.write("src/a.ts", "a\n");
    repo.write("src/.env", "TOKEN=abc\n");
    repo.write(".review-remote.json", JSON.stringify({ include: ["src/", "lib/", ".review-remote.json"] }));
    repo.commit();
    const text = repo.run(["export", "--list", "--", "src"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.slice(text.stdout.indexOf("Would keep back"))).toBe(
      "Would keep back 6 paths:\n" +
        "  src/.env  secret name: dotenv (dotenv file)\n" +
        "  4 paths outside the pathspecs (--json lists them)\n" +
        "  1 path not in policy include (--json lists them)\n",
    );
    expect(
      listJson(repo, ["--", "src"])
        .excluded.map((entry) => entry.path)
        .sort(),
    ).toEqual([".review-remote.json", "docs/d.md", "lib/a.ts", "lib/b.ts", "lib/c.ts", "src/.env"]);
  });

  it("rejects an invalid policy file with one path: message line per problem", () => {
    const repo = basicRepo();
    repo.write(".review-remote.json", JSON.stringify({ exclude: "x", bogus: 1, secrets: { allow: [{}] } }));
    const before = repoState(repo);
    const result = repo.run(["export"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("invalid policy file .review-remote.json");
    expect(result.stderr).toMatch(/^ {2}exclude: /m);
    expect(result.stderr).toMatch(/^ {2}\(top\): Unrecognized key: "bogus"/m);
    expect(result.stderr).toMatch(/^ {2}secrets\.allow\.0: needs "rule"/m);
    expect(repoState(repo)).toEqual(before);
  });

  it("selects paths with pathspecs relative to the current directory", () => {
    const repo = basicRepo();
    repo.write("src/b.ts", "b\n");
    repo.write("lib/c.ts", "c\n");
    repo.commit();
    expect(listJson(repo, ["--", "*.ts"], join(repo.dir, "src")).files.map((f) => f.path)).toEqual([
      "src/app.ts",
      "src/b.ts",
    ]);
    expect(listJson(repo, ["--", ":(glob)**/*.ts"]).files.map((f) => f.path)).toEqual([
      "lib/c.ts",
      "src/app.ts",
      "src/b.ts",
    ]);
    const none = repo.run(["export", "--", "nothing-here"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("pathspec 'nothing-here' did not match");
  });

  it("snapshots the work tree without touching the index, the work tree or the object store", () => {
    const repo = basicRepo();
    repo.write(".gitignore", "*.log\n");
    repo.commit("ignore");
    repo.write("src/app.ts", "export const a = 2;\n");
    repo.write("src/untracked.ts", "new\n");
    repo.write("debug.log", "ignored\n");
    repo.git("add", "src/app.ts");
    repo.write("src/app.ts", "export const a = 3;\n");
    const before = repoState(repo);
    const result = exportJson(repo, ["--worktree"]);
    expect(repoState(repo)).toEqual(before);
    const dir = unpack(result.path);
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toBe("export const a = 3;\n");
    expect(readFileSync(join(dir, "src/untracked.ts"), "utf8")).toBe("new\n");
    expect(() => statSync(join(dir, "debug.log"))).toThrow();
    expect(() => statSync(join(dir, ".env"))).toThrow();
    expect(exportJson(repo, ["--worktree"]).sha256).toBe(result.sha256);
  });

  it("keeps back the untracked repositories inside the work tree, with or without a commit", () => {
    const repo = basicRepo();
    // A scratch `git init` with nothing committed (git add fails on it), and a clone with history.
    repo.git("init", "-q", "scratch");
    repo.write("scratch/notes.txt", "notes\n");
    repo.git("init", "-q", "deps/lib");
    repo.write("deps/lib/b.txt", "inner\n");
    const inner = { env: repo.env, cwd: join(repo.dir, "deps/lib") };
    execFileSync("git", ["add", "b.txt"], inner);
    execFileSync("git", ["-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", "b"], inner);
    repo.write("src/new.ts", "export const n = 1;\n");
    const before = repoState(repo);
    const list = listJson(repo, ["--worktree"]);
    expect(repoState(repo)).toEqual(before);
    const reason = "nested repository (untracked, with its own history)";
    expect(list.excluded).toEqual([
      { path: ".env", reason: expect.stringMatching(/^secret name: /) },
      { path: "deps/lib", reason },
      { path: "scratch", reason },
    ]);
    expect(list.files.map((file) => file.path)).toEqual(["README.md", "src/app.ts", "src/new.ts"]);
    const exported = repo.run(["export", "--worktree"]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).not.toMatch(/warning|embedded/);
  });

  it("works from a subdirectory, a linked worktree and with a relative --git-dir", () => {
    const repo = basicRepo();
    const sha = exportJson(repo).sha256;
    expect(exportJson(repo, [], join(repo.dir, "src")).sha256).toBe(sha);
    const linked = join(repo.dir, "..", "linked");
    repo.git("worktree", "add", "-q", linked);
    const fromLinked = exportJson(repo, [], linked);
    expect(fromLinked.sha256).toBe(sha);
    expect(fromLinked.path).toBe(join(repo.dir, ".git", "review-remote", "bundles", `${sha}.tar.gz`));
    const viaGitDir = execFileSync(
      "git",
      ["--git-dir=repo/.git", "--work-tree=repo", "review-remote", "export", "--json"],
      {
        cwd: join(repo.dir, ".."),
        env: repo.env,
        encoding: "utf8",
      },
    );
    expect(JSON.parse(viaGitDir).sha256).toBe(sha);
  });

  it("ignores GIT_INDEX_FILE and GIT_DIR handed down by a hook", () => {
    const repo = basicRepo();
    const sha = exportJson(repo).sha256;
    const result = repo.run(["export", "--json"], {
      env: { GIT_INDEX_FILE: join(repo.dir, "bogus-index"), GIT_OBJECT_DIRECTORY: "/nonexistent" },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).sha256).toBe(sha);
  });

  it("removes the temp files of an earlier run that was killed", () => {
    const repo = basicRepo();
    const dead = spawnSync("true").pid as number;
    const scratch = join(tmpdir(), `review-remote-export-${dead}-stale`);
    mkdirSync(scratch, { recursive: true });
    const storeTmp = join(repo.dir, ".git", "review-remote", "tmp");
    mkdirSync(storeTmp, { recursive: true });
    writeFileSync(join(storeTmp, `bundle.tmp-${dead}-0000`), "partial");
    expect(repo.run(["export"]).status).toBe(0);
    expect(existsSync(scratch)).toBe(false);
    expect(readdirSync(storeTmp)).toEqual([]);
  });

  it("stops quietly when its output pipe closes early", () => {
    const repo = basicRepo();
    for (let i = 0; i < 2000; i++) repo.write(`many/file-${i}.txt`, "x\n");
    repo.commit("many");
    const result = spawnSync("sh", ["-c", "git review-remote export --list | head -1"], {
      cwd: repo.dir,
      env: repo.env,
      encoding: "utf8",
    });
    expect(result.stdout).toMatch(/^Would send 2002 files/);
    // No error of the closed pipe: only the hint at the change a review would send too.
    expect(result.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("hint: "))).toEqual([]);
  });

  it("exits with its own code when the pipe its errors go to closes early", () => {
    const repo = basicRepo();
    for (let i = 0; i < 2000; i++) repo.write(`many/file-${i}.txt`, "x\n");
    repo.write("conf.txt", `token = "${fake.githubPat()}"\n`);
    repo.commit("many, and a token");
    // The refusal (exit 6) and its hints go to stderr after the listing closed the pipe.
    const result = spawnSync(
      "bash",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source
      ["-c", "git review-remote export --list 2>&1 | head -1; exit ${PIPESTATUS[0]}"],
      {
        cwd: repo.dir,
        env: repo.env,
        encoding: "utf8",
      },
    );
    expect(result.stdout).toMatch(/^Would send 2003 files/);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(6);
  });

  it("with no revision, says a review with none also sends its change's patch, and how to list it", () => {
    const repo = basicRepo();
    const base = repo.git("rev-parse", "HEAD").trim();
    repo.write("b.txt", "another commit\n");
    const head = repo.commit("another");
    const range = `${base.slice(0, 10)}..${head.slice(0, 10)}`;
    const result = repo.run(["export", "--list"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `hint: git review-remote with no revision reviews the change ${range}, whose patch leaves too (removed lines included, scanned as well): git review-remote export --list ${range} lists it\n`,
    );
    const listed = repo.run(["export", "--list", range]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`and the change ${range}: 1 changed path`);
    expect(repo.run(["export", "--list", "HEAD"]).stderr).toBe("");
  });

  it("writes a copy with -o, as a file of the user's that the next -o can write over", () => {
    const repo = basicRepo();
    const target = join(repo.home, "out.tar.gz");
    const result = exportJson(repo, ["-o", target]);
    expect(readFileSync(target)).toEqual(readFileSync(result.path));
    // The store's bundles are read-only; a copy of that mode stopped the next export, run as a
    // user, with EACCES.
    expect(statSync(target).mode & 0o200).toBe(0o200);
    repo.write("b.txt", "another commit\n");
    repo.commit("another");
    const again = exportJson(repo, ["-o", target]);
    expect(readFileSync(target)).toEqual(readFileSync(again.path));
  });

  it("says what -o wrote where: the file it was given, and the stored bundle beside it", () => {
    const repo = basicRepo();
    repo.write("sub/.keep", "");
    const text = repo.run(["export", "-o", "out.tar.gz"], { cwd: join(repo.dir, "sub") });
    expect(text.status, text.stderr).toBe(0);
    const [sha256, written, ...rest] = text.stdout.split("\n");
    expect(rest).toEqual([""]);
    const stored = join(repo.dir, ".git", "review-remote", "bundles", `${sha256}.tar.gz`);
    // It printed the stored bundle's path, and nothing said where the copy went.
    expect(written).toBe("out.tar.gz");
    expect(readFileSync(join(repo.dir, "sub", "out.tar.gz"))).toEqual(readFileSync(stored));
    expect(text.stderr).toContain(`compressed) to out.tar.gz (stored as ${stored}); `);
    const json = exportJson(repo, ["-o", "out.tar.gz"], join(repo.dir, "sub"));
    expect(json).toMatchObject({ sha256, path: stored, output: join(repo.dir, "sub", "out.tar.gz") });
    // Without -o: the stored bundle, and no `output`.
    const plain = repo.run(["export"]);
    expect(plain.stdout).toBe(`${sha256}\n${stored}\n`);
    expect(plain.stderr).not.toContain(" to ");
    expect(exportJson(repo)).not.toHaveProperty("output");
  });

  it("lists a path a range keeps back on its base's side alone: a .env the change deletes", () => {
    const repo = basicRepo();
    repo.write(".env.local", "TOKEN=def\n");
    repo.commit("a local env");
    repo.git("rm", "-q", ".env");
    repo.write("src/app.ts", "export const a = 2;\n");
    repo.commit("no more .env");
    // The deletion's side of the patch is left out of what is sent: the listing says so, as it
    // says of the head's .env.local, or "every path kept back" missed it.
    const listed = listJson(repo, ["HEAD~1..HEAD"]);
    expect(listed.excluded).toEqual([
      {
        path: ".env",
        reason: "secret name: dotenv (dotenv file) (in the range's base; left out of the patch)",
      },
      { path: ".env.local", reason: "secret name: dotenv (dotenv file)" },
    ]);
    const text = repo.run(["export", "--list", "HEAD~1..HEAD"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("and the change ");
    expect(text.stdout).toContain(": 1 changed path,");
    expect(text.stdout).toMatch(/^Would keep back 2 paths:\n {2}\.env {8}secret name: /m);
    // A review of the tree alone has no base: only the head's .env.local.
    expect(listJson(repo).excluded.map((entry) => entry.path)).toEqual([".env.local"]);
  });

  it("leaves the stored bundle whole when -o names it", () => {
    const repo = basicRepo();
    const first = exportJson(repo);
    const bytes = readFileSync(first.path);
    // Opened for writing, the store's bundle was emptied before it was read (as root, whom its
    // read-only mode does not stop), and the export still said it was written.
    const again = exportJson(repo, ["-o", first.path]);
    expect(again.path).toBe(first.path);
    expect(readFileSync(first.path)).toEqual(bytes);
    expect(statSync(first.path).mode & 0o777).toBe(0o444);
  });

  it("fails clearly outside a repository and in an empty one", () => {
    const outside = mkdtempSync(join(tmpdir(), "rr-norepo-"));
    scratch.push(outside);
    const repo = newRepo();
    const notRepo = repo.run(["export"], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(notRepo.status).toBe(2);
    expect(notRepo.stderr).toMatch(/^git-review-remote: not a git repository/m);
    const empty = repo.run(["export"]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("the repository has no commits yet");
    expect(empty.stderr).toContain("hint: ");
  });

  it("leaves nothing half-written when the store cannot be written", () => {
    const repo = basicRepo();
    const store = join(repo.dir, ".git", "review-remote");
    execFileSync("mkdir", ["-p", join(store, "tmp")]);
    // A file where the bundles directory should be: mkdir fails even for root.
    writeFileSync(join(store, "bundles"), "");
    const before = repoState(repo);
    const result = repo.run(["export"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^git-review-remote: cannot write to the store .*bundles/m);
    expect(result.stderr).toContain("hint: ");
    expect(readdirSync(join(store, "tmp"))).toEqual([]);
    expect(repoState(repo)).toEqual(before);
  });
});

describe("export of secret files by name", () => {
  it("never lists a secret name among the files and keeps innocent look-alikes", () => {
    const repo = newRepo();
    const secret = [
      ".env",
      ".env.production",
      "config/.env.local",
      "certs/server.key",
      ".ssh/config",
      "id_rsa",
      ".aws/credentials",
      "infra/kubeconfig",
      "prod.tfstate",
      "terraform.tfvars",
      ".npmrc",
      ".netrc",
      ".git-credentials",
      ".pgpass",
      ".htpasswd",
      "deploy/app.pem",
      "k.p12",
      "store.jks",
    ];
    const innocent = [
      "src/environment.ts",
      "docs/secrets-management.md",
      "components/Secretary.tsx",
      ".env.example",
      "lib/tempemail.js",
      "docs/keypem.md",
      "keys.ts",
      "src/key.ts.md",
      "pem.txt",
      "credentials.md",
    ];
    for (const path of [...secret, ...innocent]) repo.write(path, "x\n");
    writeFileSync(join(repo.dir, "placeholder"), "");
    repo.commit();
    const list = listJson(repo);
    const files = list.files.map((f) => f.path);
    for (const path of secret) expect(files, path).not.toContain(path);
    for (const path of innocent) expect(files, path).toContain(path);
    for (const path of secret)
      expect(list.excluded.find((e) => e.path === path)?.reason, path).toMatch(/^secret name: /);
  });
});
