// Fan-out's last stage: proposals of several workers compared by what they would make of the tree.
// The commits always differ (each carries its worker's trailers), so the tips' trees are compared.
import { treeOf } from "../git/commits.js";
import type { Repo } from "../repo.js";
import type { ReviewOutcome } from "./outcome.js";

/**
 * Marks each review whose proposals leave the same tree, from the same snapshot, as an earlier
 * one's: `identicalTo` names the first review that proposed it.
 */
export async function markIdenticalProposals(repo: Repo, outcomes: readonly ReviewOutcome[]): Promise<void> {
  const withTips = outcomes.filter((outcome) => outcome.record.branch && outcome.record.tip);
  if (withTips.length < 2) return;
  const run = { cwd: repo.cwd, env: repo.env };
  const trees = await Promise.all(withTips.map((outcome) => treeOf(run, outcome.record.tip as string)));
  const first = new Map<string, string>();
  for (const [index, outcome] of withTips.entries()) {
    const key = `${outcome.record.snapshot.commit} ${trees[index]}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, outcome.record.id);
    else outcome.identicalTo = earlier;
  }
}
