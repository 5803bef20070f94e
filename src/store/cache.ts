// The review cache: a key from what identifies the snapshot, the policy, the question and the worker
// (its name and its command), computed without an export; `cache/<key>` names the review that answered.
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
