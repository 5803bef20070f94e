// Turns what the reviewer did to the tree into proposed commits (design §6): one per reviewer commit,
// plus one for uncommitted leftovers, each as a text patch against the one before. Runs git only on a
// private git dir (the reviewer could have rewritten tree/.git/config) with the tree's objects borrowed.

import { copyFileSync } from "node:fs";
import { commitTree, type GitRun, isAncestor, treeOf } from "../git/commits.js";
import { diffTrees, type TreeChange } from "../git/raw-diff.js";
import { type Env, git, spawnGit } from "../git/run.js";
import { listTreePaths, Mode, readTreeMerge, writeTree } from "../git/trees.js";
import { forbiddenChangeReason } from "../paths/forbidden.js";
import { RenameGroups } from "../paths/rename-groups.js";
import { checkPath } from "../paths/result.js";
import { scopedMessage } from "../pipeline/scoped-message.js";
import { type Limits, overLimitRule, type RaisableLimit } from "../protocol/limits.js";
import type { ProposedCommit, ReviewComment } from "../protocol/result.js";
import { plural } from "../report/plural.js";
import { changedTexts, type NamedPatches, readNamedPatches } from "../validate/npm-patches.js";
import { isPackageJsonPath } from "../validate/npm-scripts.js";
import {
  exposedManifestProblem,
  isPackageFile,
  isPnpmManifestPath,
  isPnpmTree,
  pnpmManifestProblem,
} from "../validate/npm-sources.js";
import { installsWithPnpm, packageChangeProblems } from "../validate/package-change.js";
import { workerMessages } from "./messages.js";

/** A reviewer outcome that cannot become a result: reported as status "failed", never thrown further. */
export class ProposalError extends Error {}

/** The proposals go over a request limit: left out, while the comments still count. */
export class ProposalLimitError extends ProposalError {
  constructor(
    readonly limit: RaisableLimit,
    message: string,
  ) {
    super(message);
  }
}

export interface CollectContext {
  tree: string;
  /** Private bare git dir whose alternates point at tree/.git/objects. */
  gitDir: string;
  env: Env;
  baseline: string;
  /** A copy of the index written at the baseline (stat data included), outside the reviewer's reach. */
  baselineIndex: string;
  /** Only the blobs a reviewer changed were written (a built-in reviewer): trees may name absent ones. */
  missingBlobs: boolean;
  /** The reviewer's HEAD commit. */
  head: string;
  /** Message for the commit of uncommitted leftovers; none are collected without one. */
  leftoverMessage?: string | undefined;
  forbiddenPaths: readonly string[];
  limits: Limits;
  /**
   * A focused review's changed paths: proposals over maxPatchBytes are cut to the fixes to these
   * (and to files the reviewer created) before they are left out whole.
   */
  changed?: ReadonlySet<string> | undefined;
  /** The request's deadline: every git collecting runs is killed when it aborts. */
  signal?: AbortSignal;
}

export interface Collected {
  commits: ProposedCommit[];
  /** Changes left out of the patches, one note each. */
  notes: ReviewComment[];
}

const MAX_MESSAGE_CHARS = 65_536;
const MAX_SKIPPED_PATHS = 1000;

/** Git on the private git dir and the reviewer's tree, never the tree's own .git. */
function runIn(ctx: CollectContext): GitRun {
  return {
    cwd: ctx.tree,
    env: { ...ctx.env, GIT_DIR: ctx.gitDir, GIT_WORK_TREE: ctx.tree, GIT_INDEX_FILE: `${ctx.gitDir}/index` },
    signal: ctx.signal,
  };
}

function gitIn(ctx: CollectContext, args: string[]) {
  return git(args, runIn(ctx));
}

/** Reviewer commits from the baseline to HEAD, oldest first; refuses merges and foreign histories. */
async function listReviewerCommits(ctx: CollectContext): Promise<string[]> {
  if (ctx.head === ctx.baseline) return [];
  if (!(await isAncestor(runIn(ctx), ctx.baseline, ctx.head)))
    throw new ProposalError("the reviewer's HEAD does not descend from the baseline commit");
  const lines = (
    await gitIn(ctx, ["rev-list", "--reverse", "--parents", `${ctx.baseline}..${ctx.head}`])
  ).stdout
    .trim()
    .split("\n");
  let previous = ctx.baseline;
  const commits: string[] = [];
  for (const line of lines) {
    const [commit, ...parents] = line.split(" ");
    if (parents.length !== 1 || parents[0] !== previous) {
      throw new ProposalError(
        `the reviewer's history is not a straight line of commits on the baseline (at ${commit})`,
      );
    }
    commits.push(commit as string);
    previous = commit as string;
  }
  if (commits.length > ctx.limits.maxCommits) {
    throw new ProposalLimitError(
      "maxCommits",
      `the reviewer made ${plural(commits.length, "commit")}, over the limit of ${ctx.limits.maxCommits}`,
    );
  }
  return commits;
}

