// Private temp dirs named `<prefix><pid>-XXXXXX`, so that a run can remove what a killed run left.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRunningAs } from "./process.js";

/** Prefixes of the local side's temp dirs (the worker has its own). */
export const SCRATCH_PREFIX = "review-remote-export-";
export const QUARANTINE_PREFIX = "review-remote-quarantine-";
export const MERGE_PREFIX = "review-remote-merge-";
export const RECEIPT_PREFIX = "review-remote-receipt-";
/** Every local temp dir kind, for removeStale. */
export const LOCAL_PREFIXES = [SCRATCH_PREFIX, QUARANTINE_PREFIX, MERGE_PREFIX, RECEIPT_PREFIX] as const;

export function createTempDir(prefix: string, parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

/** Remove `<prefix><pid>-*` entries in `parent` whose process no longer runs (gone, or a zombie). Never fails. */
export async function removeStale(prefixes: readonly string[], parent: string = tmpdir()): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const prefix = prefixes.find((candidate) => name.startsWith(candidate));
      if (prefix === undefined) return;
      const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
      if (Number.isInteger(pid) && pid > 0 && !isRunningAs(pid, undefined)) {
        await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
      }
    }),
  );
}
