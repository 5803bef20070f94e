// The reviewer's jail (design §8): bubblewrap with every namespace unshared, a read-only /usr, only the
// tree writable, a scrubbed environment and resource limits. As root bwrap alone is not a boundary
// (the child keeps its capabilities), so bwrap itself runs as an unprivileged user through setpriv.

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

export const SandboxMode = { require: "require", auto: "auto", off: "off" } as const;
export type SandboxMode = (typeof SandboxMode)[keyof typeof SandboxMode];

export type SandboxKind = "bwrap" | "bwrap+setpriv" | "none";

export interface Sandbox {
  kind: SandboxKind;
  /** The unprivileged user the sandbox runs as (bwrap+setpriv only). */
  user?: { uid: number; gid: number };
}

export interface ResourceLimits {
  /** RLIMIT_FSIZE: the largest file the reviewer may write. */
  fileSizeBytes: number;
  openFiles: number;
  /** RLIMIT_NPROC; only applied for the dedicated user (it counts every process of that uid). */
  processes: number;
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
}

export interface Command {
  file: string;
  args: string[];
  env: Record<string, string>;
}

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

function bwrapArgs(spec: SandboxSpec, dropCapabilities: boolean): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session"];
  if (dropCapabilities) args.push("--cap-drop", "ALL");
  args.push(...systemBinds(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const path of spec.readOnly) args.push("--ro-bind", path, path);
  for (const path of spec.writable) args.push("--bind", path, path);
  args.push("--chdir", spec.cwd, "--clearenv");
  for (const [name, value] of Object.entries(spec.env)) args.push("--setenv", name, value);
  return [...args, "--", ...spec.argv];
}

function prlimitArgs(limits: ResourceLimits | undefined, withProcesses: boolean): string[] {
  if (!limits || !hasProgram("prlimit")) return [];
  const args = ["prlimit", `--fsize=${limits.fileSizeBytes}`, `--nofile=${limits.openFiles}`, "--core=0"];
  if (withProcesses) args.push(`--nproc=${limits.processes}`);
  return [...args, "--"];
}

/** The command line that runs `spec` in `sandbox` (or directly, for "none"). */
export function sandboxCommand(sandbox: Sandbox, spec: SandboxSpec): Command {
  const limits = prlimitArgs(spec.limits, sandbox.kind === "bwrap+setpriv");
  let argv: string[];
  if (sandbox.kind === "none") {
    argv = [...limits, ...spec.argv];
  } else {
    const drop = sandbox.user
      ? [
          "setpriv",
          `--reuid=${sandbox.user.uid}`,
          `--regid=${sandbox.user.gid}`,
          "--clear-groups",
          "--no-new-privs",
          "--inh-caps=-all",
          "--bounding-set=-all",
          "--",
        ]
      : [];
    argv = [...limits, ...drop, "bwrap", ...bwrapArgs(spec, true)];
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

/** The dedicated unprivileged user, created once when running as root; nobody as the fallback. */
export function sandboxUser(): { uid: number; gid: number } {
  const lookup = () => {
    const result = spawnSync("getent", ["passwd", "review-remote"], { encoding: "utf8" });
    const fields = result.status === 0 ? result.stdout.trim().split(":") : [];
    return fields.length >= 4 ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
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
        "review-remote",
      ],
      { stdio: "ignore" },
    );
    user = lookup();
  }
  return user && user.uid > 0 ? user : { uid: 65534, gid: 65534 };
}
