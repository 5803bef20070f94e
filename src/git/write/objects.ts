// Git objects written in-process (gitformat-pack(5), git-hash-object(1)): their ids, the tree and
// commit encodings, and the zlib stream git stores them in. The worker's baseline is built from the
// bundle as it streams by, with no git process over every file (design §8).
import { createHash, type Hash, hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

/** The worker's repositories use SHA-1, git's default (`git init` without extensions.objectFormat). */
export const OBJECT_HASH = "sha1";

export const ObjectType = { commit: 1, tree: 2, blob: 3 } as const;
export type ObjectType = (typeof ObjectType)[keyof typeof ObjectType];
const TYPE_NAMES: Record<ObjectType, string> = { 1: "commit", 2: "tree", 3: "blob" };

/** `<type> SP <size> NUL`: what an object's id hashes before its body. */
function objectHeader(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${TYPE_NAMES[type]} ${size}\0`, "latin1");
}

/** The id of a body fed in pieces, as `git hash-object` computes it. */
function objectHasher(type: ObjectType, size: number): Hash {
  return createHash(OBJECT_HASH).update(objectHeader(type, size));
}

/** Header and body of a small object, side by side for one hash call (no Hash object per object). */
const scratch = Buffer.allocUnsafe(64 * 1024);

export function objectId(type: ObjectType, body: Uint8Array): Buffer {
  if (body.length > scratch.length - 32) return objectHasher(type, body.length).update(body).digest();
  const at = scratch.write(`${TYPE_NAMES[type]} ${body.length}\0`, 0, "latin1");
  scratch.set(body, at);
  return hash(OBJECT_HASH, scratch.subarray(0, at + body.length), "buffer");
}

/**
 * A blob's id from its content fed in pieces: content that comes in one piece, as nearly every
 * file's does, is hashed in one call; only longer content goes through a streaming hasher.
 */
export class BlobHasher {
  private hash: Hash | undefined;
  private oid: Buffer | undefined;

  constructor(private readonly size: number) {}

  update(piece: Uint8Array): void {
    if (this.hash === undefined && piece.length === this.size) {
      this.oid = objectId(ObjectType.blob, piece);
      return;
    }
    this.hash ??= objectHasher(ObjectType.blob, this.size);
    this.hash.update(piece);
  }

  digest(): Buffer {
    return this.oid ?? (this.hash ?? objectHasher(ObjectType.blob, this.size)).digest();
  }
}

/** A tree entry: `name` is one path component, a directory's mode is `40000`. */
export interface TreeItem {
  name: string;
  mode: string;
  oid: Buffer;
}

/** The bytes an entry takes in a tree body: `<mode> SP <name> NUL <raw oid>`. */
export function treeItemBytes(item: TreeItem): number {
  return item.mode.length + 2 + Buffer.byteLength(item.name, "utf8") + item.oid.length;
}

/**
 * A tree object's body from its entries already in git's tree order (base_name_compare: names as
 * bytes, a directory as if its name ended in "/"), `bytes` long (the sum of their treeItemBytes).
 */
export function encodeTree(items: readonly TreeItem[], bytes: number): Buffer {
  const body = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const item of items) {
    at += body.write(item.mode, at, "latin1");
    body[at++] = 0x20;
    at += body.write(item.name, at, "utf8");
    body[at++] = 0;
    at += item.oid.copy(body, at);
  }
  return body;
}

export interface CommitFields {
  tree: string;
  parents: readonly string[];
  /** `Name <email> <seconds> <+zone>`, as git writes an ident. */
  author: string;
  committer: string;
  message: string;
}

export function encodeCommit(commit: CommitFields): Buffer {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${commit.author}`, `committer ${commit.committer}`, "", commit.message);
  return Buffer.from(lines.join("\n"), "utf8");
}

const ADLER_MOD = 65521;
/** The most bytes whose sums cannot overflow before the modulo (zlib's NMAX). */
const ADLER_BLOCK = 5552;

/**
 * Adler-32 (RFC 1950), continued from `previous`: the checksum that ends a zlib stream. Eight bytes
 * a step (b gains a eight times, and each byte as often as the bytes it precedes in the step, itself
 * included): a third less time than a byte a step, over every blob of a reviewer command's baseline.
 */
export function adler32(data: Uint8Array, previous = 1): number {
  let a = previous & 0xffff;
  let b = previous >>> 16;
  let at = 0;
  const length = data.length;
  while (at < length) {
    const end = Math.min(at + ADLER_BLOCK, length);
    for (; at + 8 <= end; at += 8) {
      const d0 = data[at] as number;
      const d1 = data[at + 1] as number;
      const d2 = data[at + 2] as number;
      const d3 = data[at + 3] as number;
      const d4 = data[at + 4] as number;
      const d5 = data[at + 5] as number;
      const d6 = data[at + 6] as number;
      const d7 = data[at + 7] as number;
      b += 8 * a + 8 * d0 + 7 * d1 + 6 * d2 + 5 * d3 + 4 * d4 + 3 * d5 + 2 * d6 + d7;
      a += d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
    }
    for (; at < end; at++) {
      a += data[at] as number;
      b += a;
    }
    a %= ADLER_MOD;
    b %= ADLER_MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib header: deflate, 32 KiB window, no dictionary, "fastest" (RFC 1950 §2.2; a multiple of 31). */
export const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
const MAX_STORED = 0xffff;

/**
 * A zlib stream of stored (uncompressed) deflate blocks, fed in pieces: git inflates whatever
 * it reads, and the baseline lives on tmpfs for minutes, so compressing it would only cost time.
 */
export class StoredZlib {
  private adler = 1;

  /** The stored blocks carrying `data` (RFC 1951 §3.2.4), each up to 65535 bytes. */
  blocks(data: Buffer, emit: (piece: Buffer) => void): void {
    this.adler = adler32(data, this.adler);
    for (let at = 0; at < data.length; at += MAX_STORED) {
      const piece = data.subarray(at, at + MAX_STORED);
      const header = Buffer.alloc(5);
      header.writeUInt16LE(piece.length, 1);
      header.writeUInt16LE(~piece.length & 0xffff, 3);
      emit(header);
      emit(piece);
    }
  }

  /** An empty final block, then the Adler-32 of everything. */
  end(): Buffer {
    const tail = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0]);
    tail.writeUInt32BE(this.adler, 5);
    return tail;
  }
}

/** A whole body as one zlib stream of stored blocks. */
export function storedZlib(body: Buffer): Buffer {
  const pieces: Buffer[] = [ZLIB_HEADER];
  const zlib = new StoredZlib();
  zlib.blocks(body, (piece) => pieces.push(piece));
  pieces.push(zlib.end());
  return Buffer.concat(pieces);
}

/**
 * Writes one loose object under `objectsDir` (`xx/yyyy...`, read-only, as git does) and returns
 * its id; an object already there is left as it is.
 */
export function writeLooseObject(objectsDir: string, type: ObjectType, body: Buffer): Buffer {
  const oid = objectId(type, body);
  const hex = oid.toString("hex");
  const dir = join(objectsDir, hex.slice(0, 2));
  mkdirSync(dir, { recursive: true });
  let fd: number;
  try {
    fd = openSync(join(dir, hex.slice(2)), "wx", 0o444);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return oid;
    throw error;
  }
  try {
    writeSync(fd, storedZlib(Buffer.concat([objectHeader(type, body.length), body])));
  } finally {
    closeSync(fd);
  }
  return oid;
}
