// The worker runs itself again inside namespaces of its own (design §8): a private mount namespace in
// which its workspace is a tmpfs with a size and an inode cap, and a pid namespace, so that nothing it
// started outlives it and the workspace goes with it, SIGKILL included. Root makes them directly; an
// unprivileged worker first makes a user namespace and is root only inside it.

import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { fstatSync } from "node:fs";
import type { Socket } from "node:net";
import { constants } from "node:os";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { ExitCode } from "../errors.js";
import { NODE_FLAGS } from "../os/node-flags.js";
import { drainPipe } from "../os/pipe.js";
import {
  hasAncestryChanged,
  hasOtherPipeReader,
  killGroup,
  originSession,
  readSessionAncestry,
} from "../os/process.js";
import { isHostRoot } from "../os/user-namespace.js";
import { packageFile } from "../package-files.js";
import { parseWorkerArgs } from "./args.js";
import type { WorkerOptions } from "./flow.js";
import { DEFAULT_WORKER_LIMITS, type WorkerLimits, workerLimitsFrom } from "./limits.js";
import { reviewerCommandsFrom } from "./reviewer-specs.js";
import { hasProgram } from "./sandbox.js";
import { sayTo } from "./say.js";
import { createWorkspaceRoot, removeStaleWorkspaces, removeTree } from "./workspace.js";
import { mountWorkspaceScript } from "./workspace-tmpfs.js";

/** The worker's configuration: its options without the streams. */
export type WorkerConfig = Omit<WorkerOptions, "stdin" | "stdout" | "stderr" | "workspaceRoot">;

/** Tells the worker run inside the namespaces where its workspace goes and how it is configured. */
const CONFINED_ENV = "REVIEW_REMOTE_WORKER_CONFINED";
const WAITING_ON_TERMINAL =
  "waiting for a request on stdin: git review-remote sends one through a worker's command (git config review-remote.<name>.command; Ctrl-D ends this)";

/** This package's command line, run again inside the namespaces. */
const CLI = packageFile("bin/git-review-remote.js");

/** This process's streams, touched only where this process serves the request itself. */
function streams() {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/**
 * The command that makes the namespaces and runs `argv` as their first process. When this process
 * dies, even by SIGKILL, unshare is killed (--pdeathsig), then the first process (--kill-child), and
 * with it everything in the pid namespace.
 */
function unshareCommand(argv: readonly string[]): string[] {
  const user = isHostRoot() ? [] : ["--user", "--map-root-user"];
  const namespaces = [
    "--mount",
    "--propagation",
    "private",
    "--pid",
    "--fork",
    "--kill-child",
    "--mount-proc",
  ];
  return ["setpriv", "--pdeathsig=KILL", "--", "unshare", ...user, ...namespaces, "--", ...argv];
}

const EXIT_ON_SIGNAL: Record<string, number> = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: 128 + constants.signals.SIGTERM,
  SIGHUP: 128 + constants.signals.SIGHUP,
};

/**
 * SIGINT, SIGTERM and SIGHUP from the moment this process starts to make the namespaces: each is
 * remembered, and kills the worker inside them once there is one, so that a stop at any moment ends
 * with the workspace removed and the signal's exit code.
 */
class SignalTrap {
  received: NodeJS.Signals | undefined;
  private group: number | undefined;
  private readonly signals = Object.keys(EXIT_ON_SIGNAL) as NodeJS.Signals[];
  private readonly stop = (signal: NodeJS.Signals) => {
    this.received ??= signal;
    killGroup(this.group);
  };

  constructor() {
    for (const signal of this.signals) process.on(signal, this.stop);
  }

  /** The process group to kill on a signal (the worker inside the namespaces). */
  watch(group: number | undefined): void {
    this.group = group;
    if (this.received) killGroup(group);
  }

  /** The exit code for a signal received, or `code`. */
  exitCode(code: number): number {
    return this.received ? (EXIT_ON_SIGNAL[this.received] as number) : code;
  }

  release(): void {
    for (const signal of this.signals) process.off(signal, this.stop);
  }
}

/** What stdout is: the answer's reader goes with whoever holds the other end of a pipe or a socket. */
function stdoutKind(): { kind: "socket" | "pipe" | "other"; dev: number; ino: number } {
  try {
    const stdout = fstatSync(1);
    const kind = stdout.isSocket() ? "socket" : stdout.isFIFO() ? "pipe" : "other";
    return { kind, dev: stdout.dev, ino: stdout.ino };
  } catch {
    return { kind: "other", dev: 0, ino: 0 };
  }
}

