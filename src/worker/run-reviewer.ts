// Runs an external reviewer (`--reviewer-command`) under the reviewer contract of design §8: cwd is the
// tree, REVIEW_REMOTE_* tell it what to do, the sandbox confines it, and the deadline kills its group.

import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { WORKER_IDENTITY } from "./baseline.js";
import type { FocusFiles } from "./focus-files.js";
import { runProcess } from "./run-process.js";
import { nodePrefix, type ResourceLimits, SANDBOX_PATH, type Sandbox, sandboxCommand } from "./sandbox.js";

export interface ReviewerIo {
  tree: string;
  requestFile: string;
  commentsFile: string;
  /** A focused review's changed paths and lines; absent for a whole-tree review. */
  focus?: FocusFiles | undefined;
  /** HOME/TMPDIR when there is no sandbox (inside one, /tmp is private). */
  home: string;
  /** The scratch tmpfs whose tmp/ and shm/ become the sandbox's /tmp and /dev/shm, when there is one. */
  scratch?: string;
}

export interface ReviewerRun {
  command: string;
  question: string;
  sandbox: Sandbox;
  io: ReviewerIo;
  timeoutMs: number;
  /** The limit behind `timeoutMs`, named in the message when the reviewer runs out of it. */
  timeLimit: string;
  limits: ResourceLimits;
  onOutput: (text: string) => void;
  onSpawn?: (kill: () => void) => void;
}

export type ReviewerOutcome = { ok: true } | { ok: false; error: string };

/** Node-based reviewers cannot live under `ulimit -v`; cap their heap instead (design §8). */
const NODE_HEAP_MB = 2048;

/** The environment a reviewer sees: nothing inherited from the worker, so no token can leak in. */
export function reviewerEnv(run: Pick<ReviewerRun, "question" | "sandbox" | "io">): Record<string, string> {
  const prefix = nodePrefix();
  const sandboxed = run.sandbox.kind !== "none";
  const basePath = sandboxed ? SANDBOX_PATH : (process.env.PATH ?? SANDBOX_PATH);
  return {
    PATH: prefix && sandboxed ? `${prefix}/bin:${basePath}` : basePath,
    HOME: sandboxed ? "/tmp" : run.io.home,
    TMPDIR: sandboxed ? "/tmp" : run.io.home,
    LANG: "C.UTF-8",
    REVIEW_REMOTE_QUESTION: run.question,
    REVIEW_REMOTE_REQUEST: run.io.requestFile,
    REVIEW_REMOTE_COMMENTS: run.io.commentsFile,
    ...(run.io.focus
      ? {
          REVIEW_REMOTE_CHANGED: run.io.focus.changed,
          REVIEW_REMOTE_CHANGED_LINES: run.io.focus.changedLines,
        }
      : {}),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    NODE_OPTIONS: `--max-old-space-size=${NODE_HEAP_MB}`,
    ...WORKER_IDENTITY,
  };
}

/**
 * Directories of the programs and scripts a command line names by absolute path (`/opt/r/review.sh`,
 * `node /opt/r/index.js`): bound read-only into the sandbox so the operator's reviewer can run there.
 */
export function commandProgramDirs(command: string): string[] {
  const dirs = new Set<string>();
  for (const word of command.split(/\s+/)) {
    const path = word.replace(/^['"]+/, "").replace(/['";&|)]+$/, "");
    if (!isAbsolute(path) || !statSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    const dir = dirname(path);
    if (dir !== "/") dirs.add(dir);
  }
  return [...dirs];
}

function describeFailure(
  outcome: { exitCode: number | null; signal: NodeJS.Signals | null; error?: Error },
  limits: ResourceLimits,
): string {
  if (outcome.error) return `the reviewer could not be started: ${outcome.error.message}`;
  // SIGXFSZ is signal 25; a shell reports a child killed by it as exit 128 + 25.
  if (outcome.signal === "SIGXFSZ" || outcome.exitCode === 128 + 25) {
    return `the reviewer was stopped by the file size limit (${limits.fileSizeBytes} bytes per file)`;
  }
  if (outcome.signal) return `the reviewer was killed by ${outcome.signal}`;
  return `the reviewer exited with code ${outcome.exitCode}`;
}

export async function runReviewer(run: ReviewerRun): Promise<ReviewerOutcome> {
  const programDirs = commandProgramDirs(run.command);
  const command = sandboxCommand(run.sandbox, {
    argv: ["sh", "-c", run.command],
    cwd: run.io.tree,
    writable: [run.io.tree, run.io.commentsFile],
    readOnly: [
      run.io.requestFile,
      ...(run.io.focus ? [run.io.focus.changed, run.io.focus.changedLines] : []),
      ...programDirs,
    ],
    env: reviewerEnv(run),
    limits: run.limits,
    ...(run.io.scratch ? { scratch: run.io.scratch } : {}),
  });
  const outcome = await runProcess(command, {
    cwd: run.io.tree,
    timeoutMs: run.timeoutMs,
    onOutput: run.onOutput,
    ...(run.onSpawn ? { onSpawn: run.onSpawn } : {}),
  });
  if (outcome.timedOut) {
    return {
      ok: false,
      error: `the reviewer timed out after ${Math.round(run.timeoutMs / 1000)} s and was killed (${run.timeLimit})`,
    };
  }
  if (outcome.exitCode === 0) return { ok: true };
  return { ok: false, error: describeFailure(outcome, run.limits) };
}

/** The reviewer's HEAD, read with git confined like the reviewer (its .git/config is untrusted). */
export async function readReviewerHead(sandbox: Sandbox, io: ReviewerIo, timeoutMs: number): Promise<string> {
  const command = sandboxCommand(sandbox, {
    argv: ["git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
    cwd: io.tree,
    writable: [],
    readOnly: [io.tree],
    env: {
      PATH: SANDBOX_PATH,
      HOME: sandbox.kind === "none" ? io.home : "/tmp",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      LC_ALL: "C",
    },
  });
  const outcome = await runProcess(command, { cwd: io.tree, timeoutMs, captureStdoutBytes: 200 });
  const head = outcome.stdout.toString("utf8").trim();
  if (outcome.exitCode !== 0 || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(head)) {
    throw new Error("the reviewer left the repository without a valid HEAD commit");
  }
  return head;
}

/** `chown -R` of the tree to the sandbox user (never following symlinks); killed when `signal` aborts. */
export function chownTree(
  paths: readonly string[],
  user: { uid: number; gid: number },
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("chown", ["-R", "-P", "-h", `${user.uid}:${user.gid}`, "--", ...paths], {
      stdio: ["ignore", "ignore", "pipe"],
      ...(signal ? { signal, killSignal: "SIGKILL" as const } : {}),
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`chown failed: ${stderr.trim()}`)),
    );
  });
}
