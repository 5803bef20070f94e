// The worker's own bounds on one request (design §8): what the reviewer may write, how many files and
// processes it may make, and how long the whole request may take. One value, built from the worker's
// flags, that the workspace, the sandbox and the flow apply; a request can ask for less time, never more.

import { UsageError } from "../errors.js";
import type { ResourceLimits } from "./sandbox.js";
import type { BundleListing } from "./verify-bundle.js";

export interface WorkerLimits {
  /** Bytes the reviewer may add to the workspace beyond the unpacked tree and its baseline. */
  treeBytes: number;
  /** Files and directories the reviewer may add there; also the inode cap of its /tmp. */
  files: number;
  /** Bytes of the reviewer's /tmp (its /dev/shm is a small tmpfs of its own). */
  tmpBytes: number;
  /** Processes alive at once in one review's sandbox. */
  processes: number;
  /** The longest one request may take, whatever its limits.timeoutSeconds asks. */
  seconds: number;
}

export const DEFAULT_WORKER_LIMITS: Readonly<WorkerLimits> = Object.freeze({
  treeBytes: 1024 ** 3,
  files: 100_000,
  tmpBytes: 256 * 1024 ** 2,
  processes: 256,
  seconds: 3600,
});

/** Each limit's flag; sizes take git's k, m and g suffixes (1024-based). */
const LIMIT_FLAGS = {
  treeBytes: { flag: "max-tree-bytes", size: true },
  files: { flag: "max-files", size: false },
  tmpBytes: { flag: "max-tmp-bytes", size: true },
  processes: { flag: "max-processes", size: false },
  seconds: { flag: "max-seconds", size: false },
} as const satisfies Record<keyof WorkerLimits, { flag: string; size: boolean }>;

export type LimitFlagValues = Partial<Record<keyof WorkerLimits, string | undefined>>;

const SUFFIX_POWER: Record<string, number> = { "": 0, k: 1, m: 2, g: 3 };

/** `512`, `64k`, `1g` -> a positive safe integer, or undefined. */
function parseCount(text: string, size: boolean): number | undefined {
  const match = (size ? /^(\d+)([kmg]?)$/i : /^(\d+)()$/).exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * 1024 ** (SUFFIX_POWER[(match[2] as string).toLowerCase()] ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The limits the flags give, each missing one at its default; a UsageError names a bad value. */
export function workerLimitsFrom(values: LimitFlagValues): WorkerLimits {
  const limits: WorkerLimits = { ...DEFAULT_WORKER_LIMITS };
  for (const key of Object.keys(LIMIT_FLAGS) as (keyof WorkerLimits)[]) {
    const text = values[key];
    if (text === undefined) continue;
    const { flag, size } = LIMIT_FLAGS[key];
    const value = parseCount(text, size);
    if (value === undefined) {
      const expected = size ? "a positive number of bytes, with an optional k, m or g" : "a positive integer";
      throw new UsageError(`--${flag} must be ${expected}, not '${text}'`);
    }
    limits[key] = value;
  }
  return limits;
}

const MIN_FILE_SIZE_CAP = 64 * 1024 * 1024;
const MAX_FILE_SIZE_CAP = 1024 * 1024 * 1024;

/**
 * The rlimits of one reviewer: the limits' processes, and a per-file write cap with room to rewrite
 * the largest file twice over, never less than 64 MiB nor more than 1 GiB.
 */
export function resourceLimitsFor(listing: BundleListing, limits: WorkerLimits): ResourceLimits {
  let largest = 0;
  for (let index = 0; index < listing.nodes.size; index++)
    largest = Math.max(largest, listing.nodes.sizeAt(index));
  return {
    fileSizeBytes: Math.min(MAX_FILE_SIZE_CAP, Math.max(MIN_FILE_SIZE_CAP, 2 * largest)),
    openFiles: 1024,
    processes: limits.processes,
    tmpBytes: limits.tmpBytes,
  };
}

/** `1073741824` -> `1 GiB` for messages (exact multiples only; otherwise bytes). */
export function formatBytes(bytes: number): string {
  for (const [unit, power] of [
    ["GiB", 3],
    ["MiB", 2],
    ["KiB", 1],
  ] as const) {
    if (bytes % 1024 ** power === 0) return `${bytes / 1024 ** power} ${unit}`;
  }
  return `${bytes} bytes`;
}
