// Picks the sandbox for --sandbox=require|auto|off by actually running `true` inside it: a bwrap that
// is installed but cannot create namespaces here (containers, sysctls) must not count as a sandbox.

import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Identity, isHostRoot, namespaceOwner } from "../os/user-namespace.js";
import {
  hasProgram,
  SANDBOX_PATH,
  type Sandbox,
  type SandboxMode,
  sandboxCommand,
  sandboxUser,
} from "./sandbox.js";

export class SandboxUnavailableError extends Error {}

let cached: { sandbox: Sandbox } | { reason: string } | undefined;

function probe(
  scratchRoot: string,
  owner: Identity | undefined,
  say: (line: string) => void,
): { sandbox: Sandbox } | { reason: string } {
  if (!hasProgram("bwrap")) return { reason: "bwrap (bubblewrap) is not installed" };
  let sandbox: Sandbox = owner ? { kind: "bwrap", owner } : { kind: "bwrap" };
  if (isHostRoot()) {
    // bwrap as root keeps enough power to undo its own mounts: drop to a user first (design §8).
    if (!hasProgram("setpriv")) return { reason: "running as root and setpriv is not installed" };
    sandbox = { kind: "bwrap+setpriv", user: sandboxUser(say) };
  }
  const dir = mkdtempSync(join(scratchRoot, "probe-"));
  try {
    if (sandbox.user) chownSync(dir, sandbox.user.uid, sandbox.user.gid);
    const command = sandboxCommand(sandbox, {
      argv: ["sh", "-c", ": > probe && test ! -w /usr"],
      cwd: dir,
      writable: [dir],
      readOnly: [],
      env: { PATH: SANDBOX_PATH },
    });
    const result = spawnSync(command.file, command.args, {
      env: command.env,
      encoding: "utf8",
      timeout: 20_000,
    });
    if (result.status === 0) return { sandbox };
    const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split("\n")[0];
    return { reason: `a test run under ${sandbox.kind} failed: ${why}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The sandbox to run the reviewer in. `require` throws SandboxUnavailableError when none works;
 * `auto` falls back to "none" and says why through `warn`; `off` never sandboxes.
 */
export function findSandbox(mode: SandboxMode, scratchRoot: string, warn: (line: string) => void): Sandbox {
  const owner = namespaceOwner();
  const none: Sandbox = owner ? { kind: "none", owner } : { kind: "none" };
  if (mode === "off") return none;
  cached ??= probe(scratchRoot, owner, warn);
  if ("sandbox" in cached) return cached.sandbox;
  if (mode === "require") throw new SandboxUnavailableError(`no working sandbox: ${cached.reason}`);
  warn(`warning: running the reviewer without a sandbox: ${cached.reason}`);
  return none;
}
