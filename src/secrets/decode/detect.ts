// What a file's first bytes say it is: text, UTF-16/UTF-32 text (by byte order mark or by where its
// NUL bytes fall), an archive to open (gzip, zip, tar), one compressed in a form the scan cannot
// open (bzip2, xz, zstd, 7z...), or other binary content.

export type Form =
  | "text"
  | "binary"
  | "utf16le"
  | "utf16be"
  | "utf32le"
  | "utf32be"
  /** A UTF-16 byte order mark on NUL-free content: UTF-16 without ASCII, or 8-bit text. */
  | "utf16le-or-text"
  | "utf16be-or-text"
  | "gzip"
  | "zip"
  | "tar"
  /** Compressed in a form the scan cannot open: `compressionName` says which. */
  | "sealed";

function startsWith(head: Uint8Array, ...bytes: number[]): boolean {
  return bytes.every((byte, i) => head[i] === byte);
}

/** ASCII text in UTF-16/32 leaves the high bytes of each code unit zero; count zeros per lane. */
function zeroLanes(head: Uint8Array): number[] {
  const lanes = [0, 0, 0, 0];
  const length = head.length - (head.length % 4);
  for (let i = 0; i < length; i++) if (head[i] === 0) lanes[i % 4] = (lanes[i % 4] as number) + 1;
  return lanes;
}

/**
 * Compressed and archive formats by their magic bytes, none of which Node can open: what they hold
 * leaves unread. Each magic is long enough (or holds bytes no text starts with) to name only them.
 */
const SEALED: readonly { name: string; magic: readonly (number | readonly number[])[] }[] = [
  // "BZh", the block size, then a block's or the end of stream's magic (an empty stream).
  {
    name: "bzip2",
    magic: [0x42, 0x5a, 0x68, [0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39], [0x31, 0x17]],
  },
  { name: "xz", magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: "zstd", magic: [0x28, 0xb5, 0x2f, 0xfd] },
  { name: "7z", magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: "RAR", magic: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { name: "lzip", magic: [0x4c, 0x5a, 0x49, 0x50, [0x00, 0x01]] },
  { name: "LZ4", magic: [0x04, 0x22, 0x4d, 0x18] },
];

/** The compressed format `head` starts with, of those the scan cannot open; undefined for any other. */
export function compressionName(head: Uint8Array): string | undefined {
  const matches = (magic: readonly (number | readonly number[])[]) =>
    magic.every((byte, i) =>
      typeof byte === "number" ? head[i] === byte : byte.includes(head[i] as number),
    );
  return SEALED.find((format) => matches(format.magic))?.name;
}

/** The form of content whose first bytes are `head` (a few KiB, or the whole file if shorter). */
export function detectForm(head: Uint8Array): Form {
  if (startsWith(head, 0xff, 0xfe, 0, 0)) return "utf32le";
  if (startsWith(head, 0, 0, 0xfe, 0xff)) return "utf32be";
  if (startsWith(head, 0x1f, 0x8b, 0x08)) return "gzip";
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04) || startsWith(head, 0x50, 0x4b, 0x05, 0x06)) return "zip";
  if (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString("latin1") === "ustar") return "tar";
  if (compressionName(head) !== undefined) return "sealed";
  const hasNul = head.includes(0);
  if (startsWith(head, 0xff, 0xfe)) return hasNul ? "utf16le" : "utf16le-or-text";
  if (startsWith(head, 0xfe, 0xff)) return hasNul ? "utf16be" : "utf16be-or-text";
  if (!hasNul) return "text";
  return unicodeByNuls(head) ?? "binary";
}

/** UTF-16/32 without a byte order mark: half (or three quarters) of the lanes nearly all zero. */
function unicodeByNuls(head: Uint8Array): Form | undefined {
  const [z0, z1, z2, z3] = zeroLanes(head) as [number, number, number, number];
  const units = Math.floor(head.length / 4);
  if (units < 2) return undefined;
  const mostly = (count: number) => count >= units * 0.9;
  const rarely = (count: number) => count <= units * 0.02;
  if (mostly(z1) && mostly(z2) && mostly(z3) && rarely(z0)) return "utf32le";
  if (mostly(z0) && mostly(z1) && mostly(z2) && rarely(z3)) return "utf32be";
  const halfMostly = (a: number, b: number) => a + b >= units * 2 * 0.6;
  const halfRarely = (a: number, b: number) => a + b <= units * 2 * 0.02;
  if (halfMostly(z1, z3) && halfRarely(z0, z2)) return "utf16le";
  if (halfMostly(z0, z2) && halfRarely(z1, z3)) return "utf16be";
  return undefined;
}
