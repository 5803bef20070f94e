// Named operations on commits: resolve a revision, read HEAD, test ancestry, write a commit.
import { GitError, UsageError } from "../errors.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import { TOOL_COMMITTER } from "./identity.js";
import { type GitOptions, git } from "./run.js";

/** Where a git runs: its directory and environment (and a signal that stops it, where one bounds it). */
export type GitRun = Pick<GitOptions, "cwd" | "env" | "signal">;

/** The commit `rev` names, or undefined; `--end-of-options`: a rev never reads as an option. */
export async function findCommit(run: GitRun, rev: string): Promise<string | undefined> {
  const result = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], {
    ...run,
    allowFailure: true,
  });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** HEAD's commit; undefined in a repository with no commits yet. */
export function readHead(run: GitRun): Promise<string | undefined> {
  return findCommit(run, "HEAD");
}

/** The tree of a commit. */
export async function treeOf(run: GitRun, commit: string): Promise<string> {
  const result = await git(["rev-parse", "--verify", "--end-of-options", `${commit}^{tree}`], run);
  return result.stdout.trim();
}

export async function isAncestor(run: GitRun, ancestor: string, descendant: string): Promise<boolean> {
  const result = await git(["merge-base", "--is-ancestor", ancestor, descendant], {
    ...run,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/** A commit's committer date as git reads a date back (`<seconds> <zone>`, `--date=raw`). */
export async function readCommitterDate(run: GitRun, commit: string): Promise<string> {
  const result = await git(["show", "-s", "--format=%cd", "--date=raw", "--end-of-options", commit], run);
  return result.stdout.trim();
}

const UNKNOWN_IDENTITY = /identity unknown|empty ident|auto-detect email/i;

/**
 * `commit-tree` with the message on stdin (a final newline is added as `-m` adds one). The author
 * and committer come from `run.env`; where git finds no committer identity (a user who never set
 * one), the tool commits as itself.
 */
export async function commitTree(
  run: GitRun,
  tree: string,
  parents: readonly string[],
  message: string,
): Promise<string> {
  const args = ["commit-tree", tree, ...parents.flatMap((parent) => ["-p", parent]), "-F", "-"];
  const input = message.endsWith("\n") ? message : `${message}\n`;
  const made = await git(args, { ...run, input, allowFailure: true });
  if (made.exitCode === 0) return made.stdout.trim();
  if (!UNKNOWN_IDENTITY.test(made.stderr)) throw new GitError(args, made.exitCode, made.stderr);
  const retried = await git(args, { ...run, env: { ...run.env, ...TOOL_COMMITTER }, input });
  return retried.stdout.trim();
}

export async function isShallowRepository(run: GitRun): Promise<boolean> {
  const out = await git(["rev-parse", "--is-shallow-repository"], run);
  return out.stdout.trim() === "true";
}

/** A branch this repository has, for the hint: origin's default (`origin/master`), else HEAD's. */
async function exampleBranch(run: GitRun, rev: string): Promise<string> {
  for (const ref of ["refs/remotes/origin/HEAD", "HEAD"]) {
    const named = await git(["symbolic-ref", "-q", "--short", ref], { ...run, allowFailure: true });
    const branch = named.stdout.trim();
    if (named.exitCode === 0 && branch !== "" && branch !== rev && !branch.startsWith("-")) return branch;
  }
  return "main";
}

/**
 * Why `rev` names no commit, for a command the user gave it to: an empty repository or no such
 * revision; in a shallow clone, perhaps one older than its history (`HEAD~30` at depth 20).
 */
async function unknownCommitError(run: GitRun, rev: string): Promise<UsageError> {
  if (rev === "HEAD" && (await readHead(run)) === undefined) {
    return new UsageError(messages.emptyRepository, { hints: [messages.hintEmptyRepository] });
  }
  const hints: string[] = [messages.hintUnknownRevision(await exampleBranch(run, rev))];
  if (await isShallowRepository(run)) hints.push(messages.hintShallowRevision);
  return new UsageError(messages.unknownRevision(rev), { hints });
}

/** The commit `rev` names, for a command the user gave it to: unknown or empty repo is a usage error. */
export async function resolveCommit(repo: Pick<Repo, "cwd" | "env">, rev: string): Promise<string> {
  const run = { cwd: repo.cwd, env: repo.env };
  const commit = await findCommit(run, rev);
  if (commit !== undefined) return commit;
  throw await unknownCommitError(run, rev);
}

/**
 * resolveCommit, and the commit's first parent as git reaches it (undefined for a root commit, and
 * at a shallow clone's boundary): one `rev-list` where `rev-parse --verify` twice would ask.
 */
export async function resolveCommitAndParent(
  repo: Pick<Repo, "cwd" | "env">,
  rev: string,
): Promise<{ commit: string; parent: string | undefined }> {
  const run = { cwd: repo.cwd, env: repo.env };
  const listed = await git(
    ["rev-list", "--parents", "-n", "1", "--end-of-options", `${rev}^{commit}`, "--"],
    {
      ...run,
      allowFailure: true,
    },
  );
  const [commit, parent] = listed.exitCode === 0 ? listed.stdout.trim().split(" ") : [];
  if (commit) return { commit, parent };
  throw await unknownCommitError(run, rev);
}