/** How often the worker looks whether what started it is still there. */
const PARENT_POLL_MS = 1000;

/**
 * Calls `onGone` when the other end of the socket on stdout is closed: a reader of a copy of it (the
 * client never writes to it) that sees its end. The copy is another process's, `cat`, so that this
 * one's own stdout stays the only handle on fd 1 here; it is killed when this process exits, SIGKILL
 * included (`--pdeathsig`), for the client's end to see the worker's close. `onFailed` when that
 * reader cannot run.
 */
function watchSocketPeer(onGone: () => void, onFailed: () => void): void {
  let reader: ChildProcess;
  try {
    reader = spawn("setpriv", ["--pdeathsig=KILL", "--", "cat"], { stdio: [1, "ignore", "ignore"] });
  } catch {
    onFailed();
    return;
  }
  const stop = () => reader.kill("SIGKILL");
  process.once("exit", stop);
  reader.once("error", () => {
    process.off("exit", stop);
    onFailed();
  });
  // cat ends with 0 at the end of its input: the client's end is gone.
  reader.once("exit", (code) => {
    process.off("exit", stop);
    if (code === 0) onGone();
    else if (code !== null) onFailed();
  });
  reader.unref();
}

/**
 * A worker whose client is gone has nobody to answer: a killed ssh client makes sshd end the session
 * without a signal to the command (there is no terminal to hang up), and the worker would run its
 * reviewer to the deadline, an hour by default. So this process raises SIGHUP on itself when the
 * answer's reader is gone, and the trap (or the worker's own handler) stops the reviewer and removes
 * the workspace, as for a SIGHUP from a terminal. Neither a closed stdin (a request sent with
 * `< bundle` ends there) nor a stdout nobody reads (nothing is written to it until the answer)
 * tells a gone client from a working one; what does:
 * - a socket (a local client's command): its other end closed, seen by a reader of it;
 * - a pipe (sshd's, a container runtime's): the worker watches its ancestors up to its session's
 *   leader, whose parent started the session (sshd, or the client's `sh -c`), one of them gone or
 *   handed to another parent being the sign. Its own parent may live on: a remote login shell that
 *   does not exec its command (dash), or git running `git review-remote worker`, is reparented and
 *   goes on waiting for it. An ancestor may also leave on purpose, handing the worker on (a wrapper
 *   that starts it in a session of its own and exits, a runtime's process handed to its shim): so
 *   on a change the pipe's readers decide, as /proc shows them; while another process holds its
 *   read end the worker goes on, and looks again each second; so it does while a process it
 *   cannot look into (another user's: a relay run as root) may hold it, as not seeing a reader is
 *   no sign that the client is gone (the request's deadline bounds the wait); such a process is
 *   one of the session that started this one's (the client's side), never a host's daemon, so
 *   that a client gone over ssh still stops an unprivileged worker. None at all: gone;
 * - a file (`nohup git review-remote worker < bundle > result &`): its reader is whoever started
 *   it, and it watches its own parent alone.
 */
function hangUpWithClient(): void {
  const hangUp = () => process.kill(process.pid, "SIGHUP");
  const stdout = stdoutKind();
  const ancestry = stdout.kind === "other" ? readSessionAncestry().slice(0, 1) : readSessionAncestry();
  // Read now, while what started the session runs: later it may be gone, and the session with it.
  const origin = stdout.kind === "pipe" ? originSession(ancestry) : undefined;
  const watchAncestry = () => {
    let handedOn = false;
    const timer = setInterval(() => {
      if (!handedOn && !hasAncestryChanged(ancestry)) return;
      // A reader it cannot rule out (a process of the client's side it cannot look into: a relay
      // run as root) may be the client's: it goes on, and looks again; the request's deadline
      // bounds the wait. The host's own daemons are no such reader.
      if (stdout.kind === "pipe" && hasOtherPipeReader(stdout, origin) !== false) {
        handedOn = true;
        return;
      }
      clearInterval(timer);
      hangUp();
    }, PARENT_POLL_MS);
    timer.unref();
  };
  if (stdout.kind === "socket") watchSocketPeer(hangUp, watchAncestry);
  else watchAncestry();
}

