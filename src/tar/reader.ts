// A strict streaming tar reader: ustar, pax ('x' and 'g') and GNU long names, nothing buffered but
// headers. Used on the export side (our own `git archive` output and archives in the user's tree)
// and the worker side (hostile input). GNU sparse files are refused: a reader that does not expand
// the sparse map sees other bytes than one that does, so what was scanned would not be what lands.

export const TarType = {
  file: "file",
  directory: "directory",
  symlink: "symlink",
  hardlink: "hardlink",
  characterDevice: "character-device",
  blockDevice: "block-device",
  fifo: "fifo",
  other: "other",
} as const;
export type TarType = (typeof TarType)[keyof typeof TarType];

export interface TarEntry {
  path: string;
  linkpath: string;
  type: TarType;
  /** The raw typeflag character, for messages. */
  typeflag: string;
  mode: number;
  size: number;
  /**
   * The header's own size field: `size` but where a pax `size` record overrides it (git archive writes
   * one only for a file of 8 GiB or more, with 0 here), so a reader that ignores pax sees this instead.
   */
  headerSize: number;
  /** Modification time in whole seconds (pax `mtime` first); -1 when the field cannot be read. */
  mtime: number;
  /** Index of the entry in the archive, from 0. */
  index: number;
}

export interface TarHandlers {
  /** Called for each entry; return a consumer to receive its content, or nothing to skip it. */
  entry(entry: TarEntry): ((chunk: Buffer) => void) | undefined;
  /** A pax global header ('g'): its records. */
  globalHeader?(records: Map<string, string>): void;
  /** Called when an entry's content is complete. */
  entryEnd?(entry: TarEntry): void;
}

export class TarFormatError extends Error {}

const BLOCK = 512;
const MAX_META_BYTES = 1024 * 1024;

const TYPES: Record<string, TarType> = {
  "0": TarType.file,
  "\0": TarType.file,
  "7": TarType.file,
  "1": TarType.hardlink,
  "2": TarType.symlink,
  "3": TarType.characterDevice,
  "4": TarType.blockDevice,
  "5": TarType.directory,
  "6": TarType.fifo,
};

/** Where a NUL-terminated field ends: its first NUL, or its last byte. */
function fieldEnd(block: Buffer, offset: number, length: number): number {
  const limit = offset + length;
  let end = offset;
  while (end < limit && block[end] !== 0) end++;
  return end;
}

function readString(block: Buffer, offset: number, length: number): string {
  return block.toString("utf8", offset, fieldEnd(block, offset, length));
}

/** Octal, or base-256 when the high bit of the first byte is set (negative values refused). */
function readNumber(block: Buffer, offset: number, length: number, name: string): number {
  const first = block[offset] ?? 0;
  if (first & 0x80) {
    if (first & 0x40) throw new TarFormatError(`negative ${name} in a tar header`);
    let value = first & 0x3f;
    for (let i = offset + 1; i < offset + length; i++) value = value * 256 + (block[i] as number);
    if (!Number.isSafeInteger(value)) throw new TarFormatError(`${name} too large in a tar header`);
    return value;
  }
  return readOctal(block, offset, length) ?? readOctalText(block, offset, length, name);
}

/**
 * The common field: octal digits between ASCII spaces, up to a NUL or the field's end. Anything else
 * (undefined) goes through readOctalText, which reads the field as text.
 */
function readOctal(block: Buffer, offset: number, length: number): number | undefined {
  const limit = offset + length;
  let at = offset;
  while (at < limit && block[at] === 0x20) at++;
  let value = 0;
  let digits = 0;
  for (; at < limit; at++, digits++) {
    const byte = block[at] as number;
    if (byte < 0x30 || byte > 0x37) break;
    value = value * 8 + (byte - 0x30);
  }
  while (at < limit && block[at] === 0x20) at++;
  if (at < limit && block[at] !== 0) return undefined;
  // Up to 17 octal digits are exact in a double, which is all a 12-byte field holds.
  return digits > 0 && digits <= 17 ? value : undefined;
}

function readOctalText(block: Buffer, offset: number, length: number, name: string): number {
  const text = readString(block, offset, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text))
    throw new TarFormatError(`bad ${name} field in a tar header: ${JSON.stringify(text)}`);
  return Number.parseInt(text, 8);
}

/**
 * The entry's mtime in whole seconds, or -1: never a reason to refuse an archive (extractors differ
 * on odd values anyway), only a hint of what the file's mtime will be once extracted.
 */
function readMtime(block: Buffer, pax: string | undefined): number {
  if (pax !== undefined) return /^\d+(\.\d*)?$/.test(pax) ? Math.floor(Number(pax)) : -1;
  try {
    return readNumber(block, 136, 12, "mtime");
  } catch {
    return -1;
  }
}

