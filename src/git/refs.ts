// The ref transaction: every update applies, or none (git-update-ref(1), "--stdin" with start /
// prepare / commit). `create` fails when the ref exists, `delete` with an old value when it moved.
import type { GitRun } from "./commits.js";
import { git } from "./run.js";

export type RefUpdate =
  | { op: "create"; ref: string; oid: string }
  | { op: "update"; ref: string; oid: string }
  | { op: "delete"; ref: string; oldOid?: string | undefined };

function line(update: RefUpdate): string {
  if (update.op === "delete") return `delete ${update.ref}${update.oldOid ? ` ${update.oldOid}` : ""}\n`;
  return `${update.op} ${update.ref} ${update.oid}\n`;
}

/** Applies the updates in one transaction; on refusal returns git's first line of stderr. */
export async function updateRefs(
  run: GitRun,
  updates: readonly RefUpdate[],
  reflogMessage?: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (updates.length === 0) return { ok: true };
  const message = reflogMessage === undefined ? [] : ["-m", reflogMessage];
  const result = await git(["update-ref", ...message, "--stdin"], {
    ...run,
    input: `start\n${updates.map(line).join("")}prepare\ncommit\n`,
    allowFailure: true,
  });
  if (result.exitCode === 0) return { ok: true };
  return { ok: false, reason: result.stderr.trim().split("\n")[0] ?? `exit code ${result.exitCode}` };
}

/** Ref names under `prefix` (ref names cannot hold a newline: git-check-ref-format(1)). */
/** The work tree that has `ref` (a branch) checked out, or undefined (git worktree list knows it too). */
export async function checkedOutAt(run: GitRun, ref: string): Promise<string | undefined> {
  const listed = await git(["for-each-ref", "--format=%(worktreepath)", ref], run);
  return listed.stdout.trim() || undefined;
}

export async function listRefs(run: GitRun, prefix: string): Promise<string[]> {
  const listed = await git(["for-each-ref", "--format=%(refname)", prefix], run);
  return listed.stdout.split("\n").filter(Boolean);
}
