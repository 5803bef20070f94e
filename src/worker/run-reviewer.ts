// Runs an external reviewer (`--reviewer-command`) under the reviewer contract of design §8: cwd is the
// tree, REVIEW_REMOTE_* tell it what to do, the sandbox confines it, and the deadline kills its group.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { WORKER_IDENTITY } from "./baseline.js";
import type { Deadline } from "./deadline.js";
import type { FocusFiles } from "./focus-files.js";
import { runProcess } from "./run-process.js";
import {
  nodePrefix,
  type ResourceLimits,
  SANDBOX_PATH,
  type Sandbox,
  type SandboxSpec,
  sandboxCommand,
} from "./sandbox.js";
import { toolsOutOfReach } from "./tools-reach.js";

export interface ReviewerIo {
  tree: string;
  /** The worker's directory of these files (traversable, not listable, by the reviewer). */
  dir: string;
  requestFile: string;
  commentsFile: string;
  /** $REVIEW_REMOTE_OUTPUT: where a reviewer may write its report instead of stdout. */
  outputFile: string;
  /** $REVIEW_REMOTE_SUMMARY: where a reviewer may write its summary. */
  summaryFile: string;
  /** A focused review's changed paths and lines; absent for a whole-tree review. */
  focus?: FocusFiles | undefined;
  /** HOME/TMPDIR when there is no sandbox (inside one, /tmp is private). */
  home: string;
  /** The scratch tmpfs whose tmp/ and shm/ become the sandbox's /tmp and /dev/shm, when there is one. */
  scratch?: string;
}

/** What the worker host grants every program it runs confined in the tree (setup and reviewers). */
export interface Grants {
  /** `--tools` directories: bound read-only at the same path, their bin/ first on PATH. */
  tools: readonly string[];
  /** The host network (`--network`, `--setup-network`); otherwise none. */
  network: boolean;
}

/** What every step of the reviewer phase (setup, each reviewer) runs under, and where it reports. */
export interface ReviewerPhase {
  sandbox: Sandbox;
  /** The request's one deadline. */
  deadline: Deadline;
  /** A `remote:` warning. */
  warn: (line: string) => void;
  /** A child's output, shown as it comes. */
  onOutput: (text: string) => void;
  /** Each child spawned, with the way to kill its group. */
  onSpawn: (kill: () => void) => void;
}

/** The phase's part of a larger context, handed on to the next step. */
export function reviewerPhase(ctx: ReviewerPhase): ReviewerPhase {
  const { sandbox, deadline, warn, onOutput, onSpawn } = ctx;
  return { sandbox, deadline, warn, onOutput, onSpawn };
}

export interface ReviewerRun {
  command: string;
  question: string;
  sandbox: Sandbox;
  io: ReviewerIo;
  grants: Grants;
  /** Capture stdout (the report of a declared format) up to this many bytes instead of showing it. */
  captureStdoutBytes?: number;
  timeoutMs: number;
  /** The limit behind `timeoutMs`, named in the message when the reviewer runs out of it. */
  timeLimit: string;
  limits: ResourceLimits;
  onOutput: (text: string) => void;
  onSpawn?: (kill: () => void) => void;
}

export type ReviewerOutcome =
  | { ok: true; exitCode: number; stdout: Buffer }
  | { ok: false; error: string; exitCode?: number; stdout?: Buffer };

/** Node-based reviewers cannot live under `ulimit -v`; cap their heap instead (design §8). */
const NODE_HEAP_MB = 2048;

/** PATH in the tree: each tools directory's bin/ and node_modules/.bin first, in the order given. */
export function toolsPath(sandbox: Sandbox, tools: readonly string[]): string {
  const prefix = nodePrefix();
  const sandboxed = sandbox.kind !== "none";
  const basePath = sandboxed ? SANDBOX_PATH : (process.env.PATH ?? SANDBOX_PATH);
  const first = tools.flatMap((dir) => [join(dir, "bin"), join(dir, "node_modules", ".bin")]);
  if (prefix && sandboxed) first.push(`${prefix}/bin`);
  return [...first, basePath].join(":");
}

/** The environment of a program run in the tree: nothing inherited from the worker, so no token leaks in. */
export function treeEnv(
  sandbox: Sandbox,
  io: Pick<ReviewerIo, "home">,
  grants: Grants,
): Record<string, string> {
  const sandboxed = sandbox.kind !== "none";
  return {
    PATH: toolsPath(sandbox, grants.tools),
    HOME: sandboxed ? "/tmp" : io.home,
    TMPDIR: sandboxed ? "/tmp" : io.home,
    LANG: "C.UTF-8",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    NODE_OPTIONS: `--max-old-space-size=${NODE_HEAP_MB}`,
    ...WORKER_IDENTITY,
  };
}