/**
 * The namespace's first process, `sh` (it also reaps orphans while the worker runs): mounts the
 * workspace, says `started` on fd 3, then runs the worker with the real stderr (fd 4) and says its
 * exit code on fd 3 the moment it has it. Until `started`, fd 2 is a pipe: what failed, if anything.
 */
function firstProcessScript(mounts: string): string {
  return [
    `${mounts} || exit 125`,
    "echo started >&3",
    "exec 2>&4 4>&-",
    '"$@" 3>&-',
    "code=$?",
    'echo "exit $code" >&3',
    "exit $code",
  ].join("\n");
}

/**
 * Run before the chain, outside the namespaces: a reader of fd 5 (ROOT_GUARD_FD), a pipe whose other
 * end only the process that made the workspace root holds. The root is an empty directory on this
 * side (its tmpfs is mounted in the namespace alone), and that process removes it once the worker is
 * done; killed outright (SIGKILL: the client, or a worker command's whole group killed by the
 * client's guard), it cannot, and the pipe's end removes it instead. `rmdir`, never `rm -r`: it
 * removes an empty directory and nothing else. Its stdio is /dev/null and it holds none of the
 * chain's pipes, so they end with the worker. It runs in a session of its own: a worker stopped by
 * a signal kills the chain's process group, and the client's guard may kill the worker before it
 * has removed the root itself. `$0` is the root, `"$@"` the chain.
 */
const ROOT_GUARD = `setsid sh -c 'read _ <&5; rmdir -- "$0"' "$0" </dev/null >/dev/null 2>&1 3>&- 4>&- &
exec 5<&- "$@"`;

/** The fd of the chain's root guard (ROOT_GUARD): its spawn's stdio holds a pipe there. */
const ROOT_GUARD_FD = 5;

/** What the chain mounts for a worker: its limits, and scratch when it runs reviewer commands. */
export interface Mounts {
  limits: WorkerLimits;
  reviewerScratch: boolean;
}

/** The mounts of a worker configured with these reviewers and limits. */
function mountsOf(config: Pick<WorkerConfig, "reviewerCommands" | "limits">): Mounts {
  return {
    limits: config.limits ?? DEFAULT_WORKER_LIMITS,
    reviewerScratch: (config.reviewerCommands ?? []).length > 0,
  };
}

/**
 * The mounts of `git review-remote worker <args>`, from its arguments parsed as that worker parses
 * them (args.ts); undefined when it would refuse them, and then says why itself.
 */
export function mountsForArgs(args: readonly string[]): Mounts | undefined {
  try {
    const flags = parseWorkerArgs(args);
    const reviewerCommands = reviewerCommandsFrom(flags.ordered);
    return mountsOf({ reviewerCommands, limits: workerLimitsFrom(flags.limits) });
  } catch {
    return undefined;
  }
}

/**
 * The command that makes the namespaces, mounts the workspace at `root` and runs the worker there,
 * under the guard that removes `root` if the process that spawns it is killed first.
 */
function workerChain(root: string, mounts: Mounts, args: readonly string[]): string[] {
  const script = firstProcessScript(
    mountWorkspaceScript(root, mounts.limits, { reviewerScratch: mounts.reviewerScratch }),
  );
  const chain = unshareCommand([
    "sh",
    "-c",
    script,
    "sh",
    process.execPath,
    ...NODE_FLAGS,
    CLI,
    "worker",
    ...args,
  ]);
  return ["sh", "-c", ROOT_GUARD, root, ...chain];
}

/**
 * This end of the root guard's pipe: held open until this process exits, or until the chain has
 * exited (then what the worker mounted is gone, and `close` need not wait for the guard).
 */
function holdRootGuard(child: ChildProcess): void {
  const guard = (child.stdio as readonly unknown[])[ROOT_GUARD_FD] as Socket | null | undefined;
  if (!guard) return;
  guard.unref();
  guard.on("error", () => undefined);
  child.once("exit", () => guard.destroy());
  child.once("error", () => guard.destroy());
}

/**
 * Reads the first process's status pipe (firstProcessScript): `started` once the workspace is
 * mounted, then `exited` once with the worker's exit code.
 */
