// Stored bundles: `bundles/<sha256>.tar.gz`, read-only, beside the manifest of what it holds.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, chmod, readFile, rename, rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import type { ManifestFile } from "../export/archive.js";
import { ensureDir, type StorePaths, storeError, writeFileAtomic } from "./layout.js";

export function bundlePath(store: StorePaths, sha256: string): string {
  return join(store.bundles, `${sha256}.tar.gz`);
}

export function manifestPath(bundle: string): string {
  return bundle.replace(/\.tar\.gz$/, ".manifest.json");
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Move the finished temp file to its content address, read-only, next to its manifest. */
export async function storeBundle(
  store: StorePaths,
  tmp: string,
  sha256: string,
  files: readonly ManifestFile[],
): Promise<string> {
  const path = bundlePath(store, sha256);
  try {
    await ensureDir(store.bundles);
    const manifest = `${JSON.stringify({ sha256, files }, null, 1)}\n`;
    if (!(await exists(manifestPath(path)))) await writeFileAtomic(manifestPath(path), manifest, 0o444);
    if (await exists(path)) {
      await rm(tmp, { force: true });
      await freshenBundle(path);
    } else {
      await chmod(tmp, 0o444);
      await rename(tmp, path);
    }
    return path;
  } catch (error) {
    if (error instanceof ReviewRemoteError) throw error;
    throw storeError(store.bundles, error);
  }
}

/**
 * Marks a stored bundle used now (its mtime), as git freshens an object it writes again: prune judges
 * a bundle's age by it, so one an export is about to send is not taken for an old one. Best effort.
 */
export async function freshenBundle(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => undefined);
}

/** The manifest of a stored bundle: the sha256 it names and the files that were sent. Throws when it cannot be read. */
export async function readStoredManifest(
  store: StorePaths,
  sha256: string,
): Promise<{ sha256: string; files: ManifestFile[] }> {
  const text = await readFile(manifestPath(bundlePath(store, sha256)), "utf8");
  return JSON.parse(text) as { sha256: string; files: ManifestFile[] };
}

/** The files a stored bundle sent. Throws when its manifest cannot be read. */
export async function readManifest(store: StorePaths, sha256: string): Promise<ManifestFile[]> {
  return (await readStoredManifest(store, sha256)).files;
}

/** A stored file's sha256 and size, streamed. */
export async function digestOf(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}
