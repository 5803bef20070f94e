// Validation layers 3 and 4 (design §9): apply the worker's commits, in order, to a private index and a
// private object directory that only borrows the repo's objects, then judge what git actually changed.
// The repo's object store, refs, index and work tree are never written, whatever the outcome.
import { mkdir, rm } from "node:fs/promises";
import { basename, isAbsolute, join } from "node:path";
import { OBJECT_ID, privateObjectEnv } from "../git/objects.js";
import { diffTrees, type TreeChange } from "../git/raw-diff.js";
import { type Env, type GitOptions, git } from "../git/run.js";
import { listTreePaths, Mode, readTree, writeTree } from "../git/trees.js";
import { createTempDir, QUARANTINE_PREFIX } from "../os/tempdir.js";
import type { SecretNameCheck } from "../paths/forbidden.js";
import { checkChange } from "./changes.js";
import { findCollisions, treeEntries } from "./collisions.js";
import { changedTexts, type NamedPatches, readNamedPatches } from "./npm-patches.js";
import { isPackageJsonPath } from "./npm-scripts.js";
import {
  exposedManifestProblem,
  isPackageFile,
  isPnpmManifestPath,
  isPnpmTree,
  pnpmManifestProblem,
} from "./npm-sources.js";
import { installsWithPnpm, packageChangeProblems } from "./package-change.js";
import { checkPatchText } from "./patch-gate.js";
import { escapeForDisplay, quoteForDisplay } from "./sanitize.js";

export interface QuarantineOptions {
  /** Environment for git on the user's repo (GIT_DIR / GIT_WORK_TREE). */
  repoEnv: Env;
  /** The repo's objects directory (absolute; the common one for a linked worktree). */
  objectsDir: string;
  cwd: string;
  /** The snapshot commit the proposals apply to. */
  base: string;
  /** Paths that were sent to the worker. */
  manifest: ReadonlySet<string>;
  commits: readonly { message: string; patch: string }[];
  /** Defaults plus policy. */
  forbiddenPaths: readonly string[];
  isSecretName: SecretNameCheck;
  maxPatchBytes: number;
  /** Accept `GIT binary patch` sections (off by default, design §6: "text only by default"). */
  allowBinary?: boolean;
}

/** Proposals that passed layers 2-4: their trees, and the private objects that hold them. */
export interface Quarantined {
  ok: true;
  quarantineDir: string;
  trees: string[];
}

export type QuarantineResult = Quarantined | { ok: false; problems: string[] };

const MAX_PROBLEMS = 50;

/**
 * `git apply` into the private index. Never `--unsafe-paths`, `--reject`, `--directory` or `-p`.
 * The checks git itself has for HFS+ and NTFS `.git` disguises are off outside macOS and Windows
 * by default (git-config(1) core.protectHFS/core.protectNTFS): turn both on everywhere.
 */
const APPLY = [
  ["-c", "core.protectHFS=true"],
  ["-c", "core.protectNTFS=true"],
  // The user's apply.ignoreWhitespace would let context lines match loosely.
  ["-c", "apply.ignoreWhitespace=no"],
  ["apply", "--cached"], // the private index only, never a work tree
  ["--whitespace=nowarn"], // hygiene fixes are whitespace changes; apply.whitespace=error must not refuse them
  ["-"], // the patch on stdin
].flat();

/** git sees the private index and writes only to the private objects, reading the repo's through alternates. */
export function quarantineEnv(dir: string, objectsDir: string, repoEnv: Env): Env {
  return privateObjectEnv(repoEnv, {
    objects: join(dir, "objects"),
    alternates: [objectsDir],
    index: join(dir, "index"),
  });
}

async function createQuarantine(): Promise<string> {
  const dir = await createTempDir(QUARANTINE_PREFIX);
  // One round of the thread pool (each makes `objects` if the other has not yet): beside the result's
  // fsync, each round waits on the file system's journal.
  const made = (name: string) => mkdir(join(dir, "objects", name), { recursive: true });
  await Promise.all([made("info"), made("pack")]);
  return dir;
}

/** Removes a quarantine directory; refuses anything `createQuarantine` did not make. */
export async function discardQuarantine(dir: string): Promise<void> {
  if (!isAbsolute(dir) || !basename(dir).startsWith(QUARANTINE_PREFIX)) {
    throw new Error(`not a quarantine directory: ${dir}`);
  }
  await rm(dir, { recursive: true, force: true });
}

