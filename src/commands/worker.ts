// `git review-remote worker`: the worker side of the protocol (src/worker/flow.ts), on this
// process's stdin, stdout and stderr. The worker maps its own errors to its exit code.
import { runWorker } from "../worker/flow.js";

export function runWorkerCommand(options: {
  reviewer?: string | undefined;
  reviewerCommand?: string | undefined;
  coreWhitespace?: string | undefined;
  sandbox: string;
}): Promise<number> {
  // The process exits with the answer out; a detached process removes the workspace after it.
  return runWorker({
    ...options,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cleanup: "detach",
  });
}
