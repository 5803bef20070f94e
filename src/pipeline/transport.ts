// Runs the worker command (`sh -c`, as git runs core.sshCommand): the envelope goes to its stdin,
// the result comes back on its stdout under a size cap, its stderr is shown as `remote: <line>`.
// The command may have been started before its envelope was ready (StartedWorker): it then waits on
// an open, empty stdin, and nothing reaches it until the transport writes the envelope.
import { type ChildProcess, spawn } from "node:child_process";
import type { EventEmitter } from "node:events";
import { open } from "node:fs/promises";
import type { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { abortedWith, InvalidResultError, WorkerError } from "../errors.js";
import { ownIdentityEnv } from "../git/identity.js";
import type { Env } from "../git/run.js";
import { messages } from "../messages.js";
import { killGroup } from "../os/process.js";
import type { Repo } from "../repo.js";
import { sanitizeLine } from "../validate/sanitize.js";
import { ConfinedWorker, canConfine, mountsForArgs } from "../worker/confine.js";
import { sshProbe } from "./ssh-probe.js";
import type { Worker } from "./workers.js";

export interface TransportOptions {
  /** The shell command that reaches the worker. */
  command: string;
  workerName: string;
  cwd: string;
  env: Env;
  header: Buffer;
  bundlePath: string;
  bundleBytes: number;
  maxResultBytes: number;
  timeoutSeconds: number;
  /** The setting the timeout came from, for the message when it runs out. */
  timeoutSetting: string;
  /** True when the line was shown as it came: a failure's details repeat only the lines that were not. */
  onStderrLine(line: string): boolean;
  onProgress?(sentBytes: number): void;
  /**
   * The whole envelope is written (every write done, stdin ended): the worker has it, and this
   * process has nothing to do until it answers.
   */
  onSent?(): void;
  signal?: AbortSignal;
  /** The command already started, with the same command, cwd and env. */
  started?: StartedWorker;
}

const KILL_GRACE_MS = 2000;

/** After a timeout's SIGTERM, SIGKILL comes a tenth of the limit later, at most KILL_GRACE_MS. */
function killGraceMs(timeoutSeconds: number): number {
  return Math.min(KILL_GRACE_MS, timeoutSeconds * 100);
}
const KEPT_STDERR_LINES = 10;
const MAX_STDERR_LINE = 64 * 1024;
/** What git says when `git review-remote` finds no git-review-remote on its PATH. */
const NOT_A_GIT_COMMAND = /^git: 'review-remote' is not a git command/;
/**
 * What ssh says when it would have asked on a terminal, which the worker's command has not (it
 * runs in a session of its own): whether to trust a new host key, or for a password or passphrase.
 */
const SSH_WOULD_ASK: readonly [RegExp, (probe?: string) => string][] = [
  [/Host key verification failed\.$/, messages.hintSshHostKey],
  [/Permission denied \(.*\)\.?$/, messages.hintSshNoPrompt],
];

/**
 * What ssh says when it made no connection at all (exit 255): the host's name did not resolve, or
 * nothing answered on its port. No worker ran, so no answer is coming to import.
 */
const SSH_NO_CONNECTION =
  /^ssh: (?:Could not resolve hostname |connect to host .* port \d+: (?:Connection refused|Connection timed out|No route to host|Network is unreachable)$)/;

/** Bytes read from the bundle at a time, into each of two buffers used in turn. */
const SEND_CHUNK = 256 * 1024;

/**
 * The bundle through two reused buffers, one read while the other is written: memory stays flat in
 * the bundle's size. A read stream hands out a new buffer per chunk, and those wait for a garbage
 * collection that external memory alone does not bring soon (about 20 MB of them for a 17 MB bundle).
 */
async function pumpBundle(path: string, stdin: Writable, onSent: (bytes: number) => void): Promise<void> {
  const file = await open(path, "r");
  try {
    const buffers = [Buffer.allocUnsafe(SEND_CHUNK), Buffer.allocUnsafe(SEND_CHUNK)];
    // Each write settles its promise either way: a refused write (the worker gone) must not be a
    // rejection nobody awaits yet while the other buffer is being read.
    let refused: Error | undefined;
    const writes: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    for (let turn = 0; ; turn = 1 - turn) {
      await writes[turn];
      if (refused) throw refused;
      const buffer = buffers[turn] as Buffer;
      const { bytesRead } = await file.read(buffer, 0, SEND_CHUNK, null);
      if (bytesRead === 0) break;
      writes[turn] = new Promise((resolve) =>
        stdin.write(buffer.subarray(0, bytesRead), (error) => {
          refused ??= error ?? undefined;
          resolve();
        }),
      );
      onSent(bytesRead);
    }
    await Promise.all(writes);
    if (refused) throw refused;
  } finally {
    await file.close();
  }
  stdin.end();
}

function streamEnvelope(child: WorkerProcess, options: TransportOptions): void {
  const stdin = child.stdin;
  if (!stdin) return;
  // A worker that exits early closes its stdin: that is its exit status's business, not a crash.
  stdin.on("error", () => undefined);
  stdin.write(options.header);
  let sent = options.header.length;
  pumpBundle(options.bundlePath, stdin, (bytes) => {
    sent += bytes;
    options.onProgress?.(sent);
  })
    .then(() => options.onSent?.())
    .catch((error: NodeJS.ErrnoException) => {
      // Our own file unreadable: the worker must not answer a partial envelope. A write refused (the
      // worker exited early) is its exit status's business.
      if (error.syscall === "open" || error.syscall === "read") killGroup(child.pid, "SIGKILL");
    });
}

type Ending = [code: number | null, signal: NodeJS.Signals | null];

/** A worker's process as the transport drives it: a child process, or the local ConfinedWorker. */
export interface WorkerProcess extends EventEmitter {
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly pid?: number | undefined;
}

/**
 * The lines run before a configured command, in its `sh -c`: a background reader of fd 3, a pipe
 * whose other end only this process holds, that kills the command's whole process group when the
 * pipe ends. It ends when this process closes it, once the command has exited, or when this process
 * dies, SIGKILL included. Without it a client killed outright left its command behind: the shell
 * (dash stays its command's parent) and `ssh`, whose connection kept the remote worker reviewing to
 * its deadline. The reader's own stdio is /dev/null, so the command's pipes end with the command.
 */
const GROUP_GUARD = "{ read _ <&3; kill -s KILL 0; } </dev/null >/dev/null 2>&1 &\nexec 3<&-\n";

/** The command under its guard: `sh -c`, as git runs core.sshCommand, and fd 3 for the guard. */
function spawnGuarded(command: string, cwd: string, env: Env): ChildProcess {
  const child = spawn("sh", ["-c", GROUP_GUARD + command], {
    cwd,
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe"],
  });
  const guard = child.stdio[3] as Socket | null;
  guard?.unref();
  // The command is done: what it left running in its group goes (and the pipes can end).
  child.once("exit", () => guard?.destroy());
  child.once("error", () => guard?.destroy());
  return child;
}

/**
 * A worker command started with nothing on its stdin yet: its stdout and stderr stay unread (the pipes
 * hold what it writes) until runTransport takes it, or `cancel` stops it. The built-in worker is
 * started inside its namespaces directly (`local`); where they cannot be made, its command runs
 * instead, which says why.
 */
export class StartedWorker {
  private process!: WorkerProcess;
  /** Kept from the moment of the spawn, so that neither is lost before the transport listens. */
  spawnError: Error | undefined;
  ending: Ending | undefined;
  private taken = false;
  private readonly settled: Promise<void>;

  constructor(command: string, cwd: string, env: Env, local?: { args: readonly string[] }) {
    const spawnCommand = () => {
      this.watch(spawnGuarded(command, cwd, env));
    };
    const mounts = local && canConfine() ? mountsForArgs(local.args) : undefined;
    if (local && mounts) {
      const confined = new ConfinedWorker(local.args, mounts, cwd, env);
      this.watch(confined);
      this.settled = confined.started.then((started) => {
        if (!started) spawnCommand();
      });
    } else {
      spawnCommand();
      this.settled = Promise.resolve();
    }
  }

  private watch(process: WorkerProcess): void {
    this.process = process;
    this.spawnError = undefined;
    process.once("error", (error: Error) => {
      this.spawnError ??= error;
    });
    process.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
      this.ending = [code, signal];
    });
  }

  /** Once it is known which process serves the request (the confined start may fall back). */
  ready(): Promise<void> {
    return this.settled;
  }

  /** The transport's from now on: `cancel` no longer touches it. */
  take(): WorkerProcess {
    this.taken = true;
    return this.process;
  }

  /** Never sent an envelope: SIGTERM to its group (a worker removes its workspace), SIGKILL after the grace. */
  async cancel(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    await this.settled;
    const child = this.process;
    return new Promise((resolve) => {
      if (this.ending || child.pid === undefined) return resolve();
      const kill = setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
      child.once("close", () => {
        clearTimeout(kill);
        resolve();
      });
      child.stdin?.destroy();
      child.stdout?.resume();
      child.stderr?.resume();
      killGroup(child.pid, "SIGTERM");
    });
  }
}

