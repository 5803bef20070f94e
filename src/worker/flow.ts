// The worker's flow (design §8): envelope in → verify → unpack → review the tree (baseline →
// reviewer → collect) → one result document out, all of it under one deadline. Protocol and bundle
// errors print a message and exit non-zero with nothing on stdout; whatever the reviewer does, and
// running out of time, ends as a result. No temp file survives, even on SIGTERM. The worker
// process's one mapping from errors to exit codes is here.

import type { Readable, Writable } from "node:stream";
import type { Worker } from "node:worker_threads";
import { debug } from "../debug.js";
import { ConfigError, ExitCode, ReviewRemoteError, UsageError } from "../errors.js";
import { type CpuReading, readCpu, spareCores } from "../os/cpu.js";
import { type Envelope, readEnvelope } from "../protocol/envelope.js";
import { EnvelopeError, EnvelopeErrorKind } from "../protocol/errors.js";
import type { Request } from "../protocol/request.js";
import { MAX_NAME_LENGTH } from "../protocol/result.js";
import { createReceipt, verifySigningKey } from "../receipt/sign.js";
import { subjectsOf } from "../receipt/statement.js";
import { workerGitEnv, writeWorkerGlobalConfig } from "./baseline.js";
import { Deadline, DeadlineError } from "./deadline.js";
import { findSandbox, SandboxUnavailableError } from "./find-sandbox.js";
import { cut } from "./formats/report-builder.js";
import type { SetupOptions } from "./host-options.js";
import { DEFAULT_WORKER_LIMITS, type WorkerLimits } from "./limits.js";
import { workerMessages } from "./messages.js";
import { failedOutput, type ReviewOutput, renderResult, type SignResult } from "./result.js";
import { type Reviewer, reviewTree } from "./review-tree.js";
import type { ReviewerCommand } from "./reviewer-specs.js";
import { cleanFilesObserver } from "./reviewers/hygiene.js";
import type { Sandbox, SandboxMode } from "./sandbox.js";
import { type Say, sayTo } from "./say.js";
import { startWritingThread, verifyAndUnpack, wantsWritingThread } from "./unpack.js";
import { BundleRefusedError } from "./verify-bundle.js";
import { createWorkspace, removeStaleWorkspaces, type Workspace } from "./workspace.js";
import { MAX_BUNDLE_BYTES, mountedWorkspace } from "./workspace-tmpfs.js";

export interface WorkerOptions {
  /** A built-in reviewer by name (`hygiene` when neither is given)... */
  reviewer?: string | undefined;
  /** ...or commands run through `sh -c` in the sandbox, in order, each with its report's format. */
  reviewerCommands?: readonly ReviewerCommand[] | undefined;
  /** `--tools` directories (absolute): read-only in the sandbox, first on PATH. */
  tools?: readonly string[] | undefined;
  /** The host network for the reviewers (`--network`). */
  network?: boolean | undefined;
  /** A command run in the tree before the reviewers; what it adds is never proposed. */
  setup?: SetupOptions | undefined;
  /** The user's core.whitespace, for the built-in reviewer (the local side passes its own). */
  coreWhitespace?: string | undefined;
  /** As given: require, auto or off. */
  sandbox: string;
  /**
   * Sign every result with this key (absolute path; design §12): a private key file, or a public one
   * whose private half ssh-agent holds.
   */
  signKey?: string | undefined;
  /** The worker's own bounds on a request (default: DEFAULT_WORKER_LIMITS). */
  limits?: WorkerLimits;
  /** When the worker started (ms since the epoch): the request's deadline counts from here. */
  startedAt?: number;
  /** Where the workspace tmpfs is mounted (inside the namespaces of confine.ts). */
  workspaceRoot?: string;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /**
   * `detach`: the workspace is removed by a process that outlives this one, and the answer is not
   * held back for it (the worker command). `wait` (the default): resolve only once it is gone.
   */
  cleanup?: "wait" | "detach";
}

const BUILTIN_REVIEWERS = ["hygiene"] as const;

/** Cores to spare, on average while the bundle came, that make the unpack's writing thread worth it. */
const SPARE_CORE = 0.5;

/**
 * The worker process's exit code for an error: the request itself is bad (2), the bundle or the
 * machine refused (1), or a bug of ours (70).
 */
function exitCodeFor(error: unknown): number {
  if (error instanceof EnvelopeError) {
    const requestKinds: string[] = [
      EnvelopeErrorKind.invalidRequest,
      EnvelopeErrorKind.noRequestLine,
      EnvelopeErrorKind.requestLineTooLong,
    ];
    return requestKinds.includes(error.kind) ? ExitCode.usage : ExitCode.failure;
  }
  if (error instanceof UsageError || error instanceof ConfigError) return ExitCode.usage;
  if (error instanceof BundleRefusedError || error instanceof SandboxUnavailableError)
    return ExitCode.failure;
  if (error instanceof ReviewRemoteError) return ExitCode.failure;
  return ExitCode.internal;
}

