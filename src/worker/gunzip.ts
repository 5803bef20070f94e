// Strict streaming gunzip for untrusted bundles: exactly one gzip member, nothing after it, CRC and size
// checked, and inflation stopped as soon as the output grows past a cap or a compression ratio.
// Node's Gunzip silently accepts concatenated members and ignores some trailing bytes, so the gzip
// framing (RFC 1952) is parsed here and only the deflate body goes to zlib.

import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { crc32, createInflateRaw } from "node:zlib";

export class GzipError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

export interface GunzipLimits {
  /** Refuse once this many bytes have come out. */
  maxOutputBytes: number;
  /** Refuse when output/input exceeds this... */
  maxRatio: number;
  /** ...once the output is past this many bytes (small archives compress well and are harmless). */
  ratioFloorBytes: number;
}

const FLAG_HCRC = 0x02;
const FLAG_EXTRA = 0x04;
const FLAG_NAME = 0x08;
const FLAG_COMMENT = 0x10;
const FLAG_RESERVED = 0xe0;
const MAX_HEADER_BYTES = 4096;

/** Length of the gzip member header at the start of `head` (RFC 1952 §2.3). */
function parseGzipHeader(head: Buffer): number {
  if (head.length < 18 || head[0] !== 0x1f || head[1] !== 0x8b)
    throw new GzipError("gzip-format", "not a gzip file");
  if (head[2] !== 8) throw new GzipError("gzip-format", "gzip compression method is not deflate");
  const flags = head[3] as number;
  if (flags & FLAG_RESERVED) throw new GzipError("gzip-format", "reserved gzip header flags are set");
  let offset = 10;
  if (flags & FLAG_EXTRA) {
    if (offset + 2 > head.length) throw new GzipError("gzip-format", "truncated gzip header");
    offset += 2 + head.readUInt16LE(offset);
  }
  for (const flag of [FLAG_NAME, FLAG_COMMENT]) {
    if (!(flags & flag)) continue;
    const nul = head.indexOf(0, offset);
    if (nul === -1) throw new GzipError("gzip-format", "gzip header name or comment too long");
    offset = nul + 1;
  }
  if (flags & FLAG_HCRC) offset += 2;
  if (offset + 8 > head.length) throw new GzipError("gzip-format", "truncated gzip header");
  return offset;
}

/**
 * Inflates the single gzip member in `file` (of `size` bytes) and hands the output to `sink` chunk by
 * chunk; memory stays flat. Throws GzipError for a bad frame, a second member or trailing bytes, a CRC or
 * size mismatch, or output over the limits; errors thrown by `sink` propagate and stop the inflation.
 */
export async function gunzipFile(
  file: string,
  size: number,
  limits: GunzipLimits,
  sink: (chunk: Buffer) => void | Promise<void>,
): Promise<void> {
  const handle = await open(file, "r");
  const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
  const trailer = Buffer.alloc(8);
  try {
    await handle.read(head, 0, head.length, 0);
    if (size >= 8) await handle.read(trailer, 0, 8, size - 8);
  } finally {
    await handle.close();
  }
  const headerBytes = parseGzipHeader(head);
  const bodyBytes = size - 8 - headerBytes;
  if (bodyBytes < 2) throw new GzipError("gzip-format", "truncated gzip file");
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  let out = 0;
  let crc = 0;
  // pipeline() reports a failing sink as a generic AbortError: keep our own error to rethrow it.
  let failure: unknown;
  const consume = async (source: AsyncIterable<Buffer>) => {
    try {
      for await (const chunk of source) {
        out += chunk.length;
        if (out > limits.maxOutputBytes) {
          throw new GzipError(
            "expanded-size",
            `the bundle expands to more than ${limits.maxOutputBytes} bytes`,
          );
        }
        if (out > limits.ratioFloorBytes && out > limits.maxRatio * Math.max(inflate.bytesWritten, 1)) {
          throw new GzipError(
            "compression-ratio",
            `compression ratio over ${limits.maxRatio}:1 (${out} bytes from ${inflate.bytesWritten}): a decompression bomb`,
          );
        }
        crc = crc32(chunk, crc);
        await sink(chunk);
      }
    } catch (error) {
      failure = error;
      throw error;
    }
  };
  try {
    await pipeline(
      createReadStream(file, { start: headerBytes, end: size - 9, highWaterMark: 64 * 1024 }),
      inflate,
      consume,
    );
  } catch (error) {
    throw failure ?? error;
  }
  // The deflate stream ended on its own: everything after it must be exactly the 8-byte trailer.
  if (inflate.bytesWritten !== bodyBytes) {
    throw new GzipError(
      "gzip-trailing-data",
      "data after the gzip stream (a second member or trailing bytes)",
    );
  }
  if (trailer.readUInt32LE(0) !== crc >>> 0 || trailer.readUInt32LE(4) !== out % 2 ** 32) {
    throw new GzipError("gzip-format", "gzip CRC or length mismatch");
  }
}
