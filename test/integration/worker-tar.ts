// A tiny tar writer for hostile test bundles: any name, type, mode, size field or pax record, with
// correct checksums, so each worker rule can be exercised for its whole class of attack.

export interface TarSpec {
  name: string;
  /** Typeflag character; default "0" (file). */
  type?: string;
  content?: Buffer | string;
  /** Size field, when it should differ from the content (e.g. a size on a symlink). */
  size?: number;
  mode?: number;
  /** Seconds since the epoch (default 0). */
  mtime?: number;
  linkpath?: string;
  /** A pax 'x' header before this entry. */
  pax?: Record<string, string>;
  /** Magic + version bytes (default POSIX "ustar\0" "00"). */
  magic?: string;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

export function tarHeader(spec: {
  name: string;
  type: string;
  size: number;
  mode: number;
  mtime?: number;
  linkpath?: string;
  magic?: string;
}): Buffer {
  const block = Buffer.alloc(512);
  block.write(spec.name, 0, 100, "utf8");
  block.write(octal(spec.mode, 8), 100, "latin1");
  block.write(octal(0, 8), 108, "latin1");
  block.write(octal(0, 8), 116, "latin1");
  block.write(octal(spec.size, 12), 124, "latin1");
  block.write(octal(spec.mtime ?? 0, 12), 136, "latin1");
  block.write("        ", 148, "latin1");
  block.write(spec.type, 156, "latin1");
  if (spec.linkpath) block.write(spec.linkpath, 157, 100, "utf8");
  block.write(spec.magic ?? "ustar\u000000", 257, "latin1");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

function pad(data: Buffer): Buffer {
  const rest = data.length % 512;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(512 - rest)]);
}

function paxRecords(records: Record<string, string>): Buffer {
  const parts = Object.entries(records).map(([key, value]) => {
    const body = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) length++;
    return Buffer.from(`${length}${body}`);
  });
  return Buffer.concat(parts);
}

export function makeTar(
  entries: TarSpec[],
  options: { global?: Record<string, string>; trailer?: Buffer } = {},
): Buffer {
  const blocks: Buffer[] = [];
  if (options.global) {
    const data = paxRecords(options.global);
    blocks.push(
      tarHeader({ name: "pax_global_header", type: "g", size: data.length, mode: 0o666 }),
      pad(data),
    );
  }
  for (const entry of entries) {
    if (entry.pax) {
      const data = paxRecords(entry.pax);
      blocks.push(tarHeader({ name: "PaxHeader", type: "x", size: data.length, mode: 0o644 }), pad(data));
    }
    const type = entry.type ?? "0";
    const content = Buffer.from(entry.content ?? "");
    const size = entry.size ?? (type === "0" ? content.length : 0);
    blocks.push(
      tarHeader({
        name: entry.name,
        type,
        size,
        mode: entry.mode ?? (type === "5" ? 0o755 : type === "2" ? 0o777 : 0o644),
        ...(entry.mtime !== undefined ? { mtime: entry.mtime } : {}),
        ...(entry.linkpath !== undefined ? { linkpath: entry.linkpath } : {}),
        ...(entry.magic !== undefined ? { magic: entry.magic } : {}),
      }),
    );
    if (size > 0)
      blocks.push(
        pad(
          content.length >= size
            ? content.subarray(0, size)
            : Buffer.concat([content, Buffer.alloc(size - content.length)]),
        ),
      );
  }
  blocks.push(Buffer.alloc(1024));
  if (options.trailer) blocks.push(options.trailer);
  return Buffer.concat(blocks);
}
