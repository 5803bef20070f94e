// The oldest git the client runs on, and `git version` read against it. The check costs nothing on
// the way that works: `src/git/run.ts` asks `git version` only once a git has failed the way an old
// one fails (exit 129, its usage of an option it lacks), and `src/repo.ts` when an old rev-parse
// echoed `--path-format=absolute` back as a path.

/**
 * `merge-tree --write-tree` (the merge's preview, `src/merge/commit.ts`) is 2.38's; the next newest
 * is `worktree list -z` (2.36), then `rev-parse --path-format=absolute` (2.31).
 */
export const MINIMUM_GIT = { major: 2, minor: 38 } as const;

export interface GitVersion {
  major: number;
  minor: number;
  patch: number;
  /** The version as `git version` prints it: `2.39.3 (Apple Git-146)`, `2.45.1.windows.1`. */
  text: string;
}

/**
 * The version in `git version`'s line (`git version 2.39.3 (Apple Git-146)`,
 * `git version 2.45.1.windows.1`, `git version 2.40.0.rc1`, `git version 2.39.GIT`); undefined when
 * it names none.
 */
export function parseGitVersion(output: string): GitVersion | undefined {
  const line = output.split("\n")[0]?.trim() ?? "";
  const match = /^git version ((\d+)\.(\d+)(?:\.(\d+))?\S*(?: .*)?)$/.exec(line);
  if (!match) return undefined;
  const [, text = "", major = "", minor = "", patch = "0"] = match;
  return { major: Number(major), minor: Number(minor), patch: Number(patch), text };
}

/** A release candidate of 2.38.0 has 2.38's options already: major and minor decide. */
export function isSupportedGit(version: GitVersion): boolean {
  if (version.major !== MINIMUM_GIT.major) return version.major > MINIMUM_GIT.major;
  return version.minor >= MINIMUM_GIT.minor;
}
