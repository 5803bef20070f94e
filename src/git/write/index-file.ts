// The index file written in-process (gitformat-index(5), version 2, with the cache-tree extension),
// from what the tar headers say of each file. Only the whole-second mtime, the size and the mode are
// real stat data: the repositories that read it set core.checkStat=minimal and core.trustCtime=false,
// so git compares nothing else, and hashes a file again only when those differ (or are racy).
import { createHash } from "node:crypto";
import { OBJECT_HASH } from "./objects.js";

/** A directory of the cache-tree: the tree it would be written as, and how many entries it covers. */
export interface CacheTreeNode {
  name: Buffer;
  oid: Buffer;
  entries: number;
  children: CacheTreeNode[];
}

const ENTRY_FIXED_BYTES = 62;
const NAME_MASK = 0xfff;

/** An entry's bytes for a path of `pathBytes`: NUL-padded to a multiple of eight, with at least one NUL. */
function entryBytes(pathBytes: number): number {
  return (ENTRY_FIXED_BYTES + pathBytes + 8) & ~7;
}

/** Subdirectories in git's cache-tree order: shorter names first, then bytes (subtree_name_cmp). */
function cacheTreeOrder(a: CacheTreeNode, b: CacheTreeNode): number {
  return a.name.length - b.name.length || Buffer.compare(a.name, b.name);
}

/** `<name> NUL <entries> SP <subtrees> LF <oid>`, depth first from the root (whose name is empty). */
function encodeCacheTree(node: CacheTreeNode, parts: Buffer[]): void {
  parts.push(node.name, Buffer.from(`\0${node.entries} ${node.children.length}\n`, "latin1"), node.oid);
  for (const child of [...node.children].sort(cacheTreeOrder)) encodeCacheTree(child, parts);
}

/**
 * The index file written entry by entry into one buffer sized up front: the entries in index order
 * (their UTF-8 paths as memcmp() orders them, gitformat-index(5)), then the TREE extension and the
 * checksum.
 */
export class IndexFileWriter {
  private readonly out: Buffer;
  private at = 12;
  private count = 0;

  /** For `paths` (the entries' paths, any order): the exact room they take. */
  constructor(paths: readonly string[]) {
    let size = 12;
    for (const path of paths) size += entryBytes(Buffer.byteLength(path, "utf8"));
    this.out = Buffer.alloc(size);
    this.out.write("DIRC", 0, "latin1");
    this.out.writeUInt32BE(2, 4);
    this.out.writeUInt32BE(paths.length, 8);
  }

  /** `mode` 0o100644, 0o100755 or 0o120000; `mtime` in whole seconds, as on disk (0: unknown). */
  add(path: string, mode: number, oid: Uint8Array, size: number, mtime: number): void {
    const { out, at } = this;
    // ctime (s, ns), mtime (s, ns), dev, ino, mode, uid, gid, size: zero unless git compares it.
    out.writeUInt32BE(mtime >>> 0, at + 8);
    out.writeUInt32BE(mode, at + 24);
    out.writeUInt32BE(size >>> 0, at + 36);
    out.set(oid, at + 40);
    const pathBytes = out.write(path, at + ENTRY_FIXED_BYTES, "utf8");
    out.writeUInt16BE(Math.min(pathBytes, NAME_MASK), at + 60);
    this.at = at + entryBytes(pathBytes);
    this.count++;
  }

  /** The whole file, with `cacheTree` as its TREE extension. */
  finish(cacheTree: CacheTreeNode): Buffer {
    if (this.at !== this.out.length)
      throw new Error(`index: ${this.count} entries written, not all announced`);
    const extension: Buffer[] = [];
    encodeCacheTree(cacheTree, extension);
    const extensionBytes = extension.reduce((sum, part) => sum + part.length, 0);
    const file = Buffer.allocUnsafe(this.out.length + 8 + extensionBytes + 20);
    let at = this.out.copy(file);
    at += file.write("TREE", at, "latin1");
    at = file.writeUInt32BE(extensionBytes, at);
    for (const part of extension) at += part.copy(file, at);
    createHash(OBJECT_HASH).update(file.subarray(0, at)).digest().copy(file, at);
    return file;
  }
}
