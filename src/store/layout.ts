// The store under $(git rev-parse --git-common-dir)/review-remote/: atomic writes, one place for its layout.
import { randomBytes } from "node:crypto";
import { appendFile, chmod, mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import { describeIoError } from "../os/errno.js";
import type { Repo } from "../repo.js";

export interface StorePaths {
  root: string;
  bundles: string;
  reviews: string;
  tmp: string;
  audit: string;
  /** `pruned.jsonl`: one line per bundle prune removed. */
  pruned: string;
}

export function storePaths(repo: Pick<Repo, "commonDir">): StorePaths {
  const root = join(repo.commonDir, "review-remote");
  return {
    root,
    bundles: join(root, "bundles"),
    reviews: join(root, "reviews"),
    tmp: join(root, "tmp"),
    audit: join(root, "audit.jsonl"),
    pruned: join(root, "pruned.jsonl"),
  };
}

/** Turn an I/O failure in the store (read-only, full disk) into a user error with a hint. */
export function storeError(dir: string, error: unknown): ReviewRemoteError {
  return new ReviewRemoteError(messages.storeUnwritable(dir, describeIoError(error)), {
    hints: [messages.hintStoreUnwritable],
    cause: error,
  });
}

export async function ensureDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw storeError(dir, error);
  }
}

/**
 * Appends `value` as one line of the JSON Lines file `path`, in one `write` with O_APPEND: concurrent
 * runs add whole lines, never interleaved ones (audit.jsonl, pruned.jsonl).
 */
export async function appendJsonLine(store: StorePaths, path: string, value: unknown): Promise<void> {
  await ensureDir(store.root);
  try {
    await appendFile(path, `${JSON.stringify(value)}\n`, { mode: 0o600 });
  } catch (error) {
    throw storeError(store.root, error);
  }
}

/** The values of the JSON Lines file `path` (none if it is missing); a torn line is skipped. */
export async function readJsonLines(path: string): Promise<unknown[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  const values: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      // A torn last line (a crash mid-write) is skipped, never fatal.
    }
  }
  return values;
}

export function tempName(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/**
 * Write `data` to `path` so that readers see the old file or the whole new one, never a part. Text
 * given as parts (an iterable of strings) is written part by part: a large file is never one string.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  mode = 0o644,
): Promise<void> {
  await ensureDir(dirname(path));
  const tmp = tempName(path);
  try {
    const handle = await open(tmp, "wx", mode);
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      else for (const part of data) await handle.write(part);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw storeError(dirname(path), error);
  }
}
