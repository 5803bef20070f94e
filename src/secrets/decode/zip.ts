// The entries of a zip (jar, docx, whl…) read through its central directory, bounded: entry count,
// expansion, compression methods node can inflate. Anything else is an UninspectableError.
import { inflateRawSync } from "node:zlib";
import { type ExpansionBudget, UninspectableError } from "./limits.js";

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x0001;
const UTF8_NAME = 0x0800;
const ZIP64 = 0xffffffff;

export interface ZipEntry {
  name: string;
  data: Buffer;
}

interface DirectoryEntry {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  size: number;
  localHeader: number;
}

/** The end-of-central-directory record: the last one within a comment's reach of the end. */
function findDirectory(data: Buffer): { offset: number; count: number } {
  const earliest = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= earliest; at--) {
    if (data.readUInt32LE(at) !== END_OF_DIRECTORY) continue;
    const count = data.readUInt16LE(at + 10);
    const offset = data.readUInt32LE(at + 16);
    if (count === 0xffff || offset === ZIP64) throw new UninspectableError("ZIP64 archive");
    if (data.readUInt16LE(at + 4) !== 0) throw new UninspectableError("multi-volume zip");
    return { offset, count };
  }
  throw new UninspectableError("no zip central directory");
}

function readDirectory(data: Buffer, maxEntries: number): DirectoryEntry[] {
  const { offset, count } = findDirectory(data);
  if (count > maxEntries) throw new UninspectableError(`more than ${maxEntries} entries`);
  const entries: DirectoryEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new UninspectableError("broken zip central directory");
    }
    const flags = data.readUInt16LE(at + 8);
    const nameLength = data.readUInt16LE(at + 28);
    const name = data.toString(flags & UTF8_NAME ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    entries.push({
      name,
      flags,
      method: data.readUInt16LE(at + 10),
      compressed: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      localHeader: data.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return entries;
}

function entryData(data: Buffer, entry: DirectoryEntry, budget: ExpansionBudget): Buffer {
  if (entry.flags & ENCRYPTED) throw new UninspectableError(`encrypted entry ${entry.name}`);
  if (entry.compressed === ZIP64 || entry.size === ZIP64) throw new UninspectableError("ZIP64 archive");
  const local = entry.localHeader;
  if (local + 30 > data.length || data.readUInt32LE(local) !== LOCAL_HEADER) {
    throw new UninspectableError(`broken zip entry ${entry.name}`);
  }
  const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
  const raw = data.subarray(start, start + entry.compressed);
  if (raw.length !== entry.compressed) throw new UninspectableError(`truncated zip entry ${entry.name}`);
  if (entry.size > budget.allowance(entry.compressed)) throw budget.refusal(entry.compressed);
  const expanded = expand(raw, entry, budget);
  if (expanded.length !== entry.size)
    throw new UninspectableError(`zip entry ${entry.name} has the wrong size`);
  budget.take(expanded.length);
  return expanded;
}

function expand(raw: Buffer, entry: DirectoryEntry, budget: ExpansionBudget): Buffer {
  if (entry.method === STORED) return raw;
  if (entry.method !== DEFLATED)
    throw new UninspectableError(`compression method ${entry.method} (${entry.name})`);
  try {
    return inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw budget.refusal(entry.compressed);
    throw new UninspectableError(`zip entry ${entry.name} does not inflate`);
  }
}

/** Each file entry of the zip in `data`, expanded, in directory order (directories are skipped). */
export function* readZipEntries(data: Buffer, budget: ExpansionBudget): Generator<ZipEntry> {
  for (const entry of readDirectory(data, budget.limits.maxEntries)) {
    if (entry.name.endsWith("/") && entry.size === 0) continue;
    yield { name: entry.name, data: entryData(data, entry, budget) };
  }
}