/** A commit of whatever the reviewer left uncommitted on top of `head`, or undefined. */
async function commitLeftovers(ctx: CollectContext): Promise<string | undefined> {
  if (ctx.leftoverMessage === undefined) return undefined;
  // Start from the baseline's stat data and move it to HEAD with a two-tree merge (entries the reviewer
  // did not commit keep it): `add -A` then hashes only what changed, not the whole tree again.
  copyFileSync(ctx.baselineIndex, `${ctx.gitDir}/index`);
  // -i: compare against the index only; the work tree holds the reviewer's uncommitted edits.
  const run = runIn(ctx);
  if (ctx.head !== ctx.baseline) await readTreeMerge(run, ctx.baseline, ctx.head);
  // Ignored files stay out (build output); tracked files, even ignored ones, are compared as usual.
  // Files over 1 MiB are streamed with read() rather than mapped: a mapped hole of a sparse file takes
  // room in the tmpfs as it is read, so a reviewer's sparse files could fill the workspace through git.
  await gitIn(ctx, ["-c", "core.bigFileThreshold=1m", "add", "-A"]);
  const tree = await writeTree(run, { missingOk: ctx.missingBlobs });
  if (tree === (await treeOf(run, ctx.head))) return undefined;
  return commitTree(run, tree, [ctx.head], ctx.leftoverMessage);
}

/** Why a change cannot be proposed as a text patch the client accepts (design §9 layer 4). */
function unsupportedReason(
  change: TreeChange,
  binary: ReadonlySet<string>,
  forbidden: readonly string[],
): string | undefined {
  const modes = [change.oldMode, change.newMode];
  if (modes.includes(Mode.symlink)) return "symlink changes are not proposed";
  if (modes.includes(Mode.gitlink)) return "submodule changes are not proposed";
  if (change.oldMode !== Mode.none && change.newMode !== Mode.none && change.oldMode !== change.newMode) {
    return "file mode changes are not proposed";
  }
  if (change.oldMode === Mode.none && change.newMode !== Mode.regular)
    return "new executable files are not proposed";
  if (binary.has(change.path)) return "binary changes are not proposed (text patches only)";
  // A name the client's path rules refuse (a control character, an invisible one...) would get the
  // whole result refused (layer 2): leave that file out, not the rest with it.
  const nameProblem = checkPath(change.path)[0];
  if (nameProblem) return `the ${nameProblem}`;
  const reason = forbiddenChangeReason(change.path, forbidden);
  return reason ? `the path ${reason}` : undefined;
}

/**
 * Why a change of a package.json or lockfile cannot be proposed: what it adds that the next install
 * would run or fetch, which the client refuses the whole result for. Undefined when it may be, or
 * when a blob is not there to judge (a built-in reviewer writes only what it changed): the client
 * judges those.
 */
async function packageFileReason(
  ctx: CollectContext,
  change: TreeChange,
  to: string,
  listPaths: () => Promise<string[]>,
): Promise<string | undefined> {
  if (change.newMode !== Mode.regular && change.newMode !== Mode.executable) return undefined;
  if (!isPackageFile(change.path)) return undefined;
  const read = async (oid: string) => {
    const blob = await git(["cat-file", "blob", oid], { ...runIn(ctx), allowFailure: true });
    return blob.exitCode === 0 ? blob.stdout : undefined;
  };
  const after = await read(change.newOid);
  const modified = change.oldMode === Mode.regular || change.oldMode === Mode.executable;
  const before = modified ? await read(change.oldOid) : undefined;
  if (after === undefined || (modified && before === undefined)) return undefined;
  const problems = await packageChangeProblems(change.path, before, after, {
    paths: listPaths,
    read: (path) => read(`${to}:${path}`),
  });
  return problems.length === 0 ? undefined : `the file ${problems.join("; ")}`;
}