/** The environment a reviewer sees: the tree's, and the REVIEW_REMOTE_* contract. */
export function reviewerEnv(
  run: Pick<ReviewerRun, "question" | "sandbox" | "io" | "grants">,
): Record<string, string> {
  return {
    ...treeEnv(run.sandbox, run.io, run.grants),
    REVIEW_REMOTE_QUESTION: run.question,
    REVIEW_REMOTE_REQUEST: run.io.requestFile,
    REVIEW_REMOTE_COMMENTS: run.io.commentsFile,
    REVIEW_REMOTE_OUTPUT: run.io.outputFile,
    REVIEW_REMOTE_SUMMARY: run.io.summaryFile,
    ...(run.io.focus
      ? {
          REVIEW_REMOTE_CHANGED: run.io.focus.changed,
          REVIEW_REMOTE_CHANGED_LINES: run.io.focus.changedLines,
        }
      : {}),
  };
}

function describeFailure(
  outcome: { exitCode: number | null; signal: NodeJS.Signals | null; error?: Error },
  limits: ResourceLimits,
  sandboxed: boolean,
): string {
  if (outcome.error) return `the reviewer could not be started: ${outcome.error.message}`;
  // SIGXFSZ is signal 25; a shell reports a child killed by it as exit 128 + 25.
  if (outcome.signal === "SIGXFSZ" || outcome.exitCode === 128 + 25) {
    return `the reviewer was stopped by the file size limit (${limits.fileSizeBytes} bytes per file)`;
  }
  if (outcome.signal) return `the reviewer was killed by ${outcome.signal}`;
  // The shell's code for a command it could not find: in a sandbox, most often a tool the host has
  // somewhere the sandbox does not show (`sh: 1: biome: not found` is on a remote: line above).
  if (outcome.exitCode === 127) {
    return sandboxed
      ? "the reviewer exited with code 127: a command was not found in the sandbox, which sees /usr, node and --tools DIR (DIR/bin and DIR/node_modules/.bin first on PATH)"
      : "the reviewer exited with code 127: a command was not found on PATH";
  }
  return `the reviewer exited with code ${outcome.exitCode}`;
}

/** A program confined in the tree: the tree writable, the tools read-only, network only if granted. */
export function treeSpec(
  io: Pick<ReviewerIo, "tree" | "scratch">,
  grants: Grants,
  spec: Omit<SandboxSpec, "cwd" | "network">,
): SandboxSpec {
  return {
    ...spec,
    cwd: io.tree,
    readOnly: [...spec.readOnly, ...grants.tools],
    network: grants.network,
    ...(io.scratch ? { scratch: io.scratch } : {}),
  };
}

export async function runReviewer(run: ReviewerRun): Promise<ReviewerOutcome> {
  const unreachable = toolsOutOfReach(run.sandbox, run.grants.tools);
  if (unreachable) return { ok: false, error: unreachable };
  const command = sandboxCommand(
    run.sandbox,
    treeSpec(run.io, run.grants, {
      argv: ["sh", "-c", run.command],
      writable: [run.io.tree, run.io.commentsFile, run.io.outputFile, run.io.summaryFile],
      readOnly: [
        run.io.requestFile,
        ...(run.io.focus ? [run.io.focus.changed, run.io.focus.changedLines] : []),
      ],
      env: reviewerEnv(run),
      limits: run.limits,
    }),
  );
  const outcome = await runProcess(command, {
    cwd: run.io.tree,
    timeoutMs: run.timeoutMs,
    onOutput: run.onOutput,
    ...(run.captureStdoutBytes !== undefined ? { captureStdoutBytes: run.captureStdoutBytes } : {}),
    ...(run.onSpawn ? { onSpawn: run.onSpawn } : {}),
  });
  if (outcome.timedOut) {
    return {
      ok: false,
      error: `the reviewer timed out after ${Math.round(run.timeoutMs / 1000)} s and was killed (${run.timeLimit})`,
    };
  }
  if (outcome.exitCode === 0) return { ok: true, exitCode: 0, stdout: outcome.stdout };
  const failed = {
    ok: false as const,
    error: describeFailure(outcome, run.limits, run.sandbox.kind !== "none"),
    stdout: outcome.stdout,
  };
  // 126 and 127: the shell could not run the program; above 128: killed by a signal.
  const code = outcome.exitCode;
  return code === null || code >= 126 || outcome.error ? failed : { ...failed, exitCode: code };
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
