// The index file written in-process (gitformat-index(5), version 2, with the cache-tree extension),
// from what the tar headers say of each file. Only the whole-second mtime, the size and the mode are
// real stat data: the repositories that read it set core.checkStat=minimal and core.trustCtime=false,
// so git compares nothing else, and hashes a file again only when those differ (or are racy).
import { createHash } from "node:crypto";
import { OBJECT_HASH } from "./objects.js";

export interface IndexEntry {
  /** `/`-separated; written as UTF-8. */
  path: string;
  /** 0o100644, 0o100755 or 0o120000. */
  mode: number;
  oid: Buffer;
  size: number;
  /** Whole seconds, as the file's mtime on disk; 0 when unknown (git then compares the content). */
  mtime: number;
}

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

/** Writes `entry` (into zeroed bytes) at `at`; where the next one goes. */
function writeEntry(out: Buffer, at: number, entry: IndexEntry): number {
  // ctime (s, ns), mtime (s, ns), dev, ino, mode, uid, gid, size: zero unless git compares it.
  out.writeUInt32BE(entry.mtime >>> 0, at + 8);
  out.writeUInt32BE(entry.mode, at + 24);
  out.writeUInt32BE(entry.size >>> 0, at + 36);
  entry.oid.copy(out, at + 40);
  const pathBytes = out.write(entry.path, at + ENTRY_FIXED_BYTES, "utf8");
  out.writeUInt16BE(Math.min(pathBytes, NAME_MASK), at + 60);
  return at + entryBytes(pathBytes);
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
 * The whole index file: header, `entries` (already in index order: their UTF-8 paths as memcmp()
 * orders them, gitformat-index(5)), the TREE extension, checksum.
 */
export function encodeIndexFile(entries: readonly IndexEntry[], cacheTree?: CacheTreeNode): Buffer {
  const extension: Buffer[] = [];
  if (cacheTree) encodeCacheTree(cacheTree, extension);
  const extensionBytes = extension.reduce((sum, part) => sum + part.length, 0);
  let size = 12 + (cacheTree ? 8 + extensionBytes : 0) + 20;
  for (const entry of entries) size += entryBytes(Buffer.byteLength(entry.path, "utf8"));
  const out = Buffer.alloc(size);
  out.write("DIRC", 0, "latin1");
  out.writeUInt32BE(2, 4);
  out.writeUInt32BE(entries.length, 8);
  let at = 12;
  for (const entry of entries) at = writeEntry(out, at, entry);
  if (cacheTree) {
    out.write("TREE", at, "latin1");
    at = out.writeUInt32BE(extensionBytes, at + 4);
    for (const part of extension) at += part.copy(out, at);
  }
  createHash(OBJECT_HASH).update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}