async function findSkips(
  ctx: CollectContext,
  from: string,
  to: string,
  skipped: Map<string, string>,
  namedPatches: Promise<NamedPatches>,
): Promise<void> {
  const patches = await namedPatches;
  const raw = await diffTrees(runIn(ctx), from, to, { renames: false });
  const binary = new Set<string>();
  for (const record of (await gitIn(ctx, ["diff", "--numstat", "-z", "--no-renames", from, to])).stdout.split(
    "\0",
  )) {
    const match = /^-\t-\t(.*)$/s.exec(record);
    if (match) binary.add(match[1] as string);
  }
  let listing: Promise<{ paths: string[]; pnpm: boolean }> | undefined;
  const list = () => {
    listing ??= listTreePaths(runIn(ctx), to).then((paths) => ({ paths, pnpm: isPnpmTree(paths) }));
    return listing;
  };
  let baselinePnpm: Promise<boolean> | undefined;
  const manifestReason = async (change: TreeChange) => {
    if (change.status === "D") {
      // A package.json removed leaves pnpm the package.yaml or package.json5 beside it.
      if (!isPackageJsonPath(change.path)) return undefined;
      const { paths } = await list();
      const problem = exposedManifestProblem(change.path, paths);
      return problem === undefined ? undefined : `the file ${problem}`;
    }
    if (!isPnpmManifestPath(change.path)) return undefined;
    // pnpm installs the tree if it did at the baseline: this commit or one before may delete the
    // lockfile. Asked once, and only of a manifest the tree alone does not make pnpm's.
    baselinePnpm ??= installsWithPnpm(runIn(ctx), ctx.baseline);
    const pnpm = (await list()).pnpm || (await baselinePnpm);
    const problem = pnpmManifestProblem(change.path, pnpm);
    return problem === undefined ? undefined : `the file ${problem}`;
  };
  // While a base file's patches are unread, a file is judged by its texts too: every change's read
  // at once, the first time one is asked for.
  let texts: Promise<Map<string, string[]>> | undefined;
  const patchReason = async (change: TreeChange) => {
    texts ??= changedTexts(runIn(ctx), raw, patches);
    const reason = patches.reason(change.path, (await texts).get(change.path));
    return reason === undefined ? undefined : `the path ${reason}`;
  };
  for (const change of raw) {
    if (skipped.has(change.path)) continue;
    const reason =
      unsupportedReason(change, binary, ctx.forbiddenPaths) ??
      (await patchReason(change)) ??
      (await packageFileReason(ctx, change, to, async () => (await list()).paths)) ??
      (await manifestReason(change));
    if (reason) skipped.set(change.path, reason);
  }
  if (skipped.size > MAX_SKIPPED_PATHS)
    throw new ProposalError(`over ${MAX_SKIPPED_PATHS} changed paths cannot be proposed`);
}

