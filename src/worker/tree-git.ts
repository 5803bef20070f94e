// Git in the reviewed tree between reviewers (design §8): staging and committing what one reviewer
// left, undoing what a failed one did, applying a diff report, listing what setup added. It runs
// confined like the reviewer, as the reviewer's user: the tree's .git is the reviewer's to rewrite,
// so the worker never runs git on it with its own rights.

import { WORKER_IDENTITY } from "./baseline.js";
import { runProcess } from "./run-process.js";
import { SANDBOX_PATH, type Sandbox, sandboxCommand } from "./sandbox.js";

export interface TreeGit {
  sandbox: Sandbox;
  tree: string;
  /** HOME outside a sandbox. */
  home: string;
  scratch?: string | undefined;
  /** The request's deadline. */
  signal: AbortSignal;
  /** What setup added (`node_modules/`): never staged, never cleaned. */
  excluded?: readonly string[] | undefined;
}

interface GitOutcome {
  ok: boolean;
  stdout: Buffer;
  /** stderr, for the message when it failed. */
  stderr: string;
}

/** Nothing of the tree's own configuration may run a program or sign: hooks, fsmonitor, signing. */
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "core.quotePath=false",
];

const TIMEOUT_MS = 120_000;
const MAX_STDOUT = 16 * 1024 * 1024;

/** Git run in the tree confined like the reviewer, without the network or the tools. */
async function treeGit(
  ctx: TreeGit,
  args: readonly string[],
  readOnly: readonly string[] = [],
): Promise<GitOutcome> {
  const command = sandboxCommand(ctx.sandbox, {
    argv: ["git", ...SAFE_CONFIG, ...args],
    cwd: ctx.tree,
    writable: [ctx.tree],
    readOnly,
    env: {
      PATH: SANDBOX_PATH,
      HOME: ctx.sandbox.kind === "none" ? ctx.home : "/tmp",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      LC_ALL: "C",
      ...WORKER_IDENTITY,
    },
    ...(ctx.scratch ? { scratch: ctx.scratch } : {}),
  });
  let stderr = "";
  const outcome = await runProcess(command, {
    cwd: ctx.tree,
    timeoutMs: TIMEOUT_MS,
    captureStdoutBytes: MAX_STDOUT,
    signal: ctx.signal,
    maxOutputBytes: 64 * 1024,
    onOutput: (text) => {
      stderr += text;
    },
  });
  return { ok: outcome.exitCode === 0 && !outcome.timedOut, stdout: outcome.stdout, stderr };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

/** Throws with git's first line of complaint when it failed. */
async function mustGit(ctx: TreeGit, args: readonly string[], readOnly: readonly string[] = []) {
  const outcome = await treeGit(ctx, args, readOnly);
  if (!outcome.ok) {
    const name = args.find((arg, index) => !arg.startsWith("-") && args[index - 1] !== "-c");
    throw new Error(`git ${name} in the tree failed: ${firstLine(outcome.stderr)}`);
  }
  return outcome;
}

/** `/node_modules/` for `node_modules/`: an ignore pattern that matches that path only. */
function literalPattern(path: string): string {
  const escaped = path.replace(/[\\*?[\]!# ]/g, (char) => `\\${char}`);
  return `/${escaped}`;
}

/** Stages everything the reviewer changed (not ignored files, nor what setup added); the staged paths. */
export async function stageAll(ctx: TreeGit): Promise<string[]> {
  const excludes = (ctx.excluded ?? []).map((path) => `:(exclude,top,literal)${path.replace(/\/$/, "")}`);
  // Files over 1 MiB are streamed, not mapped: a mapped hole of a sparse file takes room in the tmpfs
  // as it is read (see collect.ts).
  await mustGit(ctx, ["-c", "core.bigFileThreshold=1m", "add", "-A", "--", ".", ...excludes]);
  const listed = await mustGit(ctx, ["diff", "--cached", "--name-only", "--no-renames", "-z"]);
  return listed.stdout.toString("utf8").split("\0").filter(Boolean);
}

/** Commits the index with the message in `messageFile`. */
export async function commitStaged(ctx: TreeGit, messageFile: string): Promise<void> {
  await mustGit(ctx, ["commit", "-q", "--no-verify", "-F", messageFile], [messageFile]);
}

/** HEAD, the index and the files back at `commit`; untracked files gone, ignored ones kept. */
export async function resetTree(ctx: TreeGit, commit: string): Promise<void> {
  await mustGit(ctx, ["reset", "-q", "--hard", commit]);
  const keep = (ctx.excluded ?? []).flatMap((path) => ["-e", literalPattern(path)]);
  await mustGit(ctx, ["clean", "-fdq", ...keep]);
}

/** Applies a patch file to the files; git's complaint when it does not apply (nothing is changed). */
export async function applyPatch(ctx: TreeGit, patchFile: string): Promise<string | undefined> {
  const outcome = await treeGit(ctx, ["apply", "--whitespace=nowarn", patchFile], [patchFile]);
  return outcome.ok ? undefined : firstLine(outcome.stderr) || "git apply failed";
}
/**
 * The work tree's changes to `paths` against `commit` as a `-U0` diff, whatever the tree's own diff
 * settings say (prefixes, drivers, renames); undefined when git failed.
 */
export async function zeroContextDiff(
  ctx: TreeGit,
  commit: string,
  paths: readonly string[],
): Promise<string | undefined> {
  const outcome = await treeGit(ctx, [
    "--literal-pathspecs",
    "diff",
    "-U0",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    commit,
    "--",
    ...paths,
  ]);
  return outcome.ok ? outcome.stdout.toString("utf8") : undefined;
}

/**
 * What is not tracked, as git status shows it (`dir/` for a whole directory): `untracked` (git would
 * add it) and `ignored` (a .gitignore names it; git leaves it alone anyway).
 */
export async function notTracked(ctx: TreeGit): Promise<{ untracked: string[]; ignored: string[] }> {
  const listed = await mustGit(ctx, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=normal",
    "--ignored=traditional",
  ]);
  const entries = listed.stdout.toString("utf8").split("\0");
  const pick = (mark: string) =>
    entries.filter((entry) => entry.startsWith(mark)).map((entry) => entry.slice(3));
  return { untracked: pick("?? "), ignored: pick("!! ") };
}

/** Whether tracked files differ from HEAD (or git could not say). */
export async function trackedChanged(ctx: TreeGit): Promise<boolean> {
  return !(await treeGit(ctx, ["diff", "--quiet", "HEAD", "--"])).ok;
}

/** Undoes changes to tracked files (setup that rewrote a lockfile, say); whether there were any. */
export async function restoreTracked(ctx: TreeGit): Promise<boolean> {
  if ((await treeGit(ctx, ["diff", "--quiet", "HEAD", "--"])).ok) return false;
  await mustGit(ctx, ["reset", "-q", "--hard", "HEAD"]);
  return true;
}
