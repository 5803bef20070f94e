// The workspace as a tmpfs of its own (design §8), mounted by the worker inside the mount namespace it
// runs in (confine.ts): first sized for what the bundle caps allow while it is unpacked, then for what
// the baseline uses plus what the reviewer may add (--max-tree-bytes, --max-files). The reviewer's
// /tmp (--max-tmp-bytes) and /dev/shm (64 MiB) are two more tmpfs inside it. Nothing needs removing:
// the mounts go with the namespace.

import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { formatBytes, type WorkerLimits } from "./limits.js";
import { workerMessages } from "./messages.js";
import { SHM_ROOM } from "./sandbox.js";
import { DEFAULT_BUNDLE_LIMITS } from "./verify-bundle.js";
import { type Workspace, workspaceAt } from "./workspace.js";

const run = promisify(execFile);

/** Bytes and inodes a tmpfs may grow by. */
export interface Room {
  bytes: number;
  files: number;
}

const PAGE = 4096;

/** The largest bundle the worker accepts: a gzip stream is never much larger than the tar in it. */
export const MAX_BUNDLE_BYTES =
  DEFAULT_BUNDLE_LIMITS.maxExpandedBytes + DEFAULT_BUNDLE_LIMITS.maxExpandedBytes / 512;

/**
 * Room for the bundle, its unpacked tree (each file rounded up to a page) and the baseline's objects
 * (every blob again, for a reviewer command), trees and index: the bundle caps bound all of it before
 * a reviewer runs.
 */
const UNPACK_ROOM: Room = {
  bytes:
    MAX_BUNDLE_BYTES +
    2 * (DEFAULT_BUNDLE_LIMITS.maxExpandedBytes + DEFAULT_BUNDLE_LIMITS.maxEntries * PAGE) +
    64 * 1024 * 1024,
  files: 3 * DEFAULT_BUNDLE_LIMITS.maxEntries + 1024,
};

/** Bytes and inodes in use on the tmpfs at `dir`, and how much is left. */
function readUsage(dir: string): { used: Room; free: Room } {
  const stat = statfsSync(dir);
  return {
    used: { bytes: (stat.blocks - stat.bfree) * stat.bsize, files: stat.files - stat.ffree },
    free: { bytes: stat.bavail * stat.bsize, files: stat.ffree },
  };
}

async function mountTmpfs(dir: string, room: Room, remount: boolean): Promise<void> {
  const options = `size=${room.bytes},nr_inodes=${room.files}`;
  // --options-source=disable: mount(8) must not re-read the current options (in a user namespace it
  // would pass back uid= and gid= values the kernel then refuses).
  const args = remount
    ? ["--options-source=disable", "-o", `remount,${options}`, dir]
    : ["-t", "tmpfs", "-o", `${options},mode=0711`, "review-remote", dir];
  try {
    await run("mount", args, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" } });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split("\n")[0];
    throw new Error(`cannot mount the workspace tmpfs on ${dir}: ${stderr || (error as Error).message}`);
  }
}

/**
 * Mounts the workspace tmpfs on `root`, and in it the reviewer's /tmp on `root/scratch/tmp` and its
 * /dev/shm on `root/scratch/shm`, each a tmpfs of its own; both world-writable with the sticky bit, as
 * /tmp is, so that a sandbox user can write there.
 */
export async function createMountedWorkspace(root: string, limits: WorkerLimits): Promise<Workspace> {
  await mountTmpfs(root, UNPACK_ROOM, false);
  const scratch = join(root, "scratch");
  const rooms: [string, Room][] = [
    ["tmp", { bytes: limits.tmpBytes, files: limits.files }],
    ["shm", SHM_ROOM],
  ];
  mkdirSync(scratch, { mode: 0o711 });
  for (const [name, room] of rooms) {
    const dir = join(scratch, name);
    mkdirSync(dir);
    await mountTmpfs(dir, room, false);
    chmodSync(dir, 0o1777);
  }
  // Nothing to remove: the mounts, and all in them, go with the worker's mount namespace (measured:
  // the kernel drops a tmpfs of 20k files in about 0.1 s as the namespace ends).
  const removal = { remove: () => undefined, removeInBackground: () => Promise.resolve() };
  return { ...workspaceAt(root, removal), scratch };
}

/**
 * Shrinks (or grows) a workspace that is a tmpfs of its own (it has a scratch dir) to what it holds
 * now plus `room`. An ordinary temp directory has no size to set.
 */
export async function limitWorkspace(workspace: Workspace, room: Room): Promise<void> {
  if (!workspace.scratch) return;
  const { used } = readUsage(workspace.root);
  const size = { bytes: used.bytes + room.bytes, files: used.files + room.files };
  await mountTmpfs(workspace.root, size, true);
}

/**
 * Why a workspace tmpfs counts as full (a reviewer that wrote until ENOSPC), or undefined. Less than
 * a MiB or 64 inodes left is full: no legitimate reviewer stops that close to its limit.
 */
export function fullReason(workspace: Workspace, limits: WorkerLimits): string | undefined {
  if (!workspace.scratch) return undefined;
  const { free } = readUsage(workspace.root);
  if (free.files < 64) return workerMessages.filesLimitReached(limits.files);
  if (free.bytes < 1024 * 1024) return workerMessages.bytesLimitReached(formatBytes(limits.treeBytes));
  return undefined;
}
