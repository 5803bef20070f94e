// The target stage: what the user asked to review, resolved to commits once, so the cache key and
// the export name the same snapshot even if HEAD moves meanwhile. A review focuses on a change
// (`base` set: the request carries its range) unless it asks for the whole tree (`--all`) or there
// is no change to focus on (a root commit, or a parent a shallow clone lacks).
import { UsageError } from "../errors.js";
import { isAncestor, readHead, resolveCommit, resolveCommitAndParent } from "../git/commits.js";
import { findMergeBase } from "../git/history.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import { chooseChange, type TargetNote, type TargetReason } from "./target-choice.js";

export interface Target {
  /** The commit to snapshot (`HEAD` for the work tree). */
  rev: string;
  /** Set for a focused review: the change is base..rev (for the work tree, base is HEAD). */
  base?: string;
  /** `rev` resolved, for a commit snapshot (a work tree has no commit before its export). */
  commit?: string;
  /** Why this is what gets reviewed, for the report. */
  reason: TargetReason;
  /** What the user should know about the choice (a shallow clone's missing history). */
  notes: TargetNote[];
}

export interface TargetRequest {
  /** `<rev>` or `<base>..<head>`, as typed; undefined: the default. */
  spec: string | undefined;
  worktree: boolean;
  /** The whole tree, not a change. */
  all: boolean;
  /** A range a program chose (the pre-push hook's): never typed the wrong way round. */
  planned?: boolean;
}

/** `<rev>`, `<base>..<head>`, or `<a>...<head>`: from their merge base, as `git diff a...head` shows. */
function parseSpec(spec: string | undefined): { rev: string; base?: string; forked?: boolean } {
  if (spec === undefined) return { rev: "HEAD" };
  const three = spec.indexOf("...");
  if (three !== -1) {
    return { rev: spec.slice(three + 3) || "HEAD", base: spec.slice(0, three) || "HEAD", forked: true };
  }
  const dots = spec.indexOf("..");
  if (dots === -1) return { rev: spec };
  return { rev: spec.slice(dots + 2) || "HEAD", base: spec.slice(0, dots) || "HEAD" };
}

/** `--worktree`: the uncommitted changes against HEAD, or the whole work tree. */
async function worktreeTarget(repo: Repo, request: TargetRequest): Promise<Target> {
  if (request.spec !== undefined) {
    throw new UsageError(messages.worktreeTakesNoRevision(request.spec), { hints: [messages.hintHelp] });
  }
  const head = request.all ? undefined : await readHead({ cwd: repo.cwd, env: repo.env });
  if (head === undefined) return { rev: "HEAD", reason: { kind: "worktree-all" }, notes: [] };
  return { rev: "HEAD", base: head, reason: { kind: "worktree" }, notes: [] };
}

/** Where `<head>` forked from `<a>` (their merge base), for `<a>...<head>`. */
async function forkPoint(repo: Repo, spec: string, a: string, head: string): Promise<string> {
  const base = await findMergeBase({ cwd: repo.cwd, env: repo.env }, a, head);
  if (base === undefined) throw new UsageError(messages.noMergeBase(spec), { hints: [messages.hintRange] });
  return base;
}

/**
 * `<base>..<head>` or `<a>...<head>` resolved to commits; undefined for one revision (or none).
 * `command` is the one that was given it, for the refusal of an empty range.
 */
export async function resolveRange(
  repo: Repo,
  spec: string | undefined,
  command: "review" | "export" = "review",
): Promise<{ commit: string; base: string } | undefined> {
  const parsed = parseSpec(spec);
  if (parsed.base === undefined) return undefined;
  const commit = await resolveCommit(repo, parsed.rev);
  const named = await resolveCommit(repo, parsed.base);
  const base = parsed.forked ? await forkPoint(repo, spec ?? "", named, commit) : named;
  // `main..HEAD` on main: a review of no change would only cost a worker run (the hook skips it too).
  if (base === commit) {
    const hint = command === "export" ? messages.hintEmptyExportRange : messages.hintEmptyRange;
    throw new UsageError(messages.emptyRange(spec ?? "", commit, command), { hints: [hint] });
  }
  return { commit, base };
}

/**
 * `old..HEAD` typed the wrong way round (`HEAD..old`, old behind HEAD) is still git diff's range, the
 * change that takes HEAD back to old: reviewed as asked, with a warning, since `git log` of it is empty.
 */
async function rangeNotes(
  repo: Repo,
  parsed: { rev: string; base?: string; forked?: boolean },
  range: { commit: string; base: string },
): Promise<TargetNote[]> {
  const base = parsed.base ?? "HEAD";
  if (parsed.forked || !(await isAncestor({ cwd: repo.cwd, env: repo.env }, range.commit, range.base)))
    return [];
  return [
    {
      message: messages.backwardsRange(`${base}..${parsed.rev}`, parsed.rev, base),
      hints: [messages.hintBackwardsRange(parsed.rev, base)],
    },
  ];
}

export async function resolveTarget(repo: Repo, request: TargetRequest): Promise<Target> {
  if (request.worktree) return worktreeTarget(repo, request);
  if (request.all && parseSpec(request.spec).base !== undefined) {
    throw new UsageError(messages.allTakesOneRevision(request.spec ?? ""), { hints: [messages.hintHelp] });
  }
  const range = await resolveRange(repo, request.spec);
  const parsed = parseSpec(request.spec);
  if (range)
    return {
      rev: range.commit,
      ...range,
      reason: { kind: "range" },
      notes: request.planned ? [] : await rangeNotes(repo, parsed, range),
    };
  const { commit, parent } = await resolveCommitAndParent(repo, parsed.rev);
  if (request.all) return { rev: commit, commit, reason: { kind: "all" }, notes: [] };
  const chosen = await chooseChange(repo, commit, { head: request.spec === undefined, parent });
  return { rev: commit, commit, ...chosen };
}
