// Reads the files a report's fixes name and writes back what the fixes made of them, in the reviewed
// tree, which the reviewer could have filled with symlinks: a file is used only when it and every
// directory above it are what they seem (no symlink on the way), and it is opened without following
// one. Only files that already exist are rewritten, in place, so their owner and mode stay.

import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const MAX_FILES = 10_000;

/** The file's path when it is a regular file reached without a symlink, else undefined. */
function plainFile(tree: string, path: string): string | undefined {
  const parts = path.split("/");
  let current = tree;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat) return undefined;
    const last = index === parts.length - 1;
    if (last ? !stat.isFile() : !stat.isDirectory()) return undefined;
  }
  return current;
}

/** The contents of the named files that can be edited (others are left out: "no such file"). */
export function readFixFiles(
  tree: string,
  paths: Iterable<string>,
  maxFileBytes: number,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const path of paths) {
    if (files.size >= MAX_FILES || files.has(path)) continue;
    const file = plainFile(tree, path);
    if (!file) continue;
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      // A larger file is given as its size only: the applier refuses to edit it by that.
      const size = fstatSync(fd).size;
      files.set(path, size > maxFileBytes ? new Uint8Array(maxFileBytes + 1) : readFileSync(fd));
    } finally {
      closeSync(fd);
    }
  }
  return files;
}

/** Writes the new contents over the existing files. */
export function writeFixFiles(tree: string, files: ReadonlyMap<string, Uint8Array>): void {
  for (const [path, bytes] of files) {
    const file = plainFile(tree, path);
    if (!file) throw new Error(`${path} changed under the worker while it applied fixes`);
    const fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      ftruncateSync(fd, 0);
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, offset);
    } finally {
      closeSync(fd);
    }
  }
}
