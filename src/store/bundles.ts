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

/** Files per part of a manifest's text: a part of ~100 KB, where the whole is MBs for a large tree. */
const MANIFEST_PART_FILES = 1000;

/**
 * The text of `JSON.stringify({ sha256, files }, null, 1)` and a newline, in parts: a large tree's
 * manifest, made whole, was one string of MBs (and its bytes again to write it) at the moment the
 * export's peak memory is reached.
 */
export function* manifestText(sha256: string, files: readonly ManifestFile[]): Generator<string> {
  if (files.length === 0) {
    yield `${JSON.stringify({ sha256, files }, null, 1)}\n`;
    return;
  }
  yield `{\n "sha256": ${JSON.stringify(sha256)},\n "files": [\n`;
  for (let start = 0; start < files.length; start += MANIFEST_PART_FILES) {
    const part = files.slice(start, start + MANIFEST_PART_FILES).map(
      // An element of the array two levels down: each of its lines indented two more spaces.
      (file) => `  ${JSON.stringify(file, null, 1).replaceAll("\n", "\n  ")}`,
    );
    yield `${start > 0 ? ",\n" : ""}${part.join(",\n")}`;
  }
  yield "\n ]\n}\n";
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
    if (!(await exists(manifestPath(path))))
      await writeFileAtomic(manifestPath(path), manifestText(sha256, files), 0o444);
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
