// Bundles `prune` removed from the store: `pruned.jsonl`, one line per removal (its sha256, size, when,
// and the reviews that had sent it), so that `audit --verify`, `verify` and `show` tell a pruned
// bundle from one that went missing. Its manifest (`bundles/<sha256>.manifest.json`) stays: what
// was sent is still known, and a receipt can still be checked against it.
import { lstat, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { bundlePath } from "./bundles.js";
import { cacheDir, REUSE_RECORD_NAME } from "./cache.js";
import { appendJsonLine, readJsonLines, type StorePaths, storeError } from "./layout.js";

export interface PrunedEntry {
  time: string;
  bundleSha256: string;
  bytes: number;
  reviews: string[];
}

/** One line per removal, written as audit.jsonl is (appendJsonLine). */
export function appendPruned(store: StorePaths, entry: PrunedEntry): Promise<void> {
  return appendJsonLine(store, store.pruned, entry);
}

/** The last removal of each pruned bundle, by sha256. */
export async function readPruned(store: StorePaths): Promise<Map<string, PrunedEntry>> {
  const pruned = new Map<string, PrunedEntry>();
  for (const entry of (await readJsonLines(store.pruned)) as PrunedEntry[]) {
    if (typeof entry?.bundleSha256 === "string") pruned.set(entry.bundleSha256, entry);
  }
  return pruned;
}

/**
 * Prune's removal of a bundle no longer in the store, or undefined: stored (again, after a prune: the
 * same export asked again), or gone without prune.
 */
export async function prunedBundle(store: StorePaths, sha256: string): Promise<PrunedEntry | undefined> {
  const present = await lstat(bundlePath(store, sha256)).then(
    (stats) => stats.isFile(),
    () => false,
  );
  return present ? undefined : (await readPruned(store)).get(sha256);
}

export interface StoredBundle {
  sha256: string;
  bytes: number;
  /** When the file was last written (stored, or stored again). */
  mtimeMs: number;
}

/** The bundle files in the store, by name. */
export async function listStoredBundles(store: StorePaths): Promise<StoredBundle[]> {
  const names = await readdir(store.bundles).catch(() => [] as string[]);
  const bundles: StoredBundle[] = [];
  for (const name of names.sort()) {
    const match = /^([0-9a-f]{64})\.tar\.gz$/.exec(name);
    if (!match?.[1]) continue;
    const stats = await lstat(join(store.bundles, name)).catch(() => undefined);
    if (stats?.isFile()) bundles.push({ sha256: match[1], bytes: stats.size, mtimeMs: stats.mtimeMs });
  }
  return bundles;
}

/** The reuse entries (`cache/bundle-<key>.json`) that name each stored bundle, by sha256. */
export async function reuseEntries(store: StorePaths): Promise<Map<string, string[]>> {
  const dir = cacheDir(store);
  const names = await readdir(dir).catch(() => [] as string[]);
  const bySha = new Map<string, string[]>();
  for (const name of names) {
    if (!REUSE_RECORD_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      const { sha256 } = JSON.parse(await readFile(path, "utf8")) as { sha256?: unknown };
      if (typeof sha256 === "string") bySha.set(sha256, [...(bySha.get(sha256) ?? []), path]);
    } catch {
      // A torn entry is ignored by the export too.
    }
  }
  return bySha;
}

/**
 * Removes a bundle, its manifest aside: the file is moved out of the store (`<name>.pruning`: the
 * step that fails when it cannot be removed), `record` writes its pruned.jsonl line, then its reuse
 * entries go (an export then builds it again; one left behind names a missing file, which the reuse
 * finds and builds again too) and the moved file. A bundle that cannot be moved is left as it was,
 * unrecorded; one that cannot be recorded is moved back. What a killed prune left moved is settled
 * by the next (settleMoved).
 */
export async function removeBundle(
  store: StorePaths,
  sha256: string,
  entries: readonly string[],
  record: () => Promise<void>,
): Promise<void> {
  const path = bundlePath(store, sha256);
  const moved = `${path}${MOVED}`;
  try {
    await rename(path, moved);
  } catch (error) {
    throw storeError(store.bundles, error);
  }
  try {
    await record();
  } catch (error) {
    await rename(moved, path).catch(() => undefined);
    throw error;
  }
  for (const entry of entries) await rm(entry, { force: true }).catch(() => undefined);
  await unlink(moved).catch(() => undefined);
}

const MOVED = ".pruning";

/**
 * Bundles a killed prune moved out (`<sha256>.tar.gz.pruning`): removed when pruned.jsonl records
 * their removal, else put back, never pruned.
 */
export async function settleMoved(store: StorePaths): Promise<void> {
  const names = await readdir(store.bundles).catch(() => [] as string[]);
  const moved = names.filter((name) => /^[0-9a-f]{64}\.tar\.gz\.pruning$/.test(name));
  if (moved.length === 0) return;
  const recorded = await readPruned(store);
  for (const name of moved) {
    const path = join(store.bundles, name);
    const sha256 = name.slice(0, 64);
    if (recorded.has(sha256)) await unlink(path).catch(() => undefined);
    else await rename(path, bundlePath(store, sha256)).catch(() => undefined);
  }
}
