// The reviewer's jail (design §8): bubblewrap with every namespace unshared, a read-only system and
// root, only the tree and a size-capped /tmp writable, a scrubbed environment and resource limits set
// inside the jail. As root bwrap alone is not a boundary (the child keeps its capabilities), so bwrap
// itself runs as an unprivileged user through setpriv.

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Identity } from "../os/user-namespace.js";
import { workerMessages } from "./messages.js";

export const SandboxMode = { require: "require", auto: "auto", off: "off" } as const;
export type SandboxMode = (typeof SandboxMode)[keyof typeof SandboxMode];

export type SandboxKind = "bwrap" | "bwrap+setpriv" | "none";

export interface Sandbox {
  kind: SandboxKind;
  /** The unprivileged user the sandbox runs as (bwrap+setpriv only). */
  user?: Identity;
  /**
   * Who started the worker, when the worker runs as root of a user namespace of its own (design §8):
   * confined programs run as that user again, without the namespace's capabilities.
   */
  owner?: Identity;
}

export interface ResourceLimits {
  /** RLIMIT_FSIZE: the largest file the reviewer may write. */
  fileSizeBytes: number;
  openFiles: number;
  /**
   * RLIMIT_NPROC, set inside the program's own user namespace: the kernel counts processes per user
   * per namespace, so the budget is this review's alone. Not applied without one.
   */
  processes: number;
  /** Bytes of /tmp when no `scratch` directory is given. */
  tmpBytes: number;
}

/** One program to run confined. Paths are the same inside and outside the sandbox. */
export interface SandboxSpec {
  argv: readonly string[];
  cwd: string;
  /** Directories or files bound read-write (the tree, the comments file). */
  writable: readonly string[];
  /** Directories or files bound read-only (the request, the reviewer program). */
  readOnly: readonly string[];
  env: Readonly<Record<string, string>>;
  limits?: ResourceLimits;
  /**
   * A directory whose `tmp/` and `shm/` (the worker's own tmpfs, capped in bytes and inodes) become
   * /tmp and /dev/shm. Without it both are bwrap tmpfs capped in bytes only.
   */
  scratch?: string;
  /** Share the host's network (and its resolver and CA certificates); otherwise there is none. */
  network?: boolean;
}

export interface Command {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** /tmp of programs run without limits (unpack, probes). */
const DEFAULT_TMP_BYTES = 16 * 1024 * 1024;
/** The reviewer's /dev/shm: a small tmpfs of its own (Docker's default size), whatever /tmp gets. */
export const SHM_ROOM = { bytes: 64 * 1024 * 1024, files: 4096 } as const;

/** The programs a sandboxed reviewer may find in PATH. */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const ROOT_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
const ETC_FILES = [
  "passwd",
  "group",
  "hosts",
  "nsswitch.conf",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "alternatives",
];
/** What a program with network needs of /etc: name resolution and the CA certificates. */
const NETWORK_ETC = ["resolv.conf", "ssl", "ca-certificates", "ca-certificates.conf", "pki", "gai.conf"];

/** Where node lives, bound read-only when it is not under /usr (nvm, /opt, ...). */
export function nodePrefix(): string | undefined {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return prefix === "/usr" || prefix.startsWith("/usr/") ? undefined : prefix;
}

/** `/bin` -> `usr/bin` on merged-/usr systems: recreate the host's layout of top-level links. */
function systemBinds(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const path of ROOT_LINKS) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
    else if (stat?.isDirectory()) args.push("--ro-bind", path, path);
  }
  for (const name of ETC_FILES) args.push("--ro-bind-try", join("/etc", name), join("/etc", name));
  const prefix = nodePrefix();
  if (prefix) args.push("--ro-bind", prefix, prefix);
  return args;
}

/** /tmp and /dev/shm: the worker's scratch tmpfs, or small tmpfs of bwrap's own. */
function tmpArgs(spec: SandboxSpec): string[] {
  if (spec.scratch) {
    return ["--bind", join(spec.scratch, "tmp"), "/tmp", "--bind", join(spec.scratch, "shm"), "/dev/shm"];
  }
  const bytes = String(spec.limits?.tmpBytes ?? DEFAULT_TMP_BYTES);
  return ["--size", bytes, "--tmpfs", "/tmp", "--size", String(SHM_ROOM.bytes), "--tmpfs", "/dev/shm"];
}

