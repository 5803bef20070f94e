// A gzip file (every member, as gunzip reads concatenated members) expanded within the budget.
import { gunzipSync } from "node:zlib";
import { type ExpansionBudget, UninspectableError } from "./limits.js";

const FNAME = 0x08;
const FEXTRA = 0x04;

/** The expanded bytes of `data`; throws UninspectableError past the allowance or on a broken stream. */
export function gunzipWithin(data: Buffer, budget: ExpansionBudget): Buffer {
  const allowance = budget.allowance(data.length);
  let expanded: Buffer;
  try {
    expanded = gunzipSync(data, { maxOutputLength: Math.max(1, allowance) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw budget.refusal(data.length);
    throw new UninspectableError(`not a readable gzip stream (${(error as Error).message})`);
  }
  budget.take(expanded.length);
  return expanded;
}

/** The name stored in the gzip header (FNAME), or `path`'s base name without .gz (.tgz → .tar). */
export function gzipMemberName(data: Buffer, path: string): string {
  const flags = data[3] ?? 0;
  if (flags & FNAME) {
    let at = 10;
    if (flags & FEXTRA) at += 2 + data.readUInt16LE(at);
    const end = data.indexOf(0, at);
    if (end > at) return data.toString("latin1", at, end);
  }
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base.replace(/\.t?gz$/i, (suffix) => (suffix.toLowerCase() === ".tgz" ? ".tar" : "")) || base;
}
