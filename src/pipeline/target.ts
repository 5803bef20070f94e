// The target stage: what the user asked to review, `<rev>` or `<base>..<head>`, resolved to commits
// once, so the cache key and the export name the same snapshot even if HEAD moves meanwhile.
import { UsageError } from "../errors.js";
import { resolveCommit } from "../git/commits.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";

export interface Target {
  /** The commit to snapshot. */
  rev: string;
  /** Set for a range: the reviewer focuses on base..rev. */
  base?: string;
  /** `rev` resolved, for a commit snapshot (a work tree has no commit before its export). */
  commit?: string;
}

function parseTarget(spec: string | undefined): Target {
  if (spec === undefined) return { rev: "HEAD" };
  if (spec.includes("...")) {
    throw new UsageError(messages.symmetricRange(spec), { hints: [messages.hintRange] });
  }
  const dots = spec.indexOf("..");
  if (dots === -1) return { rev: spec };
  const base = spec.slice(0, dots) || "HEAD";
  const rev = spec.slice(dots + 2) || "HEAD";
  return { rev, base };
}

export async function resolveTarget(
  repo: Repo,
  spec: string | undefined,
  worktree: boolean,
): Promise<Target> {
  const target = parseTarget(spec);
  if (worktree) return target;
  const commit = await resolveCommit(repo, target.rev);
  const base = target.base === undefined ? undefined : await resolveCommit(repo, target.base);
  return { rev: commit, commit, ...(base !== undefined ? { base } : {}) };
}
