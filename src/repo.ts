// Repository resolution, done once per command: everything after this uses absolute paths.
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "./errors.js";
import { type ObjectFormat, parseObjectFormat } from "./git/objects.js";
import { cleanEnv, type Env, git, verifyGitVersion } from "./git/run.js";
import { workTrees } from "./git/worktrees.js";
import { messages } from "./messages.js";
import { shellWord } from "./os/shell.js";

export interface Repo {
  /** Top of the work tree (undefined in a bare repository). */
  top: string | undefined;
  gitDir: string;
  /** Shared by linked worktrees: refs, objects and our store live here. */
  commonDir: string;
  /** Where the user ran the command, and that place relative to the top (`sub/dir/` or ``). */
  cwd: string;
  prefix: string;
  /** sha1 or sha256: the names of its objects, and of the null oid. */
  objectFormat: ObjectFormat;
  /** Environment for every child git on this repository. */
  env: Env;
}

// `--path-format=absolute` (git >= 2.31; an older git is refused, src/git/version.ts) resolves a
// relative GIT_DIR, such as the one `git --git-dir=../.git review-remote` exports, against the
// directory it was given in.
const REV_PARSE_PATHS = [
  "rev-parse",
  "--path-format=absolute",
  "--git-dir",
  "--git-common-dir",
  "--show-object-format",
];

export async function resolveRepo(cwd: string = process.cwd()): Promise<Repo> {
  // Resolution alone sees the caller's GIT_DIR / GIT_WORK_TREE; children never do.
  const callerEnv: Env = { ...process.env, LC_ALL: "C" };
  delete callerEnv.GIT_INDEX_FILE;
  delete callerEnv.GIT_OBJECT_DIRECTORY;
  delete callerEnv.GIT_ALTERNATE_OBJECT_DIRECTORIES;
  const run = { cwd, env: callerEnv, allowFailure: true };
  // One git call in a work tree (every command, and the hook on each push, starts here); a second
  // one only where --show-toplevel fails: a bare repository, or no repository at all.
  let paths = await git([...REV_PARSE_PATHS, "--show-prefix", "--show-toplevel"], run);
  if (paths.exitCode !== 0) paths = await git([...REV_PARSE_PATHS, "--show-prefix"], run);
  if (paths.exitCode !== 0) {
    throw new UsageError(messages.notARepository(cwd), { hints: [messages.hintNotARepository] });
  }
  const [gitDir = "", commonDir = "", format = "", prefix = "", topLevel = ""] = paths.stdout.split("\n");
  // A git before 2.31 echoes the --path-format=absolute it does not know as the first line.
  if (!isAbsolute(gitDir)) await verifyGitVersion(run);
  const top = topLevel === "" ? undefined : topLevel;
  const env = cleanEnv({ GIT_DIR: gitDir, ...(top ? { GIT_WORK_TREE: top } : {}) });
  const objectFormat = parseObjectFormat(format);
  return { top, gitDir: resolve(gitDir), commonDir: resolve(commonDir), cwd, prefix, objectFormat, env };
}

/** The work tree, for commands that need one. */
export function requireWorkTree(repo: Repo): string {
  if (repo.top === undefined) throw new UsageError(messages.needsWorkTree);
  return repo.top;
}

/**
 * The repository, for commands that need a work tree or create review branches: a bare repository
 * (or the inside of a git directory) is refused before anything is read or written there. A review
 * there would also miss the policy file, which lives in the work tree.
 */
export async function resolveWorkTreeRepo(cwd: string = process.cwd()): Promise<Repo> {
  const repo = await resolveRepo(cwd);
  if (repo.top !== undefined) return repo;
  const bare = await git(["rev-parse", "--is-bare-repository"], { cwd, env: repo.env, allowFailure: true });
  if (bare.stdout.trim() === "true") {
    const tree = (await workTrees({ cwd, env: repo.env }))[0]?.path;
    // A bare repository with a linked work tree: the same command, run there.
    const words = process.argv.slice(2).map(shellWord).join(" ");
    const hint = tree
      ? messages.hintBareWorkTree(`git -C ${shellWord(tree)} review-remote${words ? ` ${words}` : ""}`)
      : messages.hintBareRepository;
    throw new UsageError(messages.bareRepository(repo.gitDir), { hints: [hint] });
  }
  throw new UsageError(messages.insideGitDir(repo.gitDir), { hints: [messages.hintInsideGitDir] });
}
