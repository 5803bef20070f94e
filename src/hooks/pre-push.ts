// What a push asks to review: git's pre-push stdin, one `<local ref> <local oid> <remote ref>
// <remote oid>` line per update (githooks(5)), turned into revisions and ranges.
import { findCommit } from "../git/commits.js";
import { git } from "../git/run.js";
import type { Repo } from "../repo.js";

export interface PushUpdate {
  localRef: string;
  localOid: string;
  remoteRef: string;
  remoteOid: string;
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

/**
 * The target of each update that is not a deletion: `<remote oid>..<local oid>` when the remote
 * commit is known here; for a new branch, from the merge base with the remote's default branch;
 * otherwise the whole tree at `<local oid>`.
 */
export async function pushTargets(
  repo: Repo,
  remote: string,
  updates: readonly PushUpdate[],
): Promise<string[]> {
  const targets: string[] = [];
  for (const update of updates) {
    if (ZERO.test(update.localOid)) continue;
    let base: string | undefined;
    if (!ZERO.test(update.remoteOid)) base = await resolves(repo, update.remoteOid);
    else {
      const main = await remoteDefault(repo, remote);
      if (main) {
        const mergeBase = await git(["merge-base", main, update.localOid], {
          cwd: repo.cwd,
          env: repo.env,
          allowFailure: true,
        });
        if (mergeBase.exitCode === 0) base = mergeBase.stdout.trim();
      }
    }
    if (base === update.localOid) continue;
    const target = base ? `${base}..${update.localOid}` : update.localOid;
    if (!targets.includes(target)) targets.push(target);
  }
  return targets;
}
