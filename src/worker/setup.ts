// The host's setup command (design §8): it runs in the tree before the reviewers, confined like them
// but with the network only when the host says so, and may write the tree (install dependencies).
// What it adds is set aside: never staged, never proposed, kept when a failed reviewer is undone;
// what it changes in tracked files is undone. With a cache directory, what it added is kept under
// the sha256 of the tree's lockfile, and the next review of that lockfile restores it instead.

import { createHash, randomBytes } from "node:crypto";
import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { SetupOptions } from "./host-options.js";
import { workerMessages as m } from "./messages.js";
import { runProcess } from "./run-process.js";
import {
  chownTree,
  type Grants,
  type ReviewerIo,
  type ReviewerPhase,
  treeEnv,
  treeSpec,
} from "./run-reviewer.js";
import { type ResourceLimits, sandboxCommand } from "./sandbox.js";
import { toolsOutOfReach } from "./tools-reach.js";
import { notTracked, restoreTracked, type TreeGit } from "./tree-git.js";

/** The lockfiles whose hash keys the cache, the first found at the top of the tree. */
const LOCKFILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "Cargo.lock",
  "poetry.lock",
  "uv.lock",
  "Gemfile.lock",
  "go.sum",
];
const MAX_LOCKFILE_BYTES = 64 * 1024 * 1024;
/**
 * The package managers' configuration, which the request brings: it can point the install elsewhere
 * or run a program of the tree (`.npmrc`'s `git=`, a pnpmfile), so what setup added under one is no
 * answer for another tree with the same lockfile. Hashed into the key: the top's copies, then every
 * copy below the top (a workspace's `packages/web/.npmrc`, which pnpm reads for that workspace, and
 * Yarn, Bun or Cargo run from that directory), whether or not this install reads it.
 */
const INSTALL_CONFIGS = [
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  "pnpm-workspace.yaml",
  ".pnpmfile.cjs",
  ".pnpmfile.mjs",
  "bunfig.toml",
  ".cargo/config.toml",
  ".cargo/config",
  ".bundle/config",
];

/**
 * The bytes of the regular file `name` in `tree` (never through a symlink), or undefined. A listed
 * path below the top goes through directories only: a bundle holds nothing under a symlink.
 */
function readTopFile(tree: string, name: string): Buffer | undefined {
  const path = join(tree, name);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size > MAX_LOCKFILE_BYTES) return undefined;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface SetupContext extends ReviewerPhase {
  setup: SetupOptions;
  /** Every path of the tree as the bundle listed it, before anything of the request ran. */
  treePaths: Iterable<string>;
  io: ReviewerIo;
  tools: readonly string[];
  limits: ResourceLimits;
  git: TreeGit;
}

export type SetupOutcome =
  /** `excluded`: what setup added that git would otherwise stage (ignored entries need nothing). */
  { ok: true; excluded: string[]; account: string } | { ok: false; error: string; account: string };

