// A stored bundle read back instead of exported again. A commit's bundle is a function of the commit,
// the policy, the scan and name rules and this build's code (design §1, deterministic bundle), so
// the same export asked again (a second worker, a second question, a retry) finds it in the store
// under `cache/bundle-<key>.json`: its sha256, size and listing. Before it is used, the stored file
// is hashed again and its manifest read: a bundle that is no longer the bytes its name and manifest
// say is removed and exported again; one that is used is marked used now (prune goes by its age).
import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { CONTENT_RULES, type ContentRule } from "../secrets/content-rules.js";
import { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS } from "../secrets/decode/limits.js";
import { NAME_RULES, type NameRule } from "../secrets/names.js";
import { bundlePath, digestOf, freshenBundle, manifestPath, readStoredManifest } from "../store/bundles.js";
import { type ExportKeyInputs, reuseRecordPath, snapshotKey } from "../store/cache.js";
import { claimBundle } from "../store/claims.js";
import { type StorePaths, writeFileAtomic } from "../store/layout.js";
import { readCacheVersion } from "../version.js";
import type { ManifestFile } from "./archive.js";
import type { Exclusion } from "./filter.js";
import type { RangeInfo } from "./range.js";
import type { Snapshot } from "./snapshot.js";

/** Raised when the export's own rules change in a way the rule tables do not show. */
const EXPORT_FORMAT = 1;

/** What the rules that decide a bundle's content are: a change to any of them is another key. */
export function rulesDigest(
  content: readonly ContentRule[] = CONTENT_RULES,
  names: readonly NameRule[] = NAME_RULES,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): string {
  const text = (value: RegExp | ((...args: never[]) => unknown) | undefined) =>
    value instanceof RegExp ? `/${value.source}/${value.flags}` : value?.toString();
  const rules = content.map((rule) => ({
    ...rule,
    pattern: text(rule.pattern),
    reject: text(rule.reject),
    paths: text(rule.paths),
  }));
  return createHash("sha256")
    .update(JSON.stringify({ format: EXPORT_FORMAT, rules, names, limits }))
    .digest("hex");
}

/** A stored bundle's key: the export's, and the rules that decided its content. */
type ReuseKeyInputs = ExportKeyInputs & { rules: string };

export function reuseKey(inputs: ReuseKeyInputs): string {
  return snapshotKey({ kind: "bundle", ...inputs });
}

/**
 * The key of a commit's export under today's rules and build: a reused bundle is sent unscanned, so
 * another build of the same version (a scanner fixed to find what it missed, a marker read
 * differently) must scan it again, as its remembered verdicts are asked again.
 */
export function currentReuseKey(inputs: Omit<ReuseKeyInputs, "rules" | "version">): string {
  return reuseKey({ ...inputs, rules: rulesDigest(), version: readCacheVersion() });
}

/** What is remembered of a stored bundle beside its manifest. */
export interface ReusableBundle {
  sha256: string;
  bytes: number;
  snapshot: Snapshot;
  excluded: Exclusion[];
  range?: RangeInfo | undefined;
}

/**
 * The bundle stored for `key`, checked: its file hashes to its name and the record's size, and its
 * manifest names the same sha256. Nothing usable: undefined (a bundle that fails the check is removed,
 * so that the export stores a good one again).
 */
export async function findReusable(
  store: StorePaths,
  key: string,
): Promise<(ReusableBundle & { path: string; files: ManifestFile[] }) | undefined> {
  let record: ReusableBundle;
  try {
    record = JSON.parse(await readFile(reuseRecordPath(store, key), "utf8")) as ReusableBundle;
  } catch {
    return undefined;
  }
  if (typeof record.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(record.sha256)) return undefined;
  const path = bundlePath(store, record.sha256);
  // Claimed first: a prune that starts after this leaves it be (a prune before has removed it or not).
  await claimBundle(store, record.sha256);
  try {
    const [actual, manifest] = await Promise.all([digestOf(path), readStoredManifest(store, record.sha256)]);
    if (
      actual.sha256 === record.sha256 &&
      actual.bytes === record.bytes &&
      manifest.sha256 === record.sha256
    ) {
      await freshenBundle(path);
      return { ...record, path, files: manifest.files };
    }
  } catch {
    return undefined;
  }
  const removed = [path, manifestPath(path)].map((file) => rm(file, { force: true }).catch(() => undefined));
  await Promise.all(removed);
  return undefined;
}

export async function rememberBundle(store: StorePaths, key: string, bundle: ReusableBundle): Promise<void> {
  const { sha256, bytes, snapshot, excluded, range } = bundle;
  await writeFileAtomic(
    reuseRecordPath(store, key),
    `${JSON.stringify({ sha256, bytes, snapshot, excluded, range })}\n`,
  );
}