function watchStatus(status: Readable, on: { started(): void; exited(code: number): void }): void {
  let said = "";
  let started = false;
  let exited = false;
  status.setEncoding("utf8");
  status.on("data", (text: string) => {
    said += text;
    if (!started && said.startsWith("started\n")) {
      started = true;
      on.started();
    }
    const code = /^exit (\d+)$/m.exec(said)?.[1];
    if (code === undefined || exited) return;
    exited = true;
    on.exited(Number(code));
  });
}

/** Whether the programs that make the namespaces are here (whether they work, only a run tells). */
export function canConfine(): boolean {
  return hasProgram("unshare") && hasProgram("setpriv");
}

/** How the run inside the namespaces ended: the worker's exit code, or why it never started. */
type Inside = { code: number } | { reason: string };

/**
 * Runs the worker inside the namespaces on our stdin and stdout. When the namespaces or the tmpfs
 * cannot be made, the worker never started and our stdin is untouched: resolves with the reason.
 * Once the worker has exited, resolves with its code without waiting for the namespace to end: the
 * kernel drops its tmpfs in the context of the processes this one's exit kills (--pdeathsig), and
 * the client need not wait for that (0.19 s for a 27k-file tree).
 */
function runInside(root: string, config: WorkerConfig, trap: SignalTrap): Promise<Inside> {
  const [file, ...args] = workerChain(root, mountsOf(config), []);
  const child = spawn(file as string, args, {
    stdio: ["inherit", "inherit", "pipe", "pipe", process.stderr, "pipe"],
    detached: true,
    env: { ...process.env, [CONFINED_ENV]: JSON.stringify({ root, config }) },
  });
  holdRootGuard(child);
  trap.watch(child.pid);
  const setupErrors = child.stdio[2] as Readable;
  const status = child.stdio[3] as Readable;
  return new Promise((resolve) => {
    let started = false;
    let errors = "";
    const finish = (inside: Inside) => {
      setupErrors.destroy();
      status.destroy();
      child.unref();
      resolve(inside);
    };
    setupErrors.setEncoding("utf8");
    setupErrors.on("data", (text: string) => {
      if (started) process.stderr.write(text);
      else errors += text;
    });
    watchStatus(status, {
      started: () => {
        started = true;
        process.stderr.write(errors);
      },
      exited: (code) => finish({ code: trap.exitCode(code) }),
    });
    child.on("error", (error) => finish({ reason: error.message }));
    child.on("close", (code, signal) => {
      const exit = code ?? 128 + (signal ? constants.signals[signal] : 0);
      if (started || trap.received) finish({ code: trap.exitCode(exit) });
      else finish({ reason: errors.trim().split("\n")[0] || `exit ${exit}` });
    });
  });
}

/**
 * `git review-remote worker`: inside the namespaces, the worker itself; outside, the worker run
 * again inside them. Where they cannot be made, `--sandbox=require` fails and otherwise the worker
 * runs here with a warning, its workspace bounded by nothing but the disk.
 */
export async function runConfinedWorker(config: WorkerConfig): Promise<number> {
  const inside = process.env[CONFINED_ENV];
  if (inside !== undefined) {
    delete process.env[CONFINED_ENV];
    // A client that started this worker itself (ConfinedWorker) passes the root alone: the
    // configuration is this process's own command line.
    const run = JSON.parse(inside) as { root: string; config?: WorkerConfig };
    const { runWorker } = await import("./flow.js");
    return runWorker({ ...(run.config ?? config), workspaceRoot: run.root, ...streams() });
  }
  // Run by hand on a terminal (to check that a host has it), it would wait without a word.
  if (process.stdin.isTTY) sayTo(process.stderr)(WAITING_ON_TERMINAL);
  const trap = new SignalTrap();
  hangUpWithClient();
  removeStaleWorkspaces();
  const root = createWorkspaceRoot();
  try {
    const inside = canConfine()
      ? await runInside(root, config, trap)
      : { reason: "unshare or setpriv (util-linux) is missing" };
    if ("code" in inside) return inside.code;
    const { reason } = inside;
    const say = sayTo(process.stderr);
    if (config.sandbox === "require") {
      say(`no working sandbox: cannot confine the workspace: ${reason}`);
      return ExitCode.failure;
    }
    say(`warning: the workspace has no size or file limit: ${reason}`);
  } finally {
    trap.release();
    removeTree(root);
  }
  // Loaded only here and inside: the outer process stays small and starts fast.
  const { runWorker } = await import("./flow.js");
  return runWorker({ ...config, ...streams() });
}

