// A pack and its index written in one pass (gitformat-pack(5): pack version 2, idx version 2), with
// every object whole (no deltas) in stored zlib blocks: one file instead of one file per object,
// which is what makes tens of thousands of blobs cheap to write.
import { createHash } from "node:crypto";
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { OBJECT_HASH, type ObjectType, StoredZlib, ZLIB_HEADER } from "./objects.js";

/** One object being written: its body in pieces, then its id (computed by the caller). */
export interface PackObject {
  write(chunk: Buffer): void;
  end(oid: Buffer): void;
}

interface Placed {
  oid: Buffer;
  offset: number;
  crc: number;
}

/**
 * Bytes gathered before they go to the file in one write, and to the pack's checksum in one update:
 * an object's pieces (its header, the zlib frame, a stored block's header, the content) are copied
 * here, so that a small object costs no system call, no hash or CRC call per piece, and no buffer
 * kept alive until the write.
 */
const BATCH_BYTES = 1024 * 1024;
const LARGE_OFFSET = 0x80000000;

/** `<type, size>` as the pack's variable-length object header (gitformat-pack(5), "Object entries"). */
function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

export class PackWriter {
  private readonly fd: number;
  private readonly hash = createHash(OBJECT_HASH);
  private readonly placed: Placed[] = [];
  private readonly batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  /** Where the object being written starts in the batch (0 once part of it went out). */
  private objectStart = 0;
  /** The CRC-32 of what went out of the object being written. */
  private crc = 0;
  private offset = 0;
  private closed = false;

  /** A pack of exactly `count` objects, written to `path` (a temp name; `finish` names it). */
  constructor(
    private readonly path: string,
    private readonly count: number,
  ) {
    this.fd = openSync(path, "wx", 0o444);
    const header = Buffer.alloc(12);
    header.write("PACK", 0, "latin1");
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(count, 8);
    this.emit(header);
  }

  add(type: ObjectType, size: number): PackObject {
    const offset = this.offset;
    this.crc = 0;
    this.objectStart = this.used;
    this.emit(entryHeader(type, size));
    this.emit(ZLIB_HEADER);
    const zlib = new StoredZlib();
    const emit = (piece: Buffer) => this.emit(piece);
    return {
      write: (chunk) => zlib.blocks(chunk, emit),
      end: (oid) => {
        this.emit(zlib.end());
        const crc = crc32(this.batch.subarray(this.objectStart, this.used), this.crc);
        this.placed.push({ oid, offset, crc });
      },
    };
  }

  addWhole(type: ObjectType, body: Buffer, oid: Buffer): void {
    const object = this.add(type, body.length);
    object.write(body);
    object.end(oid);
  }

  /** Writes the trailer and the index into `dir` as `pack-<checksum>.{pack,idx}`; returns the name. */
  finish(dir: string): string {
    if (this.placed.length !== this.count) {
      throw new Error(`pack: ${this.placed.length} objects written, ${this.count} announced`);
    }
    this.flush();
    const checksum = this.hash.digest();
    writeAll(this.fd, checksum);
    this.close();
    const name = `pack-${checksum.toString("hex")}`;
    writeFileSync(join(dir, `${name}.idx`), encodeIndex(this.placed, checksum), { mode: 0o444 });
    renameSync(this.path, join(dir, `${name}.pack`));
    return name;
  }

  /** Lets go of the file without finishing it (a refused bundle); `finish` closes it too. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private emit(piece: Buffer): void {
    this.offset += piece.length;
    for (let at = 0; at < piece.length; ) {
      if (this.used === BATCH_BYTES) this.flush();
      const copied = piece.copy(this.batch, this.used, at);
      this.used += copied;
      at += copied;
    }
  }

  /** Writes out the batch, the object being written's part of it counted into its CRC. */
  private flush(): void {
    const full = this.batch.subarray(0, this.used);
    this.hash.update(full);
    this.crc = crc32(this.batch.subarray(this.objectStart, this.used), this.crc);
    writeAll(this.fd, full);
    this.used = 0;
    this.objectStart = 0;
  }
}

/** The idx (version 2): fan-out, sorted ids, CRC-32s, offsets, then both checksums. */
function encodeIndex(placed: Placed[], packChecksum: Buffer): Buffer {
  const sorted = [...placed].sort((a, b) => Buffer.compare(a.oid, b.oid));
  const width = packChecksum.length;
  const large = sorted.filter((object) => object.offset >= LARGE_OFFSET);
  const size = 8 + 256 * 4 + sorted.length * (width + 8) + large.length * 8 + 2 * width;
  const out = Buffer.alloc(size);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  let at = 8;
  for (let byte = 0, seen = 0; byte < 256; byte++) {
    while (seen < sorted.length && ((sorted[seen] as Placed).oid[0] as number) <= byte) seen++;
    out.writeUInt32BE(seen, at);
    at += 4;
  }
  for (const object of sorted) at += object.oid.copy(out, at);
  for (const object of sorted) at = out.writeUInt32BE(object.crc >>> 0, at);
  let nextLarge = 0;
  for (const object of sorted) {
    const value = object.offset < LARGE_OFFSET ? object.offset : LARGE_OFFSET | nextLarge++;
    at = out.writeUInt32BE(value >>> 0, at);
  }
  for (const object of large) at = out.writeBigUInt64BE(BigInt(object.offset), at);
  at += packChecksum.copy(out, at);
  createHash(OBJECT_HASH).update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}
