// Who this process really is: root of the machine, or root of a user namespace that an unprivileged
// user made (uid 0 inside, their uid outside). The two look alike to getuid() and must be told apart:
// only the first may switch to other users.
import { readFileSync } from "node:fs";

export interface Identity {
  uid: number;
  gid: number;
}

/** The single mapping of a uid_map or gid_map file: `<inside> <outside> <count>`. */
function readMapping(file: string): { inside: number; outside: number; count: number } | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.trim().split("\n");
  const fields = (lines[0] ?? "").trim().split(/\s+/).map(Number);
  if (lines.length !== 1 || fields.length !== 3 || fields.some((n) => !Number.isInteger(n))) return undefined;
  const [inside, outside, count] = fields as [number, number, number];
  return { inside, outside, count };
}

/** Root of the machine: uid 0 in a namespace that maps every uid to itself. */
export function isHostRoot(): boolean {
  if (process.getuid?.() !== 0) return false;
  const map = readMapping("/proc/self/uid_map");
  return map === undefined || (map.inside === 0 && map.outside === 0 && map.count === 4294967295);
}

/**
 * The user who made the user namespace this process is root of (`unshare --map-root-user`), or
 * undefined when this process is not such a root.
 */
export function namespaceOwner(): Identity | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = readMapping("/proc/self/uid_map");
  const gid = readMapping("/proc/self/gid_map");
  if (!uid || !gid || uid.count !== 1 || gid.count !== 1 || uid.inside !== 0 || gid.inside !== 0)
    return undefined;
  return { uid: uid.outside, gid: gid.outside };
}
