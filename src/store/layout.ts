// The store under $(git rev-parse --git-common-dir)/review-remote/: atomic writes, one place for its layout.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
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
  const reason = (error as NodeJS.ErrnoException).code ?? String(error);
  return new ReviewRemoteError(messages.storeUnwritable(dir, reason), {
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

export function tempName(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Write `data` to `path` so that readers see the old file or the whole new one, never a part. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  await ensureDir(dirname(path));
  const tmp = tempName(path);
  try {
    const handle = await open(tmp, "wx", mode);
    try {
      await handle.writeFile(data);
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