function verifyChecksum(block: Buffer): void {
  const stored = readNumber(block, 148, 8, "checksum");
  // Every byte of the block in four independent sums (a third less time than one running sum, for
  // every header of every archive), less the checksum field, which counts as eight spaces.
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < BLOCK; i += 4) {
    a += block[i] as number;
    b += block[i + 1] as number;
    c += block[i + 2] as number;
    d += block[i + 3] as number;
  }
  let field = 0;
  for (let i = 148; i < 156; i++) field += block[i] as number;
  if (a + b + c + d - field + 8 * 0x20 !== stored) throw new TarFormatError("tar header checksum mismatch");
}

/** Pax records: "<length> <key>=<value>\n", length counting the whole record. */
function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    if (data[offset] === 0) break;
    const space = data.indexOf(0x20, offset);
    if (space === -1) throw new TarFormatError("malformed pax header");
    const length = Number(data.subarray(offset, space).toString("latin1"));
    if (!Number.isInteger(length) || length <= space - offset || offset + length > data.length) {
      throw new TarFormatError("malformed pax record length");
    }
    const record = data.subarray(space + 1, offset + length - 1);
    if (data[offset + length - 1] !== 0x0a) throw new TarFormatError("malformed pax record");
    const equals = record.indexOf(0x3d);
    if (equals === -1) throw new TarFormatError("malformed pax record");
    const key = record.subarray(0, equals).toString("utf8");
    const value = record.subarray(equals + 1);
    if ((key === "path" || key === "linkpath") && value.includes(0)) {
      throw new TarFormatError(`NUL byte in pax ${key}`);
    }
    records.set(key, value.toString("utf8"));
    offset += length;
  }
  return records;
}

/** GNU's old sparse entry type; pax sparse files carry `GNU.sparse.*` records instead. */
const SPARSE = "S";

function refuseSparse(records: Map<string, string>): Map<string, string> {
  for (const key of records.keys()) {
    if (key.startsWith("GNU.sparse.")) throw new TarFormatError(`GNU sparse tar entry (pax ${key}) refused`);
  }
  return records;
}

type Meta = { kind: "pax" | "global" | "longname" | "longlink"; chunks: Buffer[]; size: number };

