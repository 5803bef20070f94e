// What a push asks to review: git's pre-push stdin, one `<local ref> <local oid> <remote ref>
// <remote oid>` line per update (githooks(5)), turned into one plan per pushed ref: the revision or
// range to review, or why there is none.
import { findCommit, isAncestor } from "../git/commits.js";
import { git } from "../git/run.js";
import type { Repo } from "../repo.js";

export interface PushUpdate {
  localRef: string;
  localOid: string;
  remoteRef: string;
  remoteOid: string;
}

/** Why a pushed ref gets no review. */
export const PushSkip = {
  deletion: "deletion",
  /** The remote already has the commit (or it is the base the new branch starts from). */
  nothingNew: "nothing-new",
  /** A review branch: the hook refuses it (design §11). */
  reviewBranch: "review-branch",
  /** A bare repository: nothing to review against, no store to write. */
  bare: "bare",
} as const;
export type PushSkip = (typeof PushSkip)[keyof typeof PushSkip];

/** One pushed ref and what the hook does with it: a target to review, or why not. */
export interface PushPlan {
  update: PushUpdate;
  target?: string;
  skip?: PushSkip;
}

const ZERO = /^0+$/;

export function parsePushUpdates(text: string): PushUpdate[] {
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 4)
    .map(([localRef = "", localOid = "", remoteRef = "", remoteOid = ""]) => ({
      localRef,
      localOid,
      remoteRef,
      remoteOid,
    }));
}

function isDeletion(update: PushUpdate): boolean {
  return ZERO.test(update.localOid);
}

/**
 * A push that would publish a review branch, from it or onto one: a worker's unvetted proposals
 * on a shared remote would run in its CI. The tool's own refs (`refs/review-remote/*`: work-tree
 * snapshots, undo points), which `git push --mirror` would carry, stay too. Deleting one (cleaning
 * up an earlier push) is fine.
 */
export function isReviewBranchPush(update: PushUpdate, branchPrefix: string): boolean {
  const local = [`refs/heads/${branchPrefix}`, "refs/review-remote/"];
  const isLocalOnly = (ref: string) => local.some((prefix) => ref.startsWith(prefix));
  return !isDeletion(update) && (isLocalOnly(update.localRef) || isLocalOnly(update.remoteRef));
}

function resolves(repo: Repo, rev: string): Promise<string | undefined> {
  return findCommit({ cwd: repo.cwd, env: repo.env }, rev);
}

/** The remote's default branch as this clone knows it: `<remote>/HEAD`, else main or master. */
async function remoteDefault(repo: Repo, remote: string): Promise<string | undefined> {
  for (const ref of [
    `refs/remotes/${remote}/HEAD`,
    `refs/remotes/${remote}/main`,
    `refs/remotes/${remote}/master`,
  ]) {
    const oid = await resolves(repo, ref);
    if (oid) return oid;
  }
  return undefined;
}

/** Where the reviewed change starts: the remote's commit, or a new branch's merge base. */
async function baseOf(
  repo: Repo,
  defaultBranch: () => Promise<string | undefined>,
  update: PushUpdate,
): Promise<string | undefined> {
  if (!ZERO.test(update.remoteOid)) return resolves(repo, update.remoteOid);
  const main = await defaultBranch();
  if (!main) return publishedBase(repo, update.localOid);
  const mergeBase = await git(["merge-base", main, update.localOid], {
    cwd: repo.cwd,
    env: repo.env,
    allowFailure: true,
  });
  return mergeBase.exitCode === 0 ? mergeBase.stdout.trim() : publishedBase(repo, update.localOid);
}

/**
 * For a push to a remote this clone knows no branch of (a fork's first push): the newest commit of
 * `localOid` that another remote's branches already have, when one commit parts what they have
 * from what they do not (`localOid` itself when they have it all); else undefined. The commits a clone of babel adds to origin/main are the
 * change, not its 18k-commit history.
 */
async function publishedBase(repo: Repo, localOid: string): Promise<string | undefined> {
  const options = { cwd: repo.cwd, env: repo.env, allowFailure: true };
  // With no remote-tracking branch at all, rev-list would list the whole history to find none.
  const remotes = await git(["for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes/"], options);
  if (remotes.exitCode !== 0 || remotes.stdout.trim() === "") return undefined;
  const listed = await git(["rev-list", "--boundary", localOid, "--not", "--remotes"], options);
  if (listed.exitCode !== 0) return undefined;
  // Another remote has it all (a clone's main pushed to a fork): there is nothing new to review.
  if (listed.stdout.trim() === "") return localOid;
  const boundaries = listed.stdout.split("\n").filter((line) => line.startsWith("-"));
  return boundaries.length === 1 ? boundaries[0]?.slice(1) : undefined;
}

/**
 * A forced push that moves a branch back to one of its own commits (`git reset --hard HEAD~2 && git
 * push -f`): every commit it leaves on the remote is there already. Its diff is the undoing of the
 * commits it drops, not a change being shared; a review of it would only cost a worker run.
 */
async function isRewind(repo: Repo, base: string, update: PushUpdate): Promise<boolean> {
  if (ZERO.test(update.remoteOid)) return false;
  return isAncestor({ cwd: repo.cwd, env: repo.env }, update.localOid, base);
}

/**
 * The plan of each update: `<remote oid>..<local oid>` when the remote commit is known here; for
 * a new branch, from the merge base with the remote's default branch, else from the newest commit
 * other remotes have; otherwise the whole tree at `<local oid>`. Deletions and rewinds are not reviewed.
 */
export async function planPush(
  repo: Repo,
  remote: string,
  updates: readonly PushUpdate[],
): Promise<PushPlan[]> {
  // Looked up once per push, not once per new branch (`git push --all` sends many).
  let main: Promise<string | undefined> | undefined;
  const defaultBranch = () => {
    main ??= remoteDefault(repo, remote);
    return main;
  };
  const plans: PushPlan[] = [];
  for (const update of updates) {
    if (isDeletion(update)) {
      plans.push({ update, skip: PushSkip.deletion });
      continue;
    }
    const base = await baseOf(repo, defaultBranch, update);
    if (base === update.localOid || (base && (await isRewind(repo, base, update))))
      plans.push({ update, skip: PushSkip.nothingNew });
    else plans.push({ update, target: base ? `${base}..${update.localOid}` : update.localOid });
  }
  return plans;
}
