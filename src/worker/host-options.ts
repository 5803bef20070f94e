// What the worker host decides on the command line, checked before any request is read: the reviewer
// commands and their formats, the tools directories, the setup command and its cache, and the network.

import { mkdirSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import { type OrderedOption, type ReviewerCommand, reviewerCommandsFrom } from "./reviewer-specs.js";

export interface SetupOptions {
  /** Run through `sh -c` in the tree before the reviewers. */
  command: string;
  /** The host network for setup (`--setup-network`). */
  network: boolean;
  /** Where what setup added is kept, keyed by the lockfile (`--cache-dir`). */
  cacheDir?: string | undefined;
}

export interface HostOptions {
  reviewerCommands: ReviewerCommand[];
  tools: string[];
  network: boolean;
  setup?: SetupOptions | undefined;
}

export interface HostFlags {
  ordered: readonly OrderedOption[];
  tools: readonly string[];
  network: boolean;
  setupCommand?: string | undefined;
  setupNetwork: boolean;
  cacheDir?: string | undefined;
}

/** A directory given on the command line, as the absolute path it really is. */
function existingDir(flag: string, path: string): string {
  const absolute = resolve(path);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--${flag}: ${path} is not a directory`);
  }
  return realpathSync(absolute);
}

function setupFrom(flags: HostFlags): SetupOptions | undefined {
  if (flags.setupCommand === undefined) {
    if (flags.setupNetwork) throw new UsageError("--setup-network needs --setup-command");
    if (flags.cacheDir !== undefined) throw new UsageError("--cache-dir needs --setup-command");
    return undefined;
  }
  if (flags.setupCommand.trim() === "") throw new UsageError("--setup-command is empty");
  let cacheDir: string | undefined;
  if (flags.cacheDir !== undefined) {
    if (flags.cacheDir.trim() === "") throw new UsageError("--cache-dir is empty");
    mkdirSync(resolve(flags.cacheDir), { recursive: true, mode: 0o700 });
    cacheDir = existingDir("cache-dir", flags.cacheDir);
  }
  return { command: flags.setupCommand, network: flags.setupNetwork, cacheDir };
}

export function hostOptionsFrom(flags: HostFlags): HostOptions {
  return {
    reviewerCommands: reviewerCommandsFrom(flags.ordered),
    tools: flags.tools.map((dir) => existingDir("tools", dir)),
    network: flags.network,
    setup: setupFrom(flags),
  };
}
