// How hygiene reads and writes the unpacked tree: regular files only, never through a symlink at the
// last component (the validated listing has none above it).
import { closeSync, constants, fstatSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BundleListing } from "../verify-bundle.js";

export const HYGIENE_MAX_FILE_BYTES = 1024 * 1024;
const MAX_EDITORCONFIG_BYTES = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function isUtf8(content: Buffer): boolean {
  try {
    utf8.decode(content);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a regular file up to `max` bytes (size -1: not a regular file; no content: larger than
 * `max`). Synchronous on purpose: for tens of thousands of small files on tmpfs the async version
 * spends most of its time in the thread pool round trips. Read as readFileSync reads a descriptor (up
 * to the size fstat gave), without its second fstat.
 */
export function readRegularFile(
  path: string,
  max = HYGIENE_MAX_FILE_BYTES,
): { size: number; content?: Buffer } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { size: -1 };
    if (stat.size > max) return { size: stat.size };
    const content = Buffer.allocUnsafe(stat.size);
    let read = 0;
    for (let bytes = 1; read < content.length && bytes > 0; read += bytes) {
      bytes = readSync(fd, content, read, content.length - read, null);
    }
    return { size: stat.size, content: read < content.length ? content.subarray(0, read) : content };
  } finally {
    closeSync(fd);
  }
}

export function writeRegularFile(path: string, content: Buffer): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** A reader of `<dir>/.editorconfig` in the tree: only a regular file the bundle holds. */
export function editorConfigReader(
  tree: string,
  listing: BundleListing,
): (dir: string) => string | undefined {
  return (dir) => {
    const path = dir === "" ? ".editorconfig" : `${dir}/.editorconfig`;
    if (listing.nodes.get(path)?.kind !== "file") return undefined;
    const { content } = readRegularFile(join(tree, path), MAX_EDITORCONFIG_BYTES);
    return content?.toString("utf8");
  };
}