/** The reviewer the options name; a UsageError when they name none. */
function selectReviewer(options: WorkerOptions): Reviewer {
  const commands = options.reviewerCommands ?? [];
  if (options.reviewer !== undefined && commands.length > 0) {
    throw new UsageError("--reviewer and --reviewer-command cannot be used together");
  }
  if (commands.length > 0) {
    return {
      kind: "commands",
      commands,
      grants: { tools: options.tools ?? [], network: options.network ?? false },
      setup: options.setup,
    };
  }
  if (options.setup !== undefined) throw new UsageError("--setup-command needs a --reviewer-command");
  const name = options.reviewer ?? "hygiene";
  if (!(BUILTIN_REVIEWERS as readonly string[]).includes(name)) {
    throw new UsageError(
      `unknown reviewer ${JSON.stringify(name)} (built-in: ${BUILTIN_REVIEWERS.join(", ")})`,
    );
  }
  return { kind: "builtin", name: "hygiene", coreWhitespace: options.coreWhitespace };
}

function selectSandbox(mode: string): SandboxMode {
  if (mode === "require" || mode === "auto" || mode === "off") return mode;
  throw new UsageError(`--sandbox must be require, auto or off, not '${mode}'`);
}

/** Removes the workspace and kills the reviewer on SIGTERM/SIGINT/SIGHUP, then exits like the signal. */
function installSignalCleanup(workspace: Workspace, killReviewer: () => void): () => void {
  const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
  const handler = (signal: NodeJS.Signals) => {
    killReviewer();
    try {
      workspace.remove();
    } catch {}
    process.exit(signal === "SIGINT" ? ExitCode.interrupted : 128 + (signal === "SIGTERM" ? 15 : 1));
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

interface Serving {
  options: WorkerOptions;
  envelope: Envelope;
  workspace: Workspace;
  sandbox: Sandbox;
  reviewer: Reviewer;
  deadline: Deadline;
  say: Say;
  onSpawn: (kill: () => void) => void;
  /** The reviewers that ran, for the receipt: none when time ran out before. */
  reviewed: string[];
  /** A large bundle's writing thread, started while the bundle was read (none: the tree is written inline). */
  thread: Worker | undefined;
}

/** The receipt's signer for this request, when the worker has a key (design §12). */
function signerFor(
  request: Request,
  signKey: string | undefined,
  startedAt: number,
  reviewed: readonly string[],
): SignResult | undefined {
  if (signKey === undefined) return undefined;
  return (result) =>
    createReceipt(
      {
        subjects: subjectsOf(request),
        result,
        reviewers: reviewed,
        startedOn: new Date(startedAt),
        finishedOn: new Date(),
      },
      signKey,
    );
}

/** What the receipt names as the reviewers: a built-in one's name, or each command (cut to fit). */
function reviewerNames(reviewer: Reviewer): string[] {
  if (reviewer.kind === "builtin") return [reviewer.name];
  return reviewer.commands.map(({ command }) => cut(command.trim(), MAX_NAME_LENGTH));
}

/** Unpack and review under the deadline; time running out anywhere is a failed result. */
async function review(serving: Serving): Promise<ReviewOutput> {
  const { options, workspace, sandbox, deadline } = serving;
  const { request, requestLine } = serving.envelope;
  try {
    const { bytes, files } = request.bundle;
    // The built-in reviewer's first look at each file, as it is written: the clean ones it skips.
    const clean = serving.reviewer.kind === "builtin" ? new Set<string>() : undefined;
    const listing = await deadline.run("unpacking the bundle", () =>
      verifyAndUnpack(workspace.bundle, bytes, files, workspace.tree, {
        signal: deadline.signal,
        thread: serving.thread,
        writing: serving.thread ? "thread" : "inline",
        // A reviewer command starts from a baseline of every blob; the built-in reviewer needs one
        // only when it changed something, and the blob ids are then read from the bundle again.
        blobIds: serving.reviewer.kind === "commands",
        observe: clean && cleanFilesObserver(clean),
      }),
    );
    debug(`worker: unpacked (sandbox ${sandbox.kind})`);
    writeWorkerGlobalConfig(workspace.home);
    serving.reviewed.push(...reviewerNames(serving.reviewer));
    return await reviewTree({
      request,
      requestLine,
      listing,
      clean,
      workspace,
      env: workerGitEnv(workspace.home),
      sandbox,
      reviewer: serving.reviewer,
      deadline,
      limits: options.limits ?? DEFAULT_WORKER_LIMITS,
      warn: serving.say,
      onOutput: (text) => options.stderr.write(text),
      onSpawn: serving.onSpawn,
    });
  } catch (error) {
    if (!(error instanceof DeadlineError)) throw error;
    return failedOutput(workerMessages.outOfTimeSummary, error.message);
  }
}

/** When the first bytes of input arrived (or it ended without any), in ms since the epoch. */
function inputArrival(input: Readable): Promise<number> {
  return new Promise((resolve) => {
    if (input.readableLength > 0 || input.readableEnded || input.destroyed) return resolve(Date.now());
    const arrived = () => {
      input.off("readable", arrived);
      input.off("error", arrived);
      resolve(Date.now());
    };
    input.on("readable", arrived);
    input.on("error", arrived);
  });
}

/**
 * One request: envelope → verify → unpack → review the tree → the result on stdout, then the workspace
 * handed to a background removal (`removal.done`). Throws on refusal.
 */
async function serve(
  options: WorkerOptions,
  reviewer: Reviewer,
  mode: SandboxMode,
  say: Say,
  removal: { done: Promise<void> },
): Promise<void> {
  const startedAt = options.startedAt ?? Date.now();
  const limits = options.limits ?? DEFAULT_WORKER_LIMITS;
  if (options.signKey !== undefined) await verifySigningKey(options.signKey);
  if (options.workspaceRoot === undefined) removeStaleWorkspaces();
  const workspace = options.workspaceRoot ? mountedWorkspace(options.workspaceRoot) : createWorkspace();
  let killReviewer = () => {};
  const uninstall = installSignalCleanup(workspace, () => killReviewer());
  let deadline: Deadline | undefined;
  // A large bundle's writing thread starts as its request is read, while the bundle comes.
  let thread: Worker | undefined;
  let threadStart: CpuReading | undefined;
  try {
    // The sandbox is tried (a bwrap run) before the request is read: a worker started early, as the
    // local one is while its client exports, has it ready when the bundle comes. The built-in
    // reviewer runs in this process and nothing else runs in a sandbox then (the unpack is ours):
    // it looks for none unless --sandbox=require asks for the proof.
    const needed = reviewer.kind === "commands" || mode === "require";
    const sandbox = findSandbox(needed ? mode : "off", workspace.root, say);
    // The time limit counts from the request's arrival: a client may start its worker before the
    // bundle is ready (the local one does, while it exports), and its own clock starts as it sends.
    const arrivedAt = await inputArrival(options.stdin);
    const envelope = await readEnvelope(options.stdin, {
      bundlePath: workspace.bundle,
      maxBundleBytes: MAX_BUNDLE_BYTES,
      onRequest: ({ bundle }) => {
        if (!wantsWritingThread(bundle.files)) return;
        thread = startWritingThread(workspace.tree);
        threadStart = readCpu();
      },
    });
    // The thread saves time only with a core to spare; on a machine whose other processes kept the
    // cores busy while the bundle came (the other workers of a fan-out, anyone's load) it only adds
    // its CPU (some 0.1 s on a 20k-file unpack, a tenth of the worker's): the tree is written here.
    const spare = threadStart && spareCores(threadStart, readCpu());
    if (thread && spare !== undefined) {
      const inline = spare < SPARE_CORE;
      debug(
        `worker: ${spare.toFixed(2)} cores to spare: the tree is written ${inline ? "inline" : "on a thread"}`,
      );
      if (inline) void thread.terminate();
      if (inline) thread = undefined;
    }
    const { request } = envelope;
    deadline = new Deadline(Math.max(startedAt, arrivedAt), request.limits.timeoutSeconds, limits.seconds);
    debug(`worker: request ${request.id} read, bundle ${request.bundle.bytes} bytes verified`);
    const onSpawn = (kill: () => void) => {
      killReviewer = kill;
    };
    const reviewed: string[] = [];
    const serving = {
      options,
      envelope,
      workspace,
      sandbox,
      reviewer,
      deadline,
      say,
      onSpawn,
      reviewed,
      thread,
    };
    const output = await review(serving);
    debug(
      `worker: review ${output.status}, ${output.commits.length} commits, ${output.comments.length} comments`,
    );
    const reported = reviewer.kind === "builtin" ? "none" : sandbox.kind;
    const sign = signerFor(request, options.signKey, startedAt, reviewed);
    await write(options.stdout, await renderResult(request, reported, output, { sign, say }));
  } finally {
    void thread?.terminate();
    deadline?.dispose();
    uninstall();
    removal.done = workspace.removeInBackground();
  }
}

/** The worker process: its exit code, and every problem as a `git-review-remote worker:` line. */
export async function runWorker(options: WorkerOptions): Promise<number> {
  const say = sayTo(options.stderr);
  const removal = { done: Promise.resolve() };
  let code: number = ExitCode.ok;
  try {
    await serve(options, selectReviewer(options), selectSandbox(options.sandbox), say, removal);
  } catch (error) {
    code = exitCodeFor(error);
    say(
      code === ExitCode.internal ? `internal error: ${(error as Error).message}` : (error as Error).message,
    );
    if (error instanceof EnvelopeError) for (const detail of error.details) say(`  ${detail}`);
  }
  if (options.cleanup !== "detach") await removal.done;
  return code;
}
