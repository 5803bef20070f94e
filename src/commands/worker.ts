// `git review-remote worker`: the worker side of the protocol (src/worker/flow.ts), on this
// process's stdin, stdout and stderr, confined to namespaces of its own (src/worker/confine.ts). The
// worker maps its own errors to its exit code.
import { resolve } from "node:path";
import type { WorkerFlags } from "../worker/args.js";
import { runConfinedWorker } from "../worker/confine.js";
import { hostOptionsFrom } from "../worker/host-options.js";
import { workerLimitsFrom } from "../worker/limits.js";

export function runWorkerCommand(options: WorkerFlags): Promise<number> {
  // The deadline counts from this process's start, not from when this line runs. The process exits
  // with the answer out; a detached process (or the end of its namespaces) removes the workspace.
  const startedAt = Math.round(performance.timeOrigin);
  const limits = workerLimitsFrom(options.limits);
  const host = hostOptionsFrom(options);
  const signKey = options.signKey || undefined;
  return runConfinedWorker({
    reviewer: options.reviewer,
    coreWhitespace: options.coreWhitespace,
    sandbox: options.sandbox,
    signKey: signKey === undefined ? undefined : resolve(signKey),
    ...host,
    limits,
    startedAt,
    cleanup: "detach",
  });
}
