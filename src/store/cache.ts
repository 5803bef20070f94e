// The review cache: a key from what identifies the snapshot, the policy, the question and the worker
// (its name and its command), computed without an export; `cache/<key>` names the review that answered
// (or whose result was rejected). A refused export is remembered apart, by snapshot and policy alone:
// `cache/export-<key>.json` holds what the refusal said, redacted as it was printed.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { canonicalJson } from "../protocol/jcs.js";
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

export function cacheKey(inputs: CacheInputs): string {
  const value = {
    ...inputs,
    base: inputs.base ?? null,
    pathspecs: [...inputs.pathspecs],
    policy: inputs.policy ?? null,
  };
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function cachePath(store: StorePaths, key: string): string {
  return join(store.root, "cache", key);
}

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
  const value = {
    kind: "export",
    commit: inputs.commit,
    base: inputs.base ?? null,
    pathspecs: [...inputs.pathspecs],
    policy: inputs.policy ?? null,
    version: inputs.version,
  };
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/** A refused export as it was reported: the message, its lines (redacted findings) and hints. */
export interface StoredRefusal {
  message: string;
  details: string[];
  hints: string[];
}

function refusalPath(store: StorePaths, key: string): string {
  return join(store.root, "cache", `export-${key}.json`);
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

export async function lookupRefusal(store: StorePaths, key: string): Promise<StoredRefusal | undefined> {
  try {
    const value = JSON.parse(await readFile(refusalPath(store, key), "utf8")) as Partial<StoredRefusal>;
    if (typeof value.message !== "string" || !isStrings(value.details) || !isStrings(value.hints))
      return undefined;
    return { message: value.message, details: value.details, hints: value.hints };
  } catch {
    return undefined;
  }
}

export async function writeRefusal(store: StorePaths, key: string, refusal: StoredRefusal): Promise<void> {
  await writeFileAtomic(refusalPath(store, key), `${JSON.stringify(refusal, null, 2)}\n`);
}
