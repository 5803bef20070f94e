import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readStart } from "../../src/os/process.js";
import {
  createWorkspace,
  removeStaleWorkspaces,
  WORKSPACE_PREFIX,
  WORKSPACE_ROOT_ENV,
} from "../../src/worker/workspace.js";
import { startZombie } from "../helpers/processes.js";

const parent = mkdtempSync(join(tmpdir(), "rr-ws-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("worker workspaces", () => {
  it("creates a private, traverse-only root named with our pid", () => {
    process.env[WORKSPACE_ROOT_ENV] = parent;
    try {
      const workspace = createWorkspace();
      const owner = `${WORKSPACE_PREFIX}${process.pid}-s${readStart(process.pid)}-`;
      expect(workspace.root.startsWith(join(parent, owner))).toBe(true);
      expect(statSync(workspace.root).mode & 0o777).toBe(0o711);
      workspace.remove();
      expect(existsSync(workspace.root)).toBe(false);
    } finally {
      delete process.env[WORKSPACE_ROOT_ENV];
    }
  });

  it("removes the workspaces of dead processes and keeps live ones", () => {
    const dead = spawnSync("true").pid as number;
    const stale = join(parent, `${WORKSPACE_PREFIX}${dead}-abc`);
    const live = join(parent, `${WORKSPACE_PREFIX}${process.pid}-def`);
    const other = join(parent, "unrelated-dir");
    for (const dir of [stale, live, other]) {
      mkdirSync(join(dir, "tree"), { recursive: true });
      writeFileSync(join(dir, "tree", "f"), "x");
    }
    expect(removeStaleWorkspaces([parent])).toBe(1);
    expect([existsSync(stale), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });

  it("removes a workspace whose pid now names another process: the start in its name tells", () => {
    const ours = readStart(process.pid);
    const reused = join(parent, `${WORKSPACE_PREFIX}${process.pid}-s1-abc`);
    const live = join(parent, `${WORKSPACE_PREFIX}${process.pid}-s${ours}-def`);
    for (const dir of [reused, live]) mkdirSync(dir, { recursive: true });
    expect(removeStaleWorkspaces([parent])).toBe(1);
    expect([existsSync(reused), existsSync(live)]).toEqual([false, true]);
    rmSync(live, { recursive: true });
  });

  it("removes a workspace whose process has ended but is not reaped yet (a zombie)", async () => {
    const zombie = await startZombie();
    try {
      const ended = join(parent, `${WORKSPACE_PREFIX}${zombie.pid}-ghi`);
      mkdirSync(ended);
      expect(removeStaleWorkspaces([parent])).toBe(1);
      expect(existsSync(ended)).toBe(false);
    } finally {
      zombie.release();
    }
  });
});