export async function applyInQuarantine(options: QuarantineOptions): Promise<QuarantineResult> {
  if (!OBJECT_ID.test(options.base)) throw new Error(`base is not an object id: ${options.base}`);
  if (!isAbsolute(options.objectsDir))
    throw new Error(`objects directory is not absolute: ${options.objectsDir}`);
  const dir = await createQuarantine();
  try {
    const run: GitOptions = {
      cwd: options.cwd,
      env: quarantineEnv(dir, options.objectsDir, options.repoEnv),
    };
    const outcome = await applyCommits(run, options);
    if (outcome.problems.length === 0) return { ok: true, quarantineDir: dir, trees: outcome.trees };
    await discardQuarantine(dir);
    return { ok: false, problems: outcome.problems.slice(0, MAX_PROBLEMS) };
  } catch (error) {
    await discardQuarantine(dir);
    throw error;
  }
}

interface Outcome {
  trees: string[];
  problems: string[];
}

async function applyCommits(run: GitOptions, options: QuarantineOptions): Promise<Outcome> {
  // git reads the base into the index while the first patch's text is gated here; it is awaited
  // before anything is returned, so nothing still writes in the quarantine once it is discarded.
  const base = readTree(run, options.base);
  const [first] = options.commits;
  const firstGate = first ? settle(() => gatePatch(first.patch, options)) : undefined;
  // The dependency patches the base's package files name (a `git grep` of the base, 0.1-0.2 s on a
  // 28k-file tree), read while the first proposal is applied; awaited before anything is returned.
  const namedPatches = readNamedPatches(run, `${options.base}^{tree}`);
  const patchesRead = namedPatches.then(
    () => undefined,
    () => undefined,
  );
  try {
    await base;
    return await applyEach(run, options, firstGate, namedPatches);
  } finally {
    await patchesRead;
  }
}

async function applyEach(
  run: GitOptions,
  options: QuarantineOptions,
  firstGate: Settled<string[]> | undefined,
  namedPatches: Promise<NamedPatches>,
): Promise<Outcome> {
  const loadNamedPatches = () => namedPatches;
  // The base's tree as a tree-ish (the first diff's old side, its listing): no git call names it.
  const baseTree = `${options.base}^{tree}`;
  let tree = baseTree;
  // Listed once, and only if some proposal adds a path: only a new name can collide.
  let baseEntries: Promise<Set<string>> | undefined;
  const loadBaseEntries = () => {
    baseEntries ??= listTreePaths(run, baseTree).then(treeEntries);
    return baseEntries;
  };
  // Whether pnpm installs the base (its lockfile or workspace file, or its root package.json's
  // package manager): a package.yaml stays pnpm's manifest when a proposal deletes the lockfile
  // that tells. Read only if some proposal writes one.
  let basePnpm: Promise<boolean> | undefined;
  const loadBasePnpm = () => {
    basePnpm ??= installsWithPnpm(run, baseTree);
    return basePnpm;
  };
  const known = new Set(options.manifest);
  const trees: string[] = [];
  for (const [index, commit] of options.commits.entries()) {
    const gate = index === 0 && firstGate ? unsettle(firstGate) : gatePatch(commit.patch, options);
    const step = await applyCommit(commit.patch, gate, tree, {
      run,
      options,
      known,
      loadBaseEntries,
      loadBasePnpm,
      loadNamedPatches,
    });
    if (step.problems.length > 0) {
      return { trees, problems: step.problems.map((problem) => `commit ${index + 1}: ${problem}`) };
    }
    // Files this proposal created may be changed by the next one: the worker made them.
    for (const change of step.changes) {
      if (change.status === "A" || change.status === "R") known.add(change.path);
    }
    tree = step.tree;
    trees.push(tree);
  }
  return { trees, problems: [] };
}

interface StepContext {
  run: GitOptions;
  options: QuarantineOptions;
  known: ReadonlySet<string>;
  loadBaseEntries(): Promise<ReadonlySet<string>>;
  loadBasePnpm(): Promise<boolean>;
  loadNamedPatches(): Promise<NamedPatches>;
}

interface Step {
  tree: string;
  changes: TreeChange[];
  problems: string[];
}

/** Layer 2, the patch's text (checkPatchText): its problems, empty when it may be applied. */
function gatePatch(patch: string, options: QuarantineOptions): string[] {
  return checkPatchText(patch, { maxPatchBytes: options.maxPatchBytes, allowBinary: options.allowBinary });
}

type Settled<T> = { value: T } | { error: unknown };

