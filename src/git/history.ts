// Named questions about history the target stage asks: HEAD's upstream, how far HEAD is ahead of it,
// their merge base, and whether a commit's parent is missing from a shallow clone.
import type { GitRun } from "./commits.js";
import { findCommit } from "./commits.js";
import { git } from "./run.js";

export interface Upstream {
  /** As git abbreviates it: `origin/main`. */
  name: string;
  commit: string;
}

/** HEAD's upstream; undefined when HEAD is detached, has none configured, or its ref is gone. */
export async function findUpstream(run: GitRun): Promise<Upstream | undefined> {
  const named = await git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"], {
    ...run,
    allowFailure: true,
  });
  if (named.exitCode !== 0) return undefined;
  const commit = await findCommit(run, "@{upstream}");
  return commit === undefined ? undefined : { name: named.stdout.trim(), commit };
}

/** Commits reachable from `head` and not from `base` (`git rev-list --count base..head`). */
export async function countCommitsBetween(run: GitRun, base: string, head: string): Promise<number> {
  const out = await git(["rev-list", "--count", `${base}..${head}`, "--"], run);
  return Number(out.stdout.trim());
}

/** The best common ancestor, or undefined when the histories (as far as this clone has them) meet nowhere. */
export async function findMergeBase(run: GitRun, a: string, b: string): Promise<string | undefined> {
  const out = await git(["merge-base", a, b], { ...run, allowFailure: true });
  return out.exitCode === 0 ? out.stdout.trim() : undefined;
}

/**
 * Whether the commit object names a parent git cannot reach: the boundary of a shallow clone,
 * where `<commit>^` fails as it does for a root commit, but the raw object still lists a parent.
 */
export async function hasMissingParent(run: GitRun, commit: string): Promise<boolean> {
  const raw = await git(["cat-file", "commit", commit], run);
  const header = raw.stdout.slice(0, raw.stdout.indexOf("\n\n"));
  if (!/^parent /m.test(header)) return false;
  return (await findCommit(run, `${commit}^`)) === undefined;
}
