// Bundles an export in flight uses: `claims/<pid>` names a process and the bundles it stored or
// reused and has not yet handed to a review record (a review names its bundle only once sent).
// A claim is written under the store lock before the bundle is stored or read back, and prune, which
// holds that lock for its whole run, keeps every bundle a process that still runs has claimed: the
// export either claimed before prune started (kept) or claims after it ended (a bundle prune removed
// is not found, and is built again). The claim goes when its process exits; one whose process has
// ended otherwise (killed) is ignored, and removed by the next prune.
import { rmSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { currentOwner, hasEnded, isProcessOwner, type ProcessOwner } from "../os/process.js";
import { type StorePaths, writeFileAtomic } from "./layout.js";
import { RECORD_LOCK_WAIT_MS, withStoreLock } from "./lock.js";

interface Claim {
  owner: ProcessOwner;
  bundles: string[];
}

function claimsDir(store: StorePaths): string {
  return join(store.root, "claims");
}

/** This process's claim: its path and the bundles it names; removed when the process exits. */
let own: { path: string; bundles: Set<string> } | undefined;

function releaseOnExit(path: string): void {
  process.once("exit", () => {
    if (own?.path === path) rmSync(path, { force: true });
  });
}

/** Claims `sha256` for this process, as the store's one writer, before the bundle is stored or read. */
export async function claimBundle(store: StorePaths, sha256: string): Promise<void> {
  if (own?.bundles.has(sha256)) return;
  await withStoreLock(
    store,
    "export",
    async () => {
      const path = join(claimsDir(store), String(process.pid));
      if (own === undefined) releaseOnExit(path);
      own = { path, bundles: new Set([...(own?.bundles ?? []), sha256]) };
      const claim: Claim = { owner: currentOwner(), bundles: [...own.bundles] };
      await writeFileAtomic(path, `${JSON.stringify(claim)}\n`);
    },
    RECORD_LOCK_WAIT_MS,
  );
}

/**
 * The bundles claimed by processes that still run (or of another host: they cannot be checked).
 * With `removeEnded`, the claims of ended processes go: to be called under the store lock.
 */
export async function readClaimed(store: StorePaths, removeEnded: boolean): Promise<Set<string>> {
  const dir = claimsDir(store);
  const names = await readdir(dir).catch(() => [] as string[]);
  const claimed = new Set<string>();
  for (const name of names.filter((entry) => /^\d+$/.test(entry))) {
    let claim: Partial<Claim> | undefined;
    try {
      claim = JSON.parse(await readFile(join(dir, name), "utf8")) as Partial<Claim>;
    } catch {}
    const runs = claim !== undefined && isProcessOwner(claim.owner) && hasEnded(claim.owner) !== true;
    if (runs && Array.isArray(claim?.bundles))
      for (const sha256 of claim.bundles) claimed.add(String(sha256));
    else if (!runs && removeEnded) await rm(join(dir, name), { force: true }).catch(() => undefined);
  }
  return claimed;
}
