// `git review-remote worker`: the worker side of the protocol (src/worker/flow.ts), on this
// process's stdin, stdout and stderr, confined to namespaces of its own (src/worker/confine.ts). The
// worker maps its own errors to its exit code.
import { runConfinedWorker } from "../worker/confine.js";
import { type LimitFlagValues, workerLimitsFrom } from "../worker/limits.js";

export function runWorkerCommand(options: {
  reviewer?: string | undefined;
  reviewerCommand?: string | undefined;
  coreWhitespace?: string | undefined;
  sandbox: string;
  limits: LimitFlagValues;
}): Promise<number> {
  // The deadline counts from this process's start, not from when this line runs. The process exits
  // with the answer out; a detached process (or the end of its namespaces) removes the workspace.
  const startedAt = Math.round(performance.timeOrigin);
  const limits = workerLimitsFrom(options.limits);
  return runConfinedWorker({ ...options, limits, startedAt, cleanup: "detach" });
}