/** `run`'s value or what it threw, to be had later (unsettle) in the order the steps run. */
function settle<T>(run: () => T): Settled<T> {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

function unsettle<T>(settled: Settled<T>): T {
  if ("error" in settled) throw settled.error;
  return settled.value;
}

async function applyCommit(
  patch: string,
  gate: string[],
  previous: string,
  context: StepContext,
): Promise<Step> {
  const { run, options } = context;
  const failed = (problems: string[]): Step => ({ tree: previous, changes: [], problems });
  if (gate.length > 0) return failed(gate);
  const applied = await git(APPLY, { ...run, input: patch, allowFailure: true });
  if (applied.exitCode !== 0) return failed(applyProblems(applied.stderr, applied.exitCode));
  const tree = await writeTree(run);
  // A rename is judged as one: its source must have been sent.
  const changes = await diffTrees(run, previous, tree, { renames: true });
  const rules = {
    known: context.known,
    forbiddenPaths: options.forbiddenPaths,
    isSecretName: options.isSecretName,
  };
  const problems = changes.flatMap((change) => checkChange(change, rules));
  problems.push(...(await patchProblems(run, changes, await context.loadNamedPatches())));
  problems.push(...(await lifecycleProblems(changes, run, tree, context.loadBasePnpm)));
  if (changes.some((change) => ["A", "R", "C"].includes(change.status))) {
    problems.push(...findCollisions(await listTreePaths(run, tree), await context.loadBaseEntries()));
  }
  return { tree, changes, problems };
}

function applyProblems(stderr: string, exitCode: number): string[] {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(0, 5);
  if (lines.length === 0) return [`git apply failed (exit code ${exitCode})`];
  return lines.map((line) => `git apply: ${escapeForDisplay(line)}`);
}

/**
 * The changes to a dependency patch the base's package files name (src/validate/npm-patches.ts),
 * each judged by its file's texts too where the base's patches are not all read.
 */
async function patchProblems(
  run: GitOptions,
  changes: readonly TreeChange[],
  named: NamedPatches,
): Promise<string[]> {
  const texts = await changedTexts(run, changes, named);
  const paths = new Set(changes.flatMap((change) => [change.fromPath ?? change.path, change.path]));
  return [...paths].flatMap((path) => {
    const reason = named.reason(path, texts.get(path));
    return reason === undefined ? [] : [`path ${quoteForDisplay(path)} ${reason}`];
  });
}

/** What the proposal's package.json and lockfile changes would make the next install run or fetch. */
async function lifecycleProblems(
  changes: readonly TreeChange[],
  run: GitOptions,
  tree: string,
  basePnpm: () => Promise<boolean>,
): Promise<string[]> {
  const problems: string[] = [];
  // The tree's paths, listed once and only if a check needs them.
  let listing: Promise<{ paths: string[]; pnpm: boolean }> | undefined;
  const list = () => {
    listing ??= listTreePaths(run, tree).then((paths) => ({ paths, pnpm: isPnpmTree(paths) }));
    return listing;
  };
  for (const change of changes) {
    // A package.json deleted or renamed away leaves pnpm the package.yaml or package.json5 beside it.
    const removed = change.status === "D" ? change.path : change.status === "R" ? change.fromPath : undefined;
    if (removed !== undefined && isPackageJsonPath(removed)) {
      const { paths } = await list();
      const problem = exposedManifestProblem(removed, paths);
      if (problem !== undefined) problems.push(`path ${quoteForDisplay(removed)} ${problem}`);
    }
    if (change.status === "D" || !isFileMode(change.newMode)) continue;
    if (isPnpmManifestPath(change.path)) {
      const pnpm = (await list()).pnpm || (await basePnpm());
      const problem = pnpmManifestProblem(change.path, pnpm);
      if (problem !== undefined) problems.push(`path ${quoteForDisplay(change.path)} ${problem}`);
    }
    if (!isPackageFile(change.path)) continue;
    const after = await readBlob(change.newOid, run);
    // A new or renamed-in file had nothing at this path before: all of its entries count.
    const modified = change.status === "M" && isFileMode(change.oldMode);
    const before = modified ? await readBlob(change.oldOid, run) : undefined;
    const found = await packageChangeProblems(change.path, before, after, {
      paths: async () => (await list()).paths,
      read: async (path) => (await git(["cat-file", "blob", `${tree}:${path}`], run)).stdout,
    });
    for (const problem of found) problems.push(`path ${quoteForDisplay(change.path)} ${problem}`);
  }
  return problems;
}

function isFileMode(mode: string): boolean {
  return mode === Mode.regular || mode === Mode.executable;
}

async function readBlob(oid: string, run: GitOptions): Promise<string> {
  return (await git(["cat-file", "blob", oid], run)).stdout;
}
