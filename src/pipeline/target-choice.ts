// Which change a review of one commit focuses on: with no revision given, what you are about to
// share (the commits ahead of HEAD's upstream); otherwise the commit's own change against its first
// parent; a root commit has no change apart from its whole tree. A shallow clone may lack the base:
// the review then falls back to what it can see and says how to fetch the rest.
import { isShallowRepository } from "../git/commits.js";
import { countCommitsBetween, findMergeBase, findUpstream, hasMissingParent } from "../git/history.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";

export type TargetReason =
  | { kind: "range" }
  | { kind: "upstream"; upstream: string; ahead: number }
  | { kind: "commit" }
  | { kind: "root" }
  | { kind: "shallow" }
  | { kind: "all" }
  | { kind: "worktree" }
  | { kind: "worktree-all" };

/** Something the user should know about the choice: a warning and its hints. */
export interface TargetNote {
  message: string;
  hints: string[];
}

interface Choice {
  base?: string;
  reason: TargetReason;
  notes: TargetNote[];
}

/** The commits ahead of HEAD's upstream, when there are any and their base is in this clone. */
async function aheadOfUpstream(repo: Repo, commit: string, notes: TargetNote[]): Promise<Choice | undefined> {
  const run = { cwd: repo.cwd, env: repo.env };
  const upstream = await findUpstream(run);
  if (!upstream) return undefined;
  const ahead = await countCommitsBetween(run, upstream.commit, commit);
  if (ahead === 0) return undefined;
  const base = await findMergeBase(run, upstream.commit, commit);
  if (base !== undefined)
    return { base, reason: { kind: "upstream", upstream: upstream.name, ahead }, notes };
  if (await isShallowRepository(run)) {
    notes.push({ message: messages.shallowNoUpstreamBase(upstream.name), hints: [messages.hintDeepen] });
  }
  return undefined;
}

/**
 * `parent`: the commit's first parent as git reaches it (resolveCommitAndParent), undefined for a
 * root commit and at a shallow clone's boundary.
 */
export async function chooseChange(
  repo: Repo,
  commit: string,
  options: { head: boolean; parent: string | undefined },
): Promise<Choice> {
  const run = { cwd: repo.cwd, env: repo.env };
  const notes: TargetNote[] = [];
  if (options.head) {
    const ahead = await aheadOfUpstream(repo, commit, notes);
    if (ahead) return ahead;
  }
  const { parent } = options;
  if (parent !== undefined) return { base: parent, reason: { kind: "commit" }, notes };
  if (await hasMissingParent(run, commit)) {
    notes.push({ message: messages.shallowNoParent(commit.slice(0, 12)), hints: [messages.hintDeepen] });
    return { reason: { kind: "shallow" }, notes };
  }
  return { reason: { kind: "root" }, notes };
}
