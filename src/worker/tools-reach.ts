// As root the sandbox runs as its own unprivileged user (design §8), and bwrap, started as that user,
// must reach every --tools directory to bind it. A toolchain under /root (rustup's, pyenv's, nvm's)
// is out of its reach, and bwrap's "Can't find source path ...: Permission denied" alone does not say
// why: the reviewer fails with the directory and the reason instead.

import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { Identity } from "../os/user-namespace.js";
import type { Sandbox } from "./sandbox.js";

const SEARCH = { owner: 0o100, group: 0o010, other: 0o001 };
const READ = { owner: 0o400, group: 0o040, other: 0o004 };

/** Whether `user` (no supplementary groups: setpriv clears them) has `bits` on the entry `stat` describes. */
function allows(
  stat: { mode: number; uid: number; gid: number },
  user: Identity,
  bits: typeof SEARCH,
): boolean {
  if (stat.uid === user.uid) return (stat.mode & bits.owner) !== 0;
  if (stat.gid === user.gid) return (stat.mode & bits.group) !== 0;
  return (stat.mode & bits.other) !== 0;
}

/** The first directory on the way to `dir` (itself included) the sandbox's user cannot pass, and why. */
export function outOfReach(user: Identity, dir: string): { path: string; reason: string } | undefined {
  const chain: string[] = [];
  for (let path = dir; ; path = dirname(path)) {
    chain.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of chain) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return { path, reason: "is not there for" };
    if (!allows(stat, user, SEARCH)) return { path, reason: "is not searchable by" };
  }
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat && !allows(stat, user, READ)) return { path: dir, reason: "is not readable by" };
  return undefined;
}

/** Why a --tools directory cannot be bound in `sandbox`, or undefined when each can. */
export function toolsOutOfReach(sandbox: Sandbox, tools: readonly string[]): string | undefined {
  const user = sandbox.kind === "none" ? undefined : sandbox.user;
  if (!user) return undefined;
  for (const dir of tools) {
    const blocked = outOfReach(user, dir);
    if (!blocked) continue;
    const which = blocked.path === dir ? "it" : blocked.path;
    return `--tools ${dir}: ${which} ${blocked.reason} the sandbox's user (uid ${user.uid}, whom a root worker runs reviewers as); put the tools where that user can reach them (under /opt, say)`;
  }
  return undefined;
}
