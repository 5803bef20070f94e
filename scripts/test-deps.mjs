#!/usr/bin/env node
// `npm test`'s set-up: the suite drives real system programs — bubblewrap for the worker's sandbox,
// OpenSSH's server and client for the ssh transport, util-linux's setpriv for the unprivileged worker,
// Debian's ShellCheck for a reviewer recipe, man for `--help`, xz, bzip2, zstd and lz4 for the
// content scan of files compressed in their forms. Run as root on Debian (a CI runner, a container), it
// installs what is missing with apt-get; otherwise it names what is missing and the tests that need
// it report themselves as skipped, with the reason.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const PACKAGES = [
  { program: "bwrap", pkg: "bubblewrap" },
  { program: "sshd", pkg: "openssh-server", also: "/usr/sbin/sshd" },
  { program: "ssh", pkg: "openssh-client" },
  { program: "setpriv", pkg: "util-linux" },
  { program: "shellcheck", pkg: "shellcheck" },
  { program: "man", pkg: "man-db" },
  { program: "xz", pkg: "xz-utils" },
  { program: "bzip2", pkg: "bzip2" },
  { program: "zstd", pkg: "zstd" },
  { program: "lz4", pkg: "lz4" },
];

function has(program, also) {
  if (also && existsSync(also)) return true;
  return spawnSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" }).status === 0;
}

const missing = PACKAGES.filter(({ program, also }) => !has(program, also)).map(({ pkg }) => pkg);
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && has("apt-get");
if (!canInstall) {
  console.warn(`test set-up: missing ${missing.join(", ")}; the tests that need them will be skipped`);
  console.warn(`hint: sudo apt-get install -y ${missing.join(" ")}`);
  process.exit(0);
}
console.warn(`test set-up: installing ${missing.join(", ")}`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env });
