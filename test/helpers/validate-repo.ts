// Real git repositories for the validation tests: the fixture base repo in a temp dir, built and read
// in a clean, deterministic environment, and a snapshot of everything a rejection must leave alone.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Env, git, splitNul } from "../../src/git/run.js";
import { testEnv as sharedTestEnv } from "./repo.js";

const execFileAsync = promisify(execFile);

const FIXTURE_DIFFS = fileURLToPath(new URL("../fixtures/diffs/", import.meta.url));

/** The shared test environment, plus C messages and no prompts for the git output parsed here. */
function testEnv(home: string): Env {
  return sharedTestEnv(home, { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" });
}

export interface BaseRepo {
  root: string;
  /** The work tree. */
  dir: string;
  objectsDir: string;
  /** For git on the repo: GIT_DIR and GIT_WORK_TREE set, nothing else inherited. */
  env: Env;
  head: string;
  /** Every path of HEAD except `.env`, which the exporter excludes. */
  manifest: Set<string>;
  cleanup(): Promise<void>;
}

/** The corpus base repo (test/fixtures/diffs/make-base-repo.sh): its HEAD is always the same commit. */
export async function createBaseRepo(): Promise<BaseRepo> {
  const root = await mkdtemp(join(tmpdir(), "grr-validate-"));
  const home = join(root, "home");
  await mkdir(home);
  await writeFile(join(home, ".gitconfig"), "[gc]\n\tauto = 0\n[commit]\n\tgpgSign = false\n");
  const dir = join(root, "repo");
  await execFileAsync("bash", [join(FIXTURE_DIFFS, "make-base-repo.sh"), dir], { env: testEnv(home) });
  const env = { ...testEnv(home), GIT_DIR: join(dir, ".git"), GIT_WORK_TREE: dir };
  const run = { cwd: dir, env };
  const head = (await git(["rev-parse", "HEAD"], run)).stdout.trim();
  const files = splitNul((await git(["ls-tree", "-r", "-z", "--name-only", "HEAD"], run)).stdout);
  return {
    root,
    dir,
    objectsDir: join(dir, ".git", "objects"),
    env,
    head,
    manifest: new Set(files.filter((file) => file !== ".env")),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export interface RepoState {
  head: string;
  refs: string;
  indexSha256: string;
  status: string;
  objectCount: string;
  objectFiles: string[];
  /** sha256 over every file name and content under .git: nothing at all may have been written. */
  gitDirSha256: string;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function digestDir(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await listFiles(dir)) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(dir, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Everything a rejected result must leave byte-identical. */
export async function readRepoState(repo: BaseRepo): Promise<RepoState> {
  // Read without taking locks or refreshing the index (status would otherwise rewrite it).
  const run = { cwd: repo.dir, env: { ...repo.env, GIT_OPTIONAL_LOCKS: "0" } };
  const index = await readFile(join(repo.dir, ".git", "index"));
  const counts = (await git(["count-objects", "-v"], run)).stdout;
  return {
    head: (await git(["rev-parse", "HEAD"], run)).stdout,
    refs: (await git(["for-each-ref"], run)).stdout,
    indexSha256: createHash("sha256").update(index).digest("hex"),
    status: (await git(["status", "--porcelain=v1", "-z", "--untracked-files=all"], run)).stdout,
    objectCount: counts
      .split("\n")
      .filter((line) => /^(count|in-pack):/.test(line))
      .join("\n"),
    objectFiles: await listFiles(repo.objectsDir),
    gitDirSha256: await digestDir(join(repo.dir, ".git")),
  };
}

/** A stand-in for the secret name rules of src/secrets. */
export function testSecretName(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name === ".env.example") return undefined;
  if (name === ".env" || name.startsWith(".env.")) return "dotenv";
  if (/\.(?:pem|key)$/.test(name)) return "private-key";
  if (/^id_(?:rsa|dsa|ecdsa|ed25519)$/.test(name)) return "ssh-private-key";
  if (name === ".npmrc") return "npmrc";
  return undefined;
}

export interface FixtureDiff {
  name: string;
  verdict: "accept" | "reject";
  patch: string;
}

export async function readFixtureDiffs(): Promise<FixtureDiff[]> {
  const names = (await readdir(FIXTURE_DIFFS)).filter((name) => name.endsWith(".diff")).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.replace(/\.diff$/, "");
      const expect = await readFile(join(FIXTURE_DIFFS, `${name}.expect`), "utf8");
      const verdict = expect.trimStart().startsWith("accept") ? "accept" : "reject";
      return { name, verdict, patch: await readFile(join(FIXTURE_DIFFS, file), "utf8") } as FixtureDiff;
    }),
  );
}

/** A git-style name for a patch header: C-quoted when git would quote it. */
function gitName(name: string): string {
  const bytes = Buffer.from(name, "utf8");
  if (!bytes.some((byte) => byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c)) return name;
  let quoted = "";
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c) quoted += `\\${String.fromCharCode(byte)}`;
    else if (byte < 0x20 || byte >= 0x7f) quoted += `\\${byte.toString(8).padStart(3, "0")}`;
    else quoted += String.fromCharCode(byte);
  }
  return `"${quoted}"`;
}

function prefixed(prefix: "a/" | "b/", path: string): string {
  return gitName(`${prefix}${path}`);
}

/** A patch creating `path` with `lines` (each written with a final newline). */
export function newFilePatch(path: string, lines: readonly string[], mode = "100644"): string {
  const a = prefixed("a/", path);
  const b = prefixed("b/", path);
  return [
    `diff --git ${a} ${b}`,
    `new file mode ${mode}`,
    "--- /dev/null",
    `+++ ${b}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    "",
  ].join("\n");
}

/** A patch deleting `path`, whose content is `lines`. */
export function deleteFilePatch(path: string, lines: readonly string[], mode = "100644"): string {
  const a = prefixed("a/", path);
  const b = prefixed("b/", path);
  return [
    `diff --git ${a} ${b}`,
    `deleted file mode ${mode}`,
    `--- ${a}`,
    "+++ /dev/null",
    `@@ -1,${lines.length} +0,0 @@`,
    ...lines.map((line) => `-${line}`),
    "",
  ].join("\n");
}

/** A pure rename (100% similar). */
export function renamePatch(from: string, to: string): string {
  return [
    `diff --git ${prefixed("a/", from)} ${prefixed("b/", to)}`,
    "similarity index 100%",
    `rename from ${gitName(from)}`,
    `rename to ${gitName(to)}`,
    "",
  ].join("\n");
}