/** The install configuration files below the top of the tree (`packages/web/.npmrc`), in byte order. */
function nestedInstallConfigs(paths: Iterable<string>): string[] {
  const found: string[] = [];
  for (const path of paths) {
    if (INSTALL_CONFIGS.some((config) => path.endsWith(`/${config}`))) found.push(path);
  }
  return found.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * The cache key: the sha256 of the first lockfile at the top of the tree (a regular file) and of the
 * install configuration at the top and below it (the lockfile's own sha256 when there is none), or
 * undefined.
 */
function lockfileKey(tree: string, paths: Iterable<string>): { name: string; sha256: string } | undefined {
  for (const name of LOCKFILES) {
    const lockfile = readTopFile(tree, name);
    if (lockfile === undefined) continue;
    const hash = createHash("sha256").update(lockfile);
    for (const config of [...INSTALL_CONFIGS, ...nestedInstallConfigs(paths)]) {
      const bytes = readTopFile(tree, config);
      if (bytes !== undefined) hash.update(`\0${config}\0${bytes.length}\0`).update(bytes);
    }
    return { name, sha256: hash.digest("hex") };
  }
  return undefined;
}

const CP = ["-R", "-P", "--preserve=mode,timestamps,links", "--"];

/** cp or chmod on the cache, run by the worker itself, bounded in time and output. */
function coreutil(file: string, args: string[], cwd: string, signal: AbortSignal) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
  return runProcess({ file, args, env }, { cwd, timeoutMs: 600_000, signal, maxOutputBytes: 0 });
}

function cp(args: string[], cwd: string, signal: AbortSignal) {
  return coreutil("cp", [...CP, ...args], cwd, signal);
}

/**
 * Copies the cache entry into the tree (before anything of the request ran there) and gives it to
 * the sandbox's user; false when the tree already has one of its names.
 */
async function restore(ctx: SetupContext, entry: string): Promise<boolean> {
  const names = readdirSync(entry);
  if (names.some((name) => lstatSync(join(ctx.io.tree, name), { throwIfNoEntry: false }))) return false;
  const paths = names.map((name) => join(entry, name));
  const copied = await cp([...paths, ctx.io.tree], entry, ctx.deadline.signal);
  if (copied.exitCode !== 0) return false;
  const targets = names.map((name) => join(ctx.io.tree, name));
  if (ctx.sandbox.user) await chownTree(targets, ctx.sandbox.user, ctx.deadline.signal);
  return true;
}

/** Keeps what setup added under the key; a concurrent worker that kept it first wins. */
async function save(
  cacheDir: string,
  key: string,
  tree: string,
  added: readonly string[],
  signal: AbortSignal,
) {
  const temporary = join(cacheDir, `.tmp-${key}-${randomBytes(6).toString("hex")}`);
  await mkdir(temporary, { mode: 0o755 });
  try {
    // cp -P copies symlinks as links: nothing outside the tree is read.
    const paths = added.map((path) => join(tree, path.replace(/\/$/, "")));
    if ((await cp([...paths, temporary], tree, signal)).exitCode !== 0) return false;
    // The copies belong to whoever runs the worker: no set-user-ID or set-group-ID file may stay.
    const strip = await coreutil("chmod", ["-R", "ug-s", "--", temporary], cacheDir, signal);
    if (strip.exitCode !== 0) return false;
    try {
      renameSync(temporary, join(cacheDir, key));
    } catch {
      return false;
    }
    return true;
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

async function runCommand(ctx: SetupContext): Promise<string | undefined> {
  const grants: Grants = { tools: ctx.tools, network: ctx.setup.network };
  const unreachable = toolsOutOfReach(ctx.sandbox, grants.tools);
  if (unreachable) return unreachable;
  const command = sandboxCommand(
    ctx.sandbox,
    treeSpec(ctx.io, grants, {
      argv: ["sh", "-c", ctx.setup.command],
      writable: [ctx.io.tree],
      readOnly: [],
      env: treeEnv(ctx.sandbox, ctx.io, grants),
      limits: ctx.limits,
    }),
  );
  const outcome = await runProcess(command, {
    cwd: ctx.io.tree,
    timeoutMs: ctx.deadline.remainingMs(),
    signal: ctx.deadline.signal,
    onOutput: ctx.onOutput,
    onSpawn: ctx.onSpawn,
  });
  if (outcome.error) return `it could not be started: ${outcome.error.message}`;
  if (outcome.signal) return `it was killed by ${outcome.signal}`;
  return outcome.exitCode === 0 ? undefined : `it exited with code ${outcome.exitCode}`;
}

export async function runSetup(ctx: SetupContext): Promise<SetupOutcome> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const { cacheDir } = ctx.setup;
  const lockfile = cacheDir ? lockfileKey(ctx.io.tree, ctx.treePaths) : undefined;
  const entry = cacheDir && lockfile ? join(cacheDir, lockfile.sha256) : undefined;
  if (entry && lstatSync(entry, { throwIfNoEntry: false })?.isDirectory()) {
    const restored = await restore(ctx, entry);
    if (restored) {
      // Set aside what git would see: entries the tree's .gitignore already ignores need nothing.
      const { untracked } = await notTracked(ctx.git);
      const account = `Setup: restored from the cache for ${lockfile?.name} ${lockfile?.sha256.slice(0, 12)} (${elapsed()}); \`${ctx.setup.command}\` not run.`;
      return { ok: true, excluded: untracked, account };
    }
    ctx.warn(`the cache entry for ${lockfile?.name} could not be restored; running the setup command`);
  }
  const failure = await runCommand(ctx);
  const ran = `Setup: \`${ctx.setup.command}\``;
  if (failure)
    return { ok: false, error: m.setupFailed(failure), account: `${ran} failed (${elapsed()}): ${failure}.` };
  if (await restoreTracked(ctx.git)) ctx.warn(m.setupTrackedReverted);
  const { untracked, ignored } = await notTracked(ctx.git);
  const added = [...untracked, ...ignored];
  let cached = "";
  if (cacheDir && lockfile && added.length > 0) {
    const saved = await save(cacheDir, lockfile.sha256, ctx.io.tree, added, ctx.deadline.signal);
    if (saved) cached = `; kept in the cache for ${lockfile.name} ${lockfile.sha256.slice(0, 12)}`;
  }
  return {
    ok: true,
    excluded: untracked,
    account: `${ran} (${elapsed()}, added ${added.join(", ") || "nothing"}${cached}).`,
  };
}
