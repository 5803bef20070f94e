// The workspace as a tmpfs of its own (design §8), mounted inside the worker's mount namespace by the
// namespace's first process before the worker starts (confine.ts): first sized for what the bundle
// caps allow while it is unpacked, then by the worker for what the baseline uses plus what the
// reviewer may add (--max-tree-bytes, --max-files). The reviewer's
// /tmp (--max-tmp-bytes) and /dev/shm (64 MiB) are two more tmpfs inside it. Nothing needs removing:
// the mounts go with the namespace.

import { execFile } from "node:child_process";
import { statfsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { shellQuote } from "../os/shell.js";
import { DEFAULT_BUNDLE_LIMITS } from "./bundle-limits.js";
import { formatBytes, type WorkerLimits } from "./limits.js";
import { workerMessages } from "./messages.js";
import { SHM_ROOM } from "./sandbox.js";
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

function tmpfsOptions(room: Room): string {
  return `size=${room.bytes},nr_inodes=${room.files}`;
}

async function remountTmpfs(dir: string, room: Room): Promise<void> {
  // --options-source=disable: mount(8) must not re-read the current options (in a user namespace it
  // would pass back uid= and gid= values the kernel then refuses).
  const args = ["--options-source=disable", "-o", `remount,${tmpfsOptions(room)}`, dir];
  try {
    await run("mount", args, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" } });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split("\n")[0];
    throw new Error(`cannot mount the workspace tmpfs on ${dir}: ${stderr || (error as Error).message}`);
  }
}

/**
 * The shell commands that mount the workspace tmpfs on `root`, and in it, for reviewer commands, the
 * reviewer's /tmp on `root/scratch/tmp` and its /dev/shm on `root/scratch/shm`, each a tmpfs of its
 * own; both world-writable with the sticky bit (`mode=1777`), as /tmp is, so that a sandbox user can
 * write there. The built-in reviewer runs no process: its worker mounts the workspace alone (two
 * programs run instead of four, on the local review's critical path). The namespace's first process
 * runs them before the worker starts (confine.ts): one shell, and their success is the proof that the
 * namespaces and a tmpfs work here.
 */
export function mountWorkspaceScript(
  root: string,
  limits: WorkerLimits,
  { reviewerScratch }: { reviewerScratch: boolean },
): string {
  const scratch = join(root, "scratch");
  const tmp = join(scratch, "tmp");
  const shm = join(scratch, "shm");
  const mount = (dir: string, options: string) =>
    `mount -t tmpfs -o ${shellQuote(options)} review-remote ${shellQuote(dir)}`;
  const workspace = mount(root, `${tmpfsOptions(UNPACK_ROOM)},mode=0711`);
  if (!reviewerScratch) return [workspace, `mkdir -m 0711 ${shellQuote(scratch)}`].join(" && ");
  return [
    workspace,
    // tmp and shm are mount points: the tmpfs mounted on each brings its own mode.
    `mkdir -m 0711 ${shellQuote(scratch)} ${shellQuote(tmp)} ${shellQuote(shm)}`,
    mount(tmp, `${tmpfsOptions({ bytes: limits.tmpBytes, files: limits.files })},mode=1777`),
    mount(shm, `${tmpfsOptions(SHM_ROOM)},mode=1777`),
  ].join(" && ");
}

/** The workspace on the tmpfs that mountWorkspaceScript mounted on `root`. */
export function mountedWorkspace(root: string): Workspace {
  // Nothing to remove: the mounts, and all in them, go with the worker's mount namespace (measured:
  // the kernel drops a tmpfs of 20k files in about 0.1 s as the namespace ends).
  const removal = { remove: () => undefined, removeInBackground: () => Promise.resolve() };
  return { ...workspaceAt(root, removal), scratch: join(root, "scratch") };
}

/**
 * Shrinks (or grows) a workspace that is a tmpfs of its own (it has a scratch dir) to what it holds
 * now plus `room`. An ordinary temp directory has no size to set.
 */
export async function limitWorkspace(workspace: Workspace, room: Room): Promise<void> {
  if (!workspace.scratch) return;
  const { used } = readUsage(workspace.root);
  const size = { bytes: used.bytes + room.bytes, files: used.files + room.files };
  await remountTmpfs(workspace.root, size);
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