/**
 * This package's worker started by its client directly inside its namespaces (the built-in local
 * worker): one node process fewer on a local review's critical path than `git review-remote worker`,
 * which would start only to start this. `args` are the worker's flags, which it parses itself, as
 * that command would; `mounts` what they ask for (mountsForArgs: the same parser's reading of them).
 *
 * To the transport it looks like a child process: stdin, stdout, stderr, a process group, and
 * `close` with the worker's exit code as soon as the worker has exited: the rest of the chain is
 * then killed, and the kernel drops the tmpfs without anyone waiting. `started` is false when the
 * namespaces or the tmpfs were refused: nothing was read from stdin, no `close` comes, and the
 * caller runs `git review-remote worker`, which falls back or refuses and says why.
 */
export class ConfinedWorker extends EventEmitter {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly pid: number | undefined;
  readonly started: Promise<boolean>;

  constructor(args: readonly string[], mounts: Mounts, cwd: string, env: NodeJS.ProcessEnv) {
    super();
    removeStaleWorkspaces();
    const root = createWorkspaceRoot();
    // The worker parses `args` itself: reviewer commands, if they name any, need their /tmp.
    const [file, ...rest] = workerChain(root, mounts, args);
    const child = spawn(file as string, rest, {
      cwd,
      env: { ...env, [CONFINED_ENV]: JSON.stringify({ root }) },
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
    });
    holdRootGuard(child);
    this.pid = child.pid;
    this.stdin = child.stdio[0] as Writable;
    const output = new Relay(child.stdio[1] as Readable);
    const errors = new Relay(child.stdio[4] as Readable);
    this.stdout = output.stream;
    this.stderr = errors.stream;
    const setup = child.stdio[2] as Readable;
    const status = child.stdio[3] as Readable;
    setup.resume();
    let started = false;
    let code: number | undefined;
    let onStarted: (started: boolean) => void = () => undefined;
    this.started = new Promise((resolve) => {
      onStarted = resolve;
    });
    const release = () => {
      setup.destroy();
      status.destroy();
      child.unref();
      removeTree(root);
    };
    watchStatus(status, {
      started: () => {
        started = true;
        onStarted(true);
      },
      exited: (exit) => {
        code = exit;
        // The worker is gone and all it wrote is in the pipes: take it now and end the chain, rather
        // than wait for the pipes to close, which comes only after the kernel has dropped the
        // namespace's tmpfs (0.1 s for a 27k-file tree).
        output.finish();
        errors.finish();
        killGroup(this.pid, "SIGKILL");
        void Promise.all([output.ended, errors.ended]).then(() => {
          release();
          this.emit("close", code, null);
        });
      },
    });
    child.on("error", (error) => {
      if (started) this.emit("error", error);
      else onStarted(false);
    });
    child.on("close", (exitCode, signal) => {
      if (code !== undefined) return;
      release();
      if (started) {
        // Closed without saying its exit (killed): what the pipes held is all there is.
        output.finish();
        errors.finish();
        void Promise.all([output.ended, errors.ended]).then(() => this.emit("close", exitCode, signal));
        return;
      }
      for (const stream of [this.stdin, this.stdout, this.stderr]) stream.destroy();
      onStarted(false);
    });
  }
}

/**
 * A pipe from the worker, passed on as read. `finish` takes what the pipe still holds without waiting
 * for its end: once the worker has exited, everything it wrote is in the pipe, and the end comes only
 * when every process holding the pipe is gone. `ended` resolves when the stream has been read to its end.
 */
class Relay {
  readonly stream = new PassThrough();
  readonly ended: Promise<void>;
  private done = false;

  constructor(private readonly pipe: Readable) {
    pipe.pipe(this.stream, { end: false });
    pipe.on("end", () => this.finish());
    pipe.on("error", () => this.finish());
    this.ended = new Promise((resolve) => {
      this.stream.once("end", resolve).once("close", resolve);
    });
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    this.pipe.unpipe(this.stream);
    for (let chunk = this.pipe.read() as Buffer | null; chunk !== null; chunk = this.pipe.read())
      this.stream.write(chunk);
    const fd = (this.pipe as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (typeof fd === "number" && fd >= 0) drainPipe(fd, (chunk) => this.stream.write(chunk));
    this.pipe.destroy();
    this.stream.end();
  }
}