export class TarReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private remaining = 0;
  private padding = 0;
  private consumer: ((chunk: Buffer) => void) | undefined;
  private current: TarEntry | undefined;
  private meta: Meta | undefined;
  private pax = new Map<string, string>();
  /** A pax header was read for the next entry (even one without records). */
  private paxRead = false;
  private longName: string | undefined;
  private longLink: string | undefined;
  private zeroBlocks = 0;
  private count = 0;
  /** Bytes seen after the two end-of-archive blocks that were not zero. */
  trailingNonZero = 0;
  ended = false;

  constructor(private readonly handlers: TarHandlers) {}

  get entries(): number {
    return this.count;
  }

  write(chunk: Buffer): void {
    // Walk the chunk by offset: slicing it per step would allocate a Buffer view per header and body.
    let at = 0;
    const length = chunk.length;
    while (at < length) {
      if (this.ended) {
        for (let i = at; i < length; i++) if (chunk[i] !== 0) this.trailingNonZero++;
        return;
      }
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, length - at);
        this.body(chunk.subarray(at, at + take));
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.finishBody();
        continue;
      }
      if (this.padding > 0) {
        const take = Math.min(this.padding, length - at);
        this.padding -= take;
        at += take;
        continue;
      }
      if (this.pendingBytes === 0 && length - at >= BLOCK) {
        // The common case: the whole header is inside this chunk.
        this.header(chunk.subarray(at, at + BLOCK));
        at += BLOCK;
        continue;
      }
      const take = Math.min(BLOCK - this.pendingBytes, length - at);
      this.pending.push(chunk.subarray(at, at + take));
      this.pendingBytes += take;
      at += take;
      if (this.pendingBytes === BLOCK) {
        const block = Buffer.concat(this.pending, BLOCK);
        this.pending = [];
        this.pendingBytes = 0;
        this.header(block);
      }
    }
  }

  /** Check that the archive was complete. */
  end(): void {
    if (this.remaining > 0 || this.padding > 0 || this.pendingBytes > 0 || this.meta) {
      throw new TarFormatError("truncated tar archive");
    }
    if (!this.ended && this.count > 0) throw new TarFormatError("tar archive has no end-of-archive marker");
  }

  private body(chunk: Buffer): void {
    if (this.meta) {
      this.meta.chunks.push(Buffer.from(chunk));
      return;
    }
    this.consumer?.(chunk);
  }

  private finishBody(): void {
    if (this.meta) {
      this.finishMeta(this.meta);
      this.meta = undefined;
    } else if (this.current) {
      this.handlers.entryEnd?.(this.current);
      this.current = undefined;
      this.consumer = undefined;
    }
  }

  private finishMeta(meta: Meta): void {
    const data = Buffer.concat(meta.chunks, meta.size);
    if (meta.kind === "pax") {
      // Readers disagree on a second one: GNU tar and this reader replace the first, Python's
      // tarfile merges them and lets the first's path win.
      if (this.paxRead) throw new TarFormatError("two pax headers for one tar entry");
      this.paxRead = true;
      this.pax = refuseSparse(parsePax(data));
    } else if (meta.kind === "global") {
      this.handlers.globalHeader?.(refuseSparse(parsePax(data)));
    } else {
      const nul = data.indexOf(0);
      const name = (nul === -1 ? data : data.subarray(0, nul)).toString("utf8");
      if (nul !== -1 && data.subarray(nul).some((b) => b !== 0)) {
        throw new TarFormatError("NUL byte inside a GNU long name");
      }
      if ((meta.kind === "longname" ? this.longName : this.longLink) !== undefined)
        throw new TarFormatError(
          `two GNU long ${meta.kind === "longname" ? "names" : "link names"} for one tar entry`,
        );
      if (meta.kind === "longname") this.longName = name;
      else this.longLink = name;
    }
  }

  private header(block: Buffer): void {
    if (block.every((b) => b === 0)) {
      this.zeroBlocks++;
      if (this.zeroBlocks === 2) this.ended = true;
      return;
    }
    if (this.zeroBlocks > 0) throw new TarFormatError("data after an empty tar block");
    verifyChecksum(block);
    const typeflag = String.fromCharCode(block[156] as number);
    const size = readNumber(block, 124, 12, "size");
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    const metaKind = { x: "pax", g: "global", L: "longname", K: "longlink" }[typeflag] as
      | Meta["kind"]
      | undefined;
    if (metaKind) {
      if (size > MAX_META_BYTES) throw new TarFormatError(`tar ${metaKind} header too large (${size} bytes)`);
      this.meta = { kind: metaKind, chunks: [], size };
      this.remaining = size;
      if (size === 0) this.finishBody();
      return;
    }
    this.entryHeader(block, typeflag, size);
  }

  private entryHeader(block: Buffer, typeflag: string, headerSize: number): void {
    if (typeflag === SPARSE) throw new TarFormatError("GNU sparse tar entry (type S) refused");
    // POSIX "ustar\0" at 257: the name has a prefix field. GNU's "ustar  " keeps atime and ctime
    // there instead (GNU tar -G writes them), and GNU tar reads no prefix from it.
    const ustar =
      block[257] === 0x75 &&
      block[258] === 0x73 &&
      block[259] === 0x74 &&
      block[260] === 0x61 &&
      block[261] === 0x72 &&
      block[262] === 0;
    const prefix = ustar ? readString(block, 345, 155) : "";
    const nameEnd = fieldEnd(block, 0, 100);
    const name = block.toString("utf8", 0, nameEnd);
    // Bytes after the name's NUL must all be NUL: a reader that stops at the NUL and one that does not
    // would see two different names.
    for (let i = nameEnd; i < 100; i++) {
      if (block[i] !== 0)
        throw new TarFormatError(`NUL byte inside the name of tar entry ${JSON.stringify(name)}`);
    }
    // Both overrides of one name: GNU tar takes the pax record, Python's tarfile the GNU long name.
    if (this.longName !== undefined && this.pax.has("path"))
      throw new TarFormatError("a tar entry named by both a GNU long name and a pax path");
    if (this.longLink !== undefined && this.pax.has("linkpath"))
      throw new TarFormatError("a tar entry linked by both a GNU long link and a pax linkpath");
    const path = this.pax.get("path") ?? this.longName ?? (prefix ? `${prefix}/${name}` : name);
    const linkpath = this.pax.get("linkpath") ?? this.longLink ?? readString(block, 157, 100);
    const paxSize = this.pax.get("size");
    let size = headerSize;
    if (paxSize !== undefined) {
      if (!/^\d+$/.test(paxSize)) throw new TarFormatError("bad pax size");
      size = Number(paxSize);
      this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    }
    const type = TYPES[typeflag] ?? TarType.other;
    const entry: TarEntry = {
      path,
      linkpath,
      type,
      typeflag,
      mode: readNumber(block, 100, 8, "mode"),
      mtime: readMtime(block, this.pax.get("mtime")),
      // Only regular files carry content; a size on a link or directory is skipped as data.
      size,
      headerSize,
      index: this.count++,
    };
    if (this.pax.size > 0) this.pax = new Map();
    this.paxRead = false;
    this.longName = undefined;
    this.longLink = undefined;
    this.current = entry;
    this.consumer = this.handlers.entry(entry);
    this.remaining = size;
    if (size === 0) this.finishBody();
  }
}
