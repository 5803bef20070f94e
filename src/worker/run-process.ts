// Runs one program in its own process group with a hard deadline enforced here, in the worker: killing
// the local ssh client does not stop a remote command, so the worker must stop its reviewer itself.

import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { killGroup } from "../os/process.js";
import type { Command } from "./sandbox.js";

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  /** Capture stdout up to this many bytes (the rest is dropped); otherwise it goes to `onOutput`. */
  captureStdoutBytes?: number;
  /** Progress text from the program (stderr, and stdout when not captured). */
  onOutput?: (text: string) => void;
  /** Bytes of progress text passed on before the rest is dropped. */
  maxOutputBytes?: number;
  /** Called with a function that kills the process group, e.g. for signal handlers. */
  onSpawn?: (kill: () => void) => void;
  /** Called with the program's stdin (a pipe) when given; otherwise stdin is empty. */
  onStdin?: (stdin: Writable) => void;
  /** The request's deadline: when it aborts, the group is killed as on a timeout. */
  signal?: AbortSignal;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Killed at `timeoutMs` or when `signal` aborted. */
  timedOut: boolean;
  stdout: Buffer;
  /** Spawn failure (program not found...). */
  error?: Error;
}

const GRACE_MS = 1000;

export function runProcess(command: Command, options: RunOptions): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command.file, command.args, {
      cwd: options.cwd,
      env: command.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    // A program that exits early closes its stdin: its exit status says why, not an EPIPE.
    child.stdin.on("error", () => undefined);
    if (options.onStdin) options.onStdin(child.stdin);
    else child.stdin.end();
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let progressBytes = 0;
    let timedOut = false;
    let settled = false;
    const progress = (chunk: Buffer) => {
      const max = options.maxOutputBytes ?? 1024 * 1024;
      if (progressBytes >= max) return;
      const part = chunk.subarray(0, max - progressBytes);
      progressBytes += part.length;
      options.onOutput?.(part.toString("utf8"));
      if (progressBytes >= max) options.onOutput?.("\n[further reviewer output dropped]\n");
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (options.captureStdoutBytes === undefined) return progress(chunk);
      const room = options.captureStdoutBytes - stdoutBytes;
      if (room > 0) stdout.push(chunk.subarray(0, room));
      stdoutBytes += Math.min(room, chunk.length);
    });
    child.stderr.on("data", progress);
    options.onSpawn?.(() => killGroup(child.pid));
    const stop = () => {
      timedOut = true;
      killGroup(child.pid);
    };
    const timer = setTimeout(stop, options.timeoutMs);
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener("abort", stop, { once: true });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", stop);
      // Whatever the leader left behind in its group goes too (daemons, background jobs).
      killGroup(child.pid);
      resolve({ exitCode, signal, timedOut, stdout: Buffer.concat(stdout), ...(error ? { error } : {}) });
    };
    child.on("error", (error) => finish(null, null, error));
    child.on("exit", (code, signal) => {
      // Let the pipes drain, but a grandchild holding them open must not keep us waiting.
      const grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, GRACE_MS);
      child.on("close", () => {
        clearTimeout(grace);
        finish(code, signal);
      });
    });
  });
}