function bwrapArgs(spec: SandboxSpec, sandbox: Sandbox): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];
  if (sandbox.owner) {
    args.push("--unshare-user", "--uid", String(sandbox.owner.uid), "--gid", String(sandbox.owner.gid));
  }
  args.push(...systemBinds(), "--dev", "/dev", "--proc", "/proc", ...tmpArgs(spec));
  if (spec.network) {
    args.push("--share-net");
    for (const name of NETWORK_ETC) args.push("--ro-bind-try", join("/etc", name), join("/etc", name));
  }
  for (const path of spec.readOnly) args.push("--ro-bind", path, path);
  for (const path of spec.writable) args.push("--bind", path, path);
  // bwrap's own root and /dev are tmpfs without a size: nothing may be written there.
  args.push("--remount-ro", "/dev", "--remount-ro", "/");
  args.push("--chdir", spec.cwd, "--clearenv");
  for (const [name, value] of Object.entries(spec.env)) args.push("--setenv", name, value);
  return [...args, "--"];
}

function prlimitArgs(limits: ResourceLimits | undefined, withProcesses: boolean): string[] {
  if (!limits || !hasProgram("prlimit")) return [];
  const args = ["prlimit", `--fsize=${limits.fileSizeBytes}`, `--nofile=${limits.openFiles}`, "--core=0"];
  if (withProcesses) args.push(`--nproc=${limits.processes}`);
  return [...args, "--"];
}

/** setpriv down to `user`, with no capability left to inherit or regain. */
function setprivArgs(user: Identity): string[] {
  return [
    "setpriv",
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    "--clear-groups",
    "--no-new-privs",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--",
  ];
}

/** The command line that runs `spec` in `sandbox` (or directly, for "none"). */
export function sandboxCommand(sandbox: Sandbox, spec: SandboxSpec): Command {
  let argv: string[];
  if (sandbox.kind === "none") {
    // Back to the owner in a user namespace of its own, where a process budget is the program's alone.
    const owner = sandbox.owner
      ? ["unshare", `--map-user=${sandbox.owner.uid}`, `--map-group=${sandbox.owner.gid}`, "--"]
      : [];
    argv = [...owner, ...prlimitArgs(spec.limits, owner.length > 0), ...spec.argv];
  } else {
    const drop = sandbox.user ? setprivArgs(sandbox.user) : [];
    // The limits go inside the jail, after bwrap made its user namespace (see ResourceLimits.processes).
    argv = [...drop, "bwrap", ...bwrapArgs(spec, sandbox), ...prlimitArgs(spec.limits, true), ...spec.argv];
  }
  const [file, ...args] = argv as [string, ...string[]];
  // Outside the sandbox only setpriv/bwrap see this environment; bwrap clears it for the reviewer.
  const env = sandbox.kind === "none" ? { ...spec.env } : { PATH: SANDBOX_PATH, LANG: "C.UTF-8" };
  return { file, args, env };
}

const programCache = new Map<string, boolean>();

export function hasProgram(name: string): boolean {
  let found = programCache.get(name);
  if (found === undefined) {
    const dirs = (process.env.PATH ?? SANDBOX_PATH).split(":").filter(Boolean);
    found = dirs.some((dir) => existsSync(join(dir, name)));
    programCache.set(name, found);
  }
  return found;
}

/** `account`'s line in /etc/passwd, if it has one there. */
function localAccount(account: string): string | undefined {
  try {
    return readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((line) => line.startsWith(`${account}:`));
  } catch {
    return undefined;
  }
}

/** The account a root worker runs its sandboxes as (design §8). */
const SANDBOX_ACCOUNT = "review-remote";

/**
 * The dedicated unprivileged user, created once when running as root (and then said, once, through
 * `say`: an account appearing on a host should never be a surprise); nobody as the fallback.
 */
export function sandboxUser(
  say: (line: string) => void,
  account: string = SANDBOX_ACCOUNT,
): { uid: number; gid: number } {
  const fromLine = (line: string | undefined) => {
    const fields = line?.trim().split(":") ?? [];
    return fields.length >= 4 ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
  };
  // /etc/passwd first (where useradd puts a system account), then NSS for a directory's accounts.
  const lookup = () => {
    const line = localAccount(account);
    if (line) return fromLine(line);
    const result = spawnSync("getent", ["passwd", account], { encoding: "utf8" });
    return result.status === 0 ? fromLine(result.stdout) : undefined;
  };
  let user = lookup();
  if (!user && hasProgram("useradd")) {
    spawnSync(
      "useradd",
      [
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        "/usr/sbin/nologin",
        account,
      ],
      { stdio: "ignore" },
    );
    user = lookup();
    if (user) say(workerMessages.createdSandboxUser(account, user.uid));
  }
  return user && user.uid > 0 ? user : { uid: 65534, gid: 65534 };
}
