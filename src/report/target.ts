// What a review was about, in one line: the change it focused on and why that one, or the whole
// tree; the same words for the run's report and for `list` and `show`.
import { messages } from "../messages.js";
import type { Target } from "../pipeline/target.js";
import type { ReviewRecord } from "../store/records.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { plural } from "./plural.js";

const short = (oid: string | undefined) => (oid ?? "").slice(0, 10);

/** The run's target, after `Reviewing `, and the pathspecs it was limited to. */
export function describeTarget(target: Target, pathspecs: readonly string[] = []): string {
  const limited = pathspecs.length > 0 ? `, limited to -- ${pathspecs.map(escapeForDisplay).join(" ")}` : "";
  return `${describeWhat(target)}${limited}`;
}

function describeWhat(target: Target): string {
  const range = `${short(target.base)}..${short(target.commit)}`;
  const { reason } = target;
  switch (reason.kind) {
    case "range":
      return range;
    case "upstream":
      return `the ${plural(reason.ahead, "commit")} ahead of ${reason.upstream} (${range})`;
    case "commit":
      return `the change of commit ${short(target.commit)} (${range})`;
    case "root":
      return `the whole tree of ${short(target.commit)} (a root commit)`;
    case "shallow":
      return `the whole tree of ${short(target.commit)} (its parent is not in this shallow clone)`;
    case "all":
      return `the whole tree of ${short(target.commit)} (--all)`;
    case "worktree":
      return `the uncommitted changes against HEAD ${short(target.base)}`;
    case "worktree-all":
      return "the whole work tree";
  }
}

/** What a stored review covered: its range, or the whole tree. */
export function describeScope(record: Pick<ReviewRecord, "range">): string {
  return record.range ? `${short(record.range.base)}..${short(record.range.head)}` : "whole tree";
}

/** What a focused review's proposals left out of its branch: fixes and files outside the change. */
export function leftOut(record: Pick<ReviewRecord, "outsideChange">): { fixes: number; files: number } {
  const outside = record.outsideChange;
  return outside && !outside.kept ? { fixes: outside.fixes, files: outside.files } : { fixes: 0, files: 0 };
}

/** The line under a review's comments when the scope stage left fixes out; undefined when none. */
export function describeLeftOut(record: Pick<ReviewRecord, "outsideChange">): string | undefined {
  const { fixes, files } = leftOut(record);
  return fixes > 0 ? messages.proposalsOutsideChange(fixes, files) : undefined;
}

/** The line under a review's comments when the filter stage kept some out. */
export function describeHidden(id: string, mode: string, hidden: number): string {
  const count = `${plural(hidden, "comment")} outside the change hidden (--filter-mode=${mode})`;
  return `${count}; see git review-remote show ${id} --all-comments`;
}
