// Processes and their leftovers: private temp dirs named `<prefix><pid>-XXXXXX` (so that a run can
// remove what a killed run left), liveness checks, and process-group kills.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Prefixes of the local side's temp dirs (the worker has its own). */
export const SCRATCH_PREFIX = "review-remote-export-";
export const QUARANTINE_PREFIX = "review-remote-quarantine-";
export const MERGE_PREFIX = "review-remote-merge-";

/**
 * Signal a whole process group (a child spawned with `detached: true` leads its own): `sh -c 'ssh
 * ...'` and reviewers have children of their own. A group that is already gone is fine.
 */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {}
}

/** A process that exists (EPERM: it exists, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function createTempDir(prefix: string, parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

/** Remove `<prefix><pid>-*` entries in `parent` whose process is gone. Never fails. */
export async function removeStale(prefixes: readonly string[], parent: string = tmpdir()): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const prefix = prefixes.find((candidate) => name.startsWith(candidate));
      if (prefix === undefined) return;
      const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
      if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
        await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
      }
    }),
  );
}
