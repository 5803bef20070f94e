// The worker's private scratch space: one directory per run, on tmpfs when possible (unpacking many small
// files is system-call bound), named with our pid so that a later run can remove what a killed one left.

import { spawn, spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRunningAs, readStart } from "../os/process.js";

export const WORKSPACE_PREFIX = "git-review-remote-worker-";

/** Environment override for where workspaces go (tests; hosts with a dedicated scratch disk). */
export const WORKSPACE_ROOT_ENV = "REVIEW_REMOTE_WORKER_TMPDIR";

export interface Workspace {
  root: string;
  /** The request's bundle, as received (0600). */
  bundle: string;
  /** Where the bundle is unpacked; the reviewer's cwd. */
  tree: string;
  /** Files the reviewer reads or writes outside the tree (request, comments). */
  io: string;
  /** A private git dir and config used to read the reviewer's work without trusting its .git. */
  git: string;
  /** HOME and TMPDIR for programs run without a sandbox. */
  home: string;
  /**
   * On a workspace that is a tmpfs of its own: the reviewer's scratch tmpfs, whose `tmp/` and `shm/`
   * become its /tmp and /dev/shm.
   */
  scratch?: string;
  remove(): void;
  /** Removal by a detached process (`removeInBackground`); resolves when it is over. */
  removeInBackground(): Promise<void>;
}

function isWritableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * rm -rf that also copes with what a reviewer may leave: directories without write or search
 * permission (a non-root worker cannot delete inside them until it gives the permissions back).
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    spawnSync("chmod", ["-R", "u+rwX", "--", path], { stdio: "ignore" });
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
  }
}

/**
 * Renames the workspace under the remover's own pid (a worker starting meanwhile sees a live owner and
 * leaves it alone), then removes it like removeTree. `$1` is the workspace, `$2` the name prefix.
 */
const REMOVER_SCRIPT = `gone="\${1%/*}/$2$$-removed"
mv -- "$1" "$gone" 2>/dev/null || exit 0
rm -rf -- "$gone" 2>/dev/null || { chmod -R u+rwX -- "$gone"; rm -rf -- "$gone"; }`;

/**
 * Removes `root` in a detached process that outlives this one, so that the answer is not held back
 * by the unlinking of every file of the tree (about a second for 20k files on tmpfs): the worker
 * exits as soon as its result is out. Resolves when the removal is over, for callers that wait.
 */
function removeInBackground(root: string): Promise<void> {
  return new Promise((resolve) => {
    const remover = spawn("sh", ["-c", REMOVER_SCRIPT, "sh", root, WORKSPACE_PREFIX], {
      detached: true,
      stdio: "ignore",
    });
    remover.on("error", () => {
      // No shell to spare: remove it here and now.
      try {
        removeTree(root);
      } catch {}
      resolve();
    });
    remover.on("exit", () => resolve());
    remover.unref();
  });
}

/** The directories workspaces are created in, best first. */
function workspaceParents(): string[] {
  const override = process.env[WORKSPACE_ROOT_ENV];
  if (override) return [override];
  return isWritableDir("/dev/shm") ? ["/dev/shm", tmpdir()] : [tmpdir()];
}

/** A workspace's name: its process's pid, and (`s<ticks>-`) when that process started. */
const WORKSPACE_NAME = new RegExp(`^${WORKSPACE_PREFIX}(\\d+)-(?:s(\\d+)-)?`);

/** Removes workspaces of earlier runs whose process is gone (or whose pid another now has); returns how many. */
export function removeStaleWorkspaces(parents: readonly string[] = workspaceParents()): number {
  let removed = 0;
  const uid = process.getuid?.();
  for (const parent of new Set(parents)) {
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const match = WORKSPACE_NAME.exec(name);
      // Its process still runs: alive, no zombie, and (when the name says) started when it did.
      if (!match || isRunningAs(Number(match[1]), match[2])) continue;
      const path = join(parent, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat?.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      try {
        removeTree(path);
        removed++;
      } catch {}
    }
  }
  return removed;
}

export type Removal = Pick<Workspace, "remove" | "removeInBackground">;

/** The workspace's layout in `root` (a fresh private directory); `removal` removes all of it. */
export function workspaceAt(root: string, removal: Removal): Workspace {
  const workspace: Workspace = {
    root,
    bundle: join(root, "bundle.tar.gz"),
    tree: join(root, "tree"),
    io: join(root, "io"),
    git: join(root, "git"),
    home: join(root, "home"),
    ...removal,
  };
  // Traverse-only for others: an unprivileged sandbox user must reach tree/ and io/, never list root.
  chmodSync(root, 0o711);
  mkdirSync(workspace.io, { mode: 0o711 });
  mkdirSync(workspace.home, { mode: 0o700 });
  return workspace;
}

/**
 * A directory named after our pid, and when we started where /proc says (a later run tells a
 * reused pid from us), where workspaces go, mode 0711 (see workspaceAt).
 */
export function createWorkspaceRoot(): string {
  const parent = workspaceParents()[0] as string;
  const start = readStart(process.pid);
  const owner = start === undefined ? `${process.pid}-` : `${process.pid}-s${start}-`;
  const root = mkdtempSync(join(parent, `${WORKSPACE_PREFIX}${owner}`));
  chmodSync(root, 0o711);
  return root;
}

export function createWorkspace(): Workspace {
  const root = createWorkspaceRoot();
  return workspaceAt(root, {
    remove: () => removeTree(root),
    removeInBackground: () => removeInBackground(root),
  });
}
