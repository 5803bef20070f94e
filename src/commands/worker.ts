// `git review-remote worker` (design §8): envelope in → verify → unpack → baseline → reviewer → collect
// → one result document out. Protocol and bundle errors print a message and exit non-zero with nothing
// on stdout; whatever the reviewer does ends as a result. No temp file survives, even on SIGTERM.

import type { Readable, Writable } from "node:stream";
import { debug } from "../debug.js";
import { ExitCode, ReviewRemoteError } from "../errors.js";
import { readEnvelope } from "../protocol/envelope.js";
import { EnvelopeError, EnvelopeErrorKind } from "../protocol/errors.js";
import { workerGitEnv, writeWorkerGlobalConfig } from "../worker/baseline.js";
import { findSandbox, SandboxUnavailableError } from "../worker/find-sandbox.js";
import { renderResult } from "../worker/result.js";
import { type Reviewer, review } from "../worker/review-tree.js";
import type { SandboxMode } from "../worker/sandbox.js";
import { verifyAndUnpack } from "../worker/unpack.js";
import { BundleRefusedError } from "../worker/verify-bundle.js";
import { createWorkspace, removeStaleWorkspaces, type Workspace } from "../worker/workspace.js";

export interface WorkerOptions {
  reviewer?: string;
  reviewerCommand?: string;
  sandbox: SandboxMode;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export const BUILTIN_REVIEWERS = ["hygiene"] as const;

const PREFIX = "git-review-remote worker:";

/** Bad input from the client: which exit code, and whether it is the request (2) or the bundle (1). */
function exitCodeFor(error: unknown): number {
  if (error instanceof EnvelopeError) {
    const requestKinds: string[] = [
      EnvelopeErrorKind.invalidRequest,
      EnvelopeErrorKind.noRequestLine,
      EnvelopeErrorKind.requestLineTooLong,
    ];
    return requestKinds.includes(error.kind) ? ExitCode.usage : ExitCode.failure;
  }
  if (error instanceof BundleRefusedError || error instanceof SandboxUnavailableError)
    return ExitCode.failure;
  if (error instanceof ReviewRemoteError) return ExitCode.failure;
  return ExitCode.internal;
}

function selectReviewer(options: WorkerOptions): Reviewer | string {
  if (options.reviewer !== undefined && options.reviewerCommand !== undefined) {
    return "--reviewer and --reviewer-command cannot be used together";
  }
  if (options.reviewerCommand !== undefined) {
    return options.reviewerCommand.trim() === ""
      ? "--reviewer-command is empty"
      : { kind: "command", command: options.reviewerCommand };
  }
  const name = options.reviewer ?? "hygiene";
  if (!(BUILTIN_REVIEWERS as readonly string[]).includes(name)) {
    return `unknown reviewer ${JSON.stringify(name)} (built-in: ${BUILTIN_REVIEWERS.join(", ")})`;
  }
  return { kind: "builtin", name: "hygiene" };
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

export async function runWorker(options: WorkerOptions): Promise<number> {
  const say = (line: string) => options.stderr.write(`${PREFIX} ${line}\n`);
  const reviewer = selectReviewer(options);
  if (typeof reviewer === "string") {
    say(reviewer);
    return ExitCode.usage;
  }
  removeStaleWorkspaces();
  const workspace = createWorkspace();
  let killReviewer = () => {};
  const uninstall = installSignalCleanup(workspace, () => killReviewer());
  try {
    const { request, requestLine } = await readEnvelope(options.stdin, { bundlePath: workspace.bundle });
    const deadline = Date.now() + request.limits.timeoutSeconds * 1000;
    debug(`worker: request ${request.id} read, bundle ${request.bundle.bytes} bytes verified`);
    const sandbox = findSandbox(options.sandbox, workspace.root, say);
    const listing = await verifyAndUnpack(
      workspace.bundle,
      request.bundle.bytes,
      request.bundle.files,
      workspace.tree,
      sandbox,
    );
    debug(`worker: unpacked (sandbox ${sandbox.kind})`);
    writeWorkerGlobalConfig(workspace.home);
    const output = await review({
      request,
      requestLine,
      listing,
      workspace,
      env: workerGitEnv(workspace.home),
      sandbox,
      reviewer,
      deadline,
      warn: say,
      onOutput: (text) => options.stderr.write(text),
      onSpawn: (kill) => {
        killReviewer = kill;
      },
    });
    debug(
      `worker: review ${output.status}, ${output.commits.length} commits, ${output.comments.length} comments`,
    );
    const reported = reviewer.kind === "builtin" ? "none" : sandbox.kind;
    await write(options.stdout, renderResult(request, reported, output));
    return ExitCode.ok;
  } catch (error) {
    const code = exitCodeFor(error);
    say(
      code === ExitCode.internal ? `internal error: ${(error as Error).message}` : (error as Error).message,
    );
    if (error instanceof EnvelopeError) for (const detail of error.details) say(`  ${detail}`);
    return code;
  } finally {
    uninstall();
    try {
      workspace.remove();
    } catch (error) {
      say(`warning: could not remove ${workspace.root}: ${(error as Error).message}`);
    }
  }
}