/** `git diff` output, read up to `maxBytes` (the git is stopped beyond that). */
async function readPatch(ctx: CollectContext, args: string[], maxBytes: number): Promise<Buffer | undefined> {
  const child = spawnGit(["--git-dir", ctx.gitDir, "--work-tree", ctx.tree, ...args], {
    cwd: ctx.tree,
    env: ctx.env,
    signal: ctx.signal,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      over = true;
      break; // closes stdout, so git cannot block on a full pipe while we wait for it
    }
    chunks.push(chunk);
  }
  if (over) {
    child.kill();
    await child.exited;
    return undefined;
  }
  const result = await child.exited;
  if (result.exitCode !== 0) throw new Error(`git diff failed: ${result.stderr.trim()}`);
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function commitMessage(ctx: CollectContext, commit: string): Promise<string> {
  const raw = (await gitIn(ctx, ["cat-file", "commit", commit])).stdout;
  const body = raw.slice(raw.indexOf("\n\n") + 2).trim();
  const bounded =
    body.length > MAX_MESSAGE_CHARS
      ? body.slice(0, MAX_MESSAGE_CHARS - 20).replace(/[\uD800-\uDBFF]$/, "")
      : body;
  return bounded === "" ? "Proposed change" : bounded;
}

export async function collectProposals(ctx: CollectContext): Promise<Collected> {
  const commits = await listReviewerCommits(ctx);
  const leftover = await commitLeftovers(ctx);
  if (leftover) commits.push(leftover);
  if (commits.length > ctx.limits.maxCommits) {
    throw new ProposalLimitError(
      "maxCommits",
      `${plural(commits.length, "proposed commit")}, over the limit of ${ctx.limits.maxCommits}`,
    );
  }
  try {
    return await collectPatches(ctx, commits, undefined);
  } catch (error) {
    if (!(error instanceof ProposalLimitError) || error.limit !== "maxPatchBytes" || !ctx.changed)
      throw error;
    // A whole-tree fixer (`prettier --write .`) on a focused review: the client keeps only the fixes
    // to the change's files anyway, so those are what is worth the bytes.
    const scope = await scopeToChange(ctx, commits, ctx.changed);
    if (scope === undefined) throw error;
    const collected = await collectPatches(ctx, commits, scope.keep);
    const note: ReviewComment = {
      severity: "warning",
      rule: overLimitRule("maxPatchBytes"),
      message: workerMessages.outsideChangeOverLimit(scope.left, error.message),
    };
    return { ...collected, notes: [note, ...collected.notes] };
  }
}

/** Pathspecs past this many bytes are not worth a second try (and near the argument limit). */
const MAX_SCOPE_PATHSPEC_BYTES = 256 * 1024;

/**
 * The paths of the chain to keep in a focused review: as the client scopes (renames joined; a group
 * with a changed path, or only paths the reviewer created, stays). Undefined when that keeps nothing
 * or leaves nothing out, or the paths to keep are too many to name.
 */
async function scopeToChange(
  ctx: CollectContext,
  commits: readonly string[],
  changed: ReadonlySet<string>,
): Promise<{ keep: string[]; left: number } | undefined> {
  const groups = new RenameGroups();
  const existed = new Map<string, boolean>();
  let previous = ctx.baseline;
  for (const commit of commits) {
    for (const change of await diffTrees(runIn(ctx), previous, commit, { renames: true })) {
      const names = change.fromPath === undefined ? [change.path] : [change.fromPath, change.path];
      groups.join(names);
      // First seen as a modification, a deletion or a rename's source: it was in the tree before.
      if (change.fromPath !== undefined && !existed.has(change.fromPath)) existed.set(change.fromPath, true);
      const created = change.status === "A" || change.fromPath !== undefined;
      if (!existed.has(change.path)) existed.set(change.path, !created);
    }
    previous = commit;
  }
  const keep = [...groups.inScope(existed.keys(), changed, (path) => existed.get(path) === true)];
  const left = existed.size - keep.length;
  const bytes = keep.reduce((sum, path) => sum + Buffer.byteLength(path) + 20, 0);
  if (keep.length === 0 || left === 0 || bytes > MAX_SCOPE_PATHSPEC_BYTES) return undefined;
  return { keep, left };
}

/**
 * The message of a commit whose patch leaves out some of the files it changed (paths it may not
 * propose, or the files outside the change when over maxPatchBytes): named after what it keeps, as
 * the client names a commit it scopes, not after files the patch does not hold.
 */
async function keptMessage(
  ctx: CollectContext,
  message: string,
  from: string,
  to: string,
  specs: readonly string[],
): Promise<string> {
  const names = async (pathspecs: readonly string[]) =>
    (await gitIn(ctx, ["diff", "--name-only", "-z", "-M", from, to, "--", ...pathspecs])).stdout
      .split("\0")
      .filter((name) => name !== "");
  const kept = await names(specs);
  const total = (await names([])).length;
  if (kept.length === 0 || kept.length >= total) return message;
  return scopedMessage(message, kept, total, workerMessages.keptProposable(kept.length, total));
}

/** One patch per commit against the one before, `only` these paths when given. */
async function collectPatches(
  ctx: CollectContext,
  commits: readonly string[],
  only: readonly string[] | undefined,
): Promise<Collected> {
  const includes = (only ?? []).map((path) => `:(top,literal)${path}`);
  const skipped = new Map<string, string>();
  const proposals: ProposedCommit[] = [];
  let budget = ctx.limits.maxPatchBytes;
  let previous = ctx.baseline;
  // The dependency patches the baseline's package files name, read once: no commit may change one.
  let namedPatches: Promise<NamedPatches> | undefined;
  for (const [index, commit] of commits.entries()) {
    namedPatches ??= readNamedPatches(runIn(ctx), ctx.baseline);
    await findSkips(ctx, previous, commit, skipped, namedPatches);
    const excludes = [...skipped.keys()].map((path) => `:(exclude,top,literal)${path}`);
    const args = [
      "diff",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--full-index",
      "-M",
      "--src-prefix=a/",
      "--dst-prefix=b/",
    ];
    const specs = [...includes, ...excludes];
    const patch = await readPatch(ctx, [...args, previous, commit, "--", ...specs], budget);
    if (patch === undefined) {
      throw new ProposalLimitError(
        "maxPatchBytes",
        `the proposed patches are over the limit of ${ctx.limits.maxPatchBytes} bytes`,
      );
    }
    const from = previous;
    previous = commit;
    if (patch.length === 0) continue;
    let text: string;
    try {
      text = utf8.decode(patch);
    } catch {
      throw new ProposalError(`proposed commit ${index + 1}: the patch is not valid UTF-8 text`);
    }
    budget -= patch.length;
    const message = await commitMessage(ctx, commit);
    proposals.push({
      message: specs.length > 0 ? await keptMessage(ctx, message, from, commit, specs) : message,
      patch: text,
    });
  }
  const notes: ReviewComment[] = [...skipped].map(([path, reason]) => ({
    path,
    severity: "warning",
    message: `The reviewer changed this path, but the change was left out: ${reason}.`,
    rule: "worker/change-not-proposed",
  }));
  return { commits: proposals, notes };
}
