// Which command reaches a worker: git config only (flags name it), never a file in the repo.
import type { Settings } from "../config/settings.js";
import { ConfigError } from "../errors.js";
import { messages } from "../messages.js";
import { NODE_FLAGS } from "../os/node-flags.js";
import { shellQuote } from "../os/shell.js";
import { packageFile } from "../package-files.js";

export interface Worker {
  name: string;
  command: string;
}

const LOCAL_WORKER = "local";

/**
 * The flags of this package's own worker, sandboxed where the machine allows. It runs on the user's
 * machine, so it is told the user's core.whitespace, which no worker can read (design §8).
 */
export function localWorkerArgs(coreWhitespace: string | undefined): string[] {
  return ["--sandbox=auto", ...(coreWhitespace === undefined ? [] : [`--core-whitespace=${coreWhitespace}`])];
}

/** This package's own worker in a subprocess: `git review-remote worker` with localWorkerArgs. */
function localWorkerCommand(coreWhitespace: string | undefined): string {
  const bin = packageFile("bin/git-review-remote.js");
  const node = [process.execPath, ...NODE_FLAGS].map(shellQuote).join(" ");
  const whitespace = coreWhitespace === undefined ? "" : ` --core-whitespace=${shellQuote(coreWhitespace)}`;
  return `${node} ${shellQuote(bin)} worker --sandbox=auto${whitespace}`;
}

/** The worker `name` reaches; `byDefault` when no --worker named it (review-remote.worker did). */
export function resolveWorker(name: string, settings: Settings, byDefault = false): Worker {
  const configured = settings.workerCommands.get(name);
  // `sh -c ""` runs nothing and prints nothing: said as the configuration it is, before any export.
  if (configured?.trim() === "") {
    throw new ConfigError(messages.emptyWorkerCommand(name), { hints: [messages.hintConfigureWorker(name)] });
  }
  if (configured !== undefined) return { name, command: configured };
  if (name === LOCAL_WORKER) return { name, command: localWorkerCommand(settings.coreWhitespace) };
  // `git config review-remote.worker 'ssh box git-review-remote worker'`: a command where a name goes.
  if (/\s/.test(name.trim())) {
    throw new ConfigError(messages.workerCommandAsName(name), {
      hints: [messages.hintWorkerCommandAsName(shellQuote(name.trim()))],
    });
  }
  throw new ConfigError(messages.unknownWorker(name), {
    hints: [messages.hintConfigureWorker(name), ...(byDefault ? [messages.hintDefaultWorker(name)] : [])],
  });
}

/**
 * This package's own worker, not a command the user configured: it runs here, so starting it before
 * its envelope is ready (while the export runs) contacts no one and costs nothing if it is never sent.
 */
export function isBuiltinWorker(worker: Worker, settings: Settings): boolean {
  return worker.name === LOCAL_WORKER && !settings.workerCommands.has(LOCAL_WORKER);
}
