// Runs the worker command (`sh -c`, as git runs core.sshCommand): the envelope goes to its stdin,
// the result comes back on its stdout under a size cap, its stderr is shown as `remote: <line>`.
import { type ChildProcess, spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { InterruptedError, InvalidResultError, WorkerError } from "../errors.js";
import type { Env } from "../git/run.js";
import { messages } from "../messages.js";
import { killGroup } from "../os/process.js";
import { WORKER_ANSWER_MARGIN_SECONDS } from "../protocol/limits.js";
import { sanitizeLine } from "../validate/sanitize.js";

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
  onStderrLine(line: string): void;
  onProgress?(sentBytes: number): void;
  signal?: AbortSignal;
}

const KILL_GRACE_MS = 2000;
const KEPT_STDERR_LINES = 10;
const MAX_STDERR_LINE = 64 * 1024;

function streamEnvelope(child: ChildProcess, options: TransportOptions): void {
  const stdin = child.stdin;
  if (!stdin) return;
  // A worker that exits early closes its stdin: that is its exit status's business, not a crash.
  stdin.on("error", () => undefined);
  stdin.write(options.header);
  let sent = options.header.length;
  const bundle = createReadStream(options.bundlePath);
  bundle.on("data", (chunk) => {
    sent += chunk.length;
    options.onProgress?.(sent);
  });
  bundle.on("error", () => killGroup(child.pid, "SIGKILL"));
  bundle.pipe(stdin);
}

export function runTransport(options: TransportOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new InterruptedError(messages.interruptedBeforeSend));
      return;
    }
    const child = spawn("sh", ["-c", options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const lastLines: string[] = [];
    let partial = "";
    let failure: Error | undefined;

    const stop = (error: Error) => {
      failure ??= error;
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
    };
    const emitLine = (raw: string) => {
      const line = sanitizeLine(raw);
      lastLines.push(line);
      if (lastLines.length > KEPT_STDERR_LINES) lastLines.shift();
      options.onStderrLine(line);
    };

    // The worker answers a request that ran out of time itself, with the reason: give it the time to.
    const timer = setTimeout(
      () => stop(new WorkerError(messages.workerTimedOut(options.workerName, options.timeoutSeconds))),
      (options.timeoutSeconds + 2 * WORKER_ANSWER_MARGIN_SECONDS) * 1000,
    );
    const onAbort = () => stop(new InterruptedError(messages.interruptedWorkerStopped));
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
    child.on("error", (error) =>
      stop(new WorkerError(messages.workerNotStarted(error.message), { cause: error })),
    );
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (partial) emitLine(partial);
      if (failure) return reject(failure);
      if (code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
        return reject(
          new WorkerError(messages.workerExited(options.workerName, how), {
            details: lastLines.map((line) => `remote: ${line}`),
            hints: [messages.hintCheckWorkerCommand(options.workerName)],
          }),
        );
      }
      resolve(Buffer.concat(stdout, stdoutBytes));
    });
    streamEnvelope(child, options);
  });
}