/**
 * The worker command gets the user's environment, not the repository we resolved, nor the user's
 * GIT_AUTHOR_* and GIT_COMMITTER_* identity: a worker's commits never carry it (§6).
 */
export function userEnv(env: Env): Env {
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...rest } = env;
  return ownIdentityEnv(rest, {});
}

/** Where the worker command runs: the top of the work tree. */
export function workerCwd(repo: Repo): string {
  return repo.top ?? repo.cwd;
}

/**
 * The built-in worker's command started now, to be sent its envelope later (or cancelled). It starts
 * before its review has an id, so without REVIEW_REMOTE_ID, which only a configured recipe uses.
 */
export function startWorker(repo: Repo, worker: Worker, local?: { args: readonly string[] }): StartedWorker {
  return new StartedWorker(worker.command, workerCwd(repo), userEnv(repo.env), local);
}

export async function runTransport(options: TransportOptions): Promise<Buffer> {
  if (options.signal?.aborted) throw abortedWith(options.signal, messages.interruptedBeforeSend);
  const started = options.started ?? new StartedWorker(options.command, options.cwd, options.env);
  await started.ready();
  return new Promise((resolve, reject) => {
    const child = started.take();
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    /** The last lines not shown as they came, for a failure's details. */
    const lastLines: string[] = [];
    let partial = "";
    let failure: Error | undefined;
    /** git said the worker host has no `git review-remote`. */
    let noGitCommand = false;
    /** ssh said it made no connection. */
    let noSshConnection = false;
    /** What ssh would have asked on a terminal, as hints. */
    const sshHints = new Set<string>();

    const stop = (error: Error) => {
      failure ??= error;
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), killGraceMs(options.timeoutSeconds)).unref();
    };
    const emitLine = (raw: string) => {
      // Blanks at the end of a line show nothing and only trail after `remote: ` (a reviewer's lines
      // of indentation between diagnostics): a blank line is an empty one, which git's sideband
      // shows as `remote: ` and its line break.
      const line = sanitizeLine(raw).trimEnd();
      if (NOT_A_GIT_COMMAND.test(line)) noGitCommand = true;
      if (SSH_NO_CONNECTION.test(line)) noSshConnection = true;
      for (const [words, hint] of SSH_WOULD_ASK)
        if (words.test(line)) sshHints.add(hint(sshProbe(options.command)));
      if (options.onStderrLine(line)) return;
      lastLines.push(line);
      if (lastLines.length > KEPT_STDERR_LINES) lastLines.shift();
    };

    // The limit is the whole of it: a worker that ran out of time answers within it (this package's
    // keeps a margin to), and one that has not answered when it is over is stopped.
    const timer = setTimeout(
      () =>
        stop(
          new WorkerError(
            messages.workerTimedOut(options.workerName, options.timeoutSeconds, options.timeoutSetting),
            { hints: [messages.hintMoreTime] },
          ),
        ),
      options.timeoutSeconds * 1000,
    );
    const onAbort = () => stop(abortedWith(options.signal, messages.interruptedWorkerStopped));
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout?.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxResultBytes) {
        // Validation layer 1, applied while reading: an oversized result is an invalid result.
        stop(new InvalidResultError(messages.resultTooLarge(options.workerName, options.maxResultBytes)));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) emitLine(line);
      // A worker that never ends a line must not grow our memory: show what we have and go on.
      if (partial.length > MAX_STDERR_LINE) {
        emitLine(partial.slice(0, MAX_STDERR_LINE));
        partial = "";
      }
    });
    const notStarted = (error: Error) =>
      stop(new WorkerError(messages.workerNotStarted(error.message), { cause: error }));
    if (started.spawnError) notStarted(started.spawnError);
    child.on("error", notStarted);
    const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (partial) emitLine(partial);
      if (failure) return reject(failure);
      if (code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
        const exited = new WorkerError(messages.workerExited(options.workerName, how), {
          details: lastLines.map((line) => `remote: ${line}`),
          // 127: sh (or the remote shell behind ssh) found no such program; git's own words
          // (exit 1) when `git review-remote worker` found no git-review-remote on its PATH.
          hints: [
            messages.hintCheckWorkerCommand(options.workerName),
            ...(code === 127 ? [messages.hintInstallWorker] : []),
            ...(noGitCommand ? [messages.hintInstallGitWorker] : []),
            ...(code === 255 ? sshHints : []),
          ],
        });
        exited.noWorkerRan =
          code === 127 || noGitCommand || (code === 255 && (sshHints.size > 0 || noSshConnection));
        return reject(exited);
      }
      resolve(Buffer.concat(stdout, stdoutBytes));
    };
    // A command that already ended before it was sent anything (and wrote nothing) closed unheard.
    if (started.ending) setImmediate(onClose, ...started.ending);
    else child.on("close", onClose);
    streamEnvelope(child, options);
  });
}
