// The baseline's blobs, which the index and trees name by the ids of the bundle's content: all of
// them in one pack (a reviewer command runs git on its own: diff, stash, checkout; the ids computed
// while the bundle streamed by), or only the originals of what a built-in reviewer rewrites (the ids
// read from the bundle again, and only if a baseline is written). Either way each blob must hash to
// the id the bundle gave it: what the reviewer starts from is exactly what was sent.

import { closeSync, constants, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { BlobHasher, ObjectType, objectId, writeLooseObject } from "../git/write/objects.js";
import { PackWriter } from "../git/write/pack.js";
import { TarReader, TarType } from "../tar/reader.js";
import { DEFAULT_BUNDLE_LIMITS } from "./bundle-limits.js";
import { gunzipFile } from "./gunzip.js";
import { type BundleListing, BundleRefusedError } from "./verify-bundle.js";

const READ_BYTES = 1024 * 1024;

function mismatch(path: string): BundleRefusedError {
  return new BundleRefusedError("extract-mismatch", "the unpacked content is not the bundle's", path);
}

/** A file's content into `pack`, in pieces; throws unless it is exactly the listed blob. */
function packFile(
  pack: PackWriter,
  readBuffer: Buffer,
  file: string,
  path: string,
  size: number,
  oid: Buffer,
): void {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const object = pack.add(ObjectType.blob, size);
    const hash = new BlobHasher(size);
    let read = 0;
    for (;;) {
      const left = size - read;
      // One byte more than is left: a longer file shows in the same read, no read for the end.
      const want = left <= READ_BYTES ? left + 1 : READ_BYTES;
      // One buffer for every read: the pack copies what it is given.
      const got = readSync(fd, readBuffer, 0, want, null);
      if (got > left || (got === 0 && left > 0)) throw mismatch(path);
      // An empty file.
      if (got === 0) break;
      const data = readBuffer.subarray(0, got);
      object.write(data);
      hash.update(data);
      read += got;
      if (read === size) break;
    }
    if (!hash.digest().equals(oid)) throw mismatch(path);
    object.end(oid);
  } finally {
    closeSync(fd);
  }
}

/** Every distinct blob of the listing, read from `tree`, as one pack in `packDir`. */
export function packBlobs(tree: string, listing: BundleListing, packDir: string): void {
  const { nodes } = listing;
  const distinct = new Map<string, number>();
  for (let index = 0; index < nodes.size; index++) {
    const oid = nodes.oidAt(index)?.toString("latin1");
    if (oid !== undefined && !distinct.has(oid)) distinct.set(oid, index);
  }
  const pack = new PackWriter(join(packDir, "tmp_blobs_pack"), distinct.size);
  // One more byte than a read asks for at most (packFile).
  const readBuffer = Buffer.allocUnsafe(READ_BYTES + 1);
  try {
    for (const index of distinct.values()) {
      const oid = nodes.oidAt(index) as Buffer;
      const path = nodes.pathAt(index);
      // A symlink was written from the listing: its target is the blob.
      if (nodes.kindAt(index) === "symlink")
        pack.addWhole(ObjectType.blob, Buffer.from(nodes.linkpathAt(index), "utf8"), oid);
      else packFile(pack, readBuffer, join(tree, path), path, nodes.sizeAt(index), oid);
    }
    pack.finish(packDir);
  } finally {
    pack.close();
  }
}

/**
 * Before a built-in reviewer rewrites `path`: its original content as a loose object, so that
 * collecting can diff against it. It must be the bundle's blob: checked at once when the listing
 * has the blob ids, else when addBlobIds reads them (the content's id waits in the listing).
 */
export function keepOriginalBlob(tree: string, listing: BundleListing, path: string, content: Buffer): void {
  const { nodes } = listing;
  const index = nodes.indexOf(path);
  if (index === undefined || nodes.kindAt(index) !== "file") throw mismatch(path);
  const oid = objectId(ObjectType.blob, content);
  const listed = nodes.oidAt(index);
  if (listed ? !listed.equals(oid) : listing.blobIds) throw mismatch(path);
  nodes.setOid(index, oid);
  writeLooseObject(join(tree, ".git", "objects"), ObjectType.blob, content);
}

/**
 * The blob ids of a listing unpacked without them, from the bundle read again: its bytes were checked
 * against the request's sha256 as they arrived and validated entry by entry, so this pass only hashes
 * each file and symlink as it streams by, matched by name to the listing's, in the listing's order
 * (no second listing is built). An id already there (an original a reviewer kept) must be the
 * bundle's.
 */
export async function addBlobIds(
  bundle: string,
  size: number,
  listing: BundleListing,
  signal?: AbortSignal,
): Promise<void> {
  if (listing.blobIds) return;
  const { nodes } = listing;
  let next = 0;
  /** The listing's next file or symlink, which must be `path`. */
  const take = (path: string): number => {
    while (next < nodes.size && nodes.isDirectoryAt(next)) next++;
    if (next >= nodes.size || nodes.pathAt(next) !== path) throw mismatch(path);
    return next++;
  };
  const found = (index: number, oid: Buffer): void => {
    const kept = nodes.oidAt(index);
    if (kept && !kept.equals(oid)) throw mismatch(nodes.pathAt(index));
    nodes.setOid(index, oid);
  };
  let open: { index: number; hash: BlobHasher } | undefined;
  const reader = new TarReader({
    entry(entry) {
      if (entry.type === TarType.directory) return undefined;
      const index = take(entry.path);
      if (entry.type === TarType.symlink) {
        found(index, objectId(ObjectType.blob, Buffer.from(entry.linkpath, "utf8")));
        return undefined;
      }
      const hash = new BlobHasher(entry.size);
      open = { index, hash };
      return (chunk) => hash.update(chunk);
    },
    entryEnd() {
      if (open) found(open.index, open.hash.digest());
      open = undefined;
    },
  });
  const limits = { ...DEFAULT_BUNDLE_LIMITS, maxOutputBytes: DEFAULT_BUNDLE_LIMITS.maxExpandedBytes };
  await gunzipFile(bundle, size, limits, (chunk) => {
    signal?.throwIfAborted();
    reader.write(chunk);
  });
  reader.end();
  while (next < nodes.size && nodes.isDirectoryAt(next)) next++;
  if (next < nodes.size) throw mismatch(nodes.pathAt(next));
  listing.blobIds = true;
}
