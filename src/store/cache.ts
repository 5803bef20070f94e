// The review cache: a key from what identifies the snapshot, the policy, the question and the worker
// (its name and its command), computed without an export; `cache/<key>` names the review that answered
// (or whose result was rejected). A refused export is remembered apart, by snapshot and policy alone:
// `cache/export-<key>.json` holds what the refusal said, redacted as it was printed.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { canonicalJson } from "../protocol/jcs.js";
import type { Repo } from "../repo.js";
import { type StorePaths, writeFileAtomic } from "./layout.js";

export interface CacheInputs {
  commit: string;
  base: string | undefined;
  pathspecs: readonly string[];
  policy: unknown;
  question: string;
  /** The result limits asked for: raising one asks again. */
  limits: unknown;
  /** The worker by name and command: another command is another review. */
  worker: { name: string; command: string };
  version: string;
}

/**
 * The one key builder: sha256 of the canonical JSON of `inputs`, an absent base or policy as null.
 * The review cache, a refused export and a stored bundle each key a snapshot this way, told apart
 * by what else they hold (`kind`, the question and worker, the rules).
 */
export function snapshotKey<Inputs extends Pick<CacheInputs, "commit" | "base" | "pathspecs" | "policy">>(
  inputs: Inputs,
): string {
  const value = {
    ...inputs,
    base: inputs.base ?? null,
    pathspecs: [...inputs.pathspecs],
    policy: inputs.policy ?? null,
  };
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/**
 * The pathspecs as a key holds them: relative to the current directory, the same words elsewhere
 * select other files, so the directory (`sub/dir/` or ``) comes first. None: none.
 */
export function keyPathspecs(repo: Pick<Repo, "prefix">, pathspecs: readonly string[] | undefined): string[] {
  return pathspecs?.length ? [repo.prefix, ...pathspecs] : [];
}

export function cacheKey(inputs: CacheInputs): string {
  return snapshotKey(inputs);
}

/** `cache/`: the verdicts, refusals and reuse records of this store, each under its key. */
export function cacheDir(store: StorePaths): string {
  return join(store.root, "cache");
}

function cachePath(store: StorePaths, key: string): string {
  return join(cacheDir(store), key);
}

/** A stored bundle's reuse record (export/reuse.ts), and the names such records have. */
export function reuseRecordPath(store: StorePaths, key: string): string {
  return join(cacheDir(store), `bundle-${key}.json`);
}
export const REUSE_RECORD_NAME = /^bundle-[0-9a-f]{64}\.json$/;

export async function lookupCache(store: StorePaths, key: string): Promise<string | undefined> {
  try {
    const id = (await readFile(cachePath(store, key), "utf8")).trim();
    return /^[0-9a-f]{12}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function writeCache(store: StorePaths, key: string, id: string): Promise<void> {
  await writeFileAtomic(cachePath(store, key), `${id}\n`);
}

/** What identifies an export's verdict: the snapshot and the policy, under this version's rules. */
export type ExportKeyInputs = Pick<CacheInputs, "commit" | "base" | "pathspecs" | "policy" | "version">;

export function exportKey(inputs: ExportKeyInputs): string {
  const { commit, base, pathspecs, policy, version } = inputs;
  return snapshotKey({ kind: "export", commit, base, pathspecs, policy, version });
}

/** A refused export as it was reported: the message, its lines (redacted findings) and hints. */
export interface StoredRefusal {
  message: string;
  details: string[];
  hints: string[];
  /** core.quotePath its paths were printed under, when it printed paths: said again only under it. */
  quotePath?: boolean;
}

function refusalPath(store: StorePaths, key: string): string {
  return join(cacheDir(store), `export-${key}.json`);
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

export async function lookupRefusal(store: StorePaths, key: string): Promise<StoredRefusal | undefined> {
  try {
    const value = JSON.parse(await readFile(refusalPath(store, key), "utf8")) as Partial<StoredRefusal>;
    if (typeof value.message !== "string" || !isStrings(value.details) || !isStrings(value.hints))
      return undefined;
    const { message, details, hints, quotePath } = value;
    return { message, details, hints, ...(typeof quotePath === "boolean" ? { quotePath } : {}) };
  } catch {
    return undefined;
  }
}

export async function writeRefusal(store: StorePaths, key: string, refusal: StoredRefusal): Promise<void> {
  await writeFileAtomic(refusalPath(store, key), `${JSON.stringify(refusal, null, 2)}\n`);
}
