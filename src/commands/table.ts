// The subcommands: each one's options, and how its parsed arguments become the plain value its
// command function takes. Every command module loads lazily, on its first use.
import type { ParseArgsConfig } from "node:util";
import type { ReviewRemoteError } from "../errors.js";
import { UsageError } from "../errors.js";
import { messages } from "../messages.js";
import { type FailLevel, isFailLevel } from "../pipeline/fail-level.js";
import { type FilterMode, isFilterMode } from "../pipeline/filter.js";
import { MAX_TIMEOUT_SECONDS } from "../protocol/limits.js";
import type { Output } from "../report/output.js";
import { WORKER_OPTIONS, workerFlagsFrom } from "../worker/args.js";

export type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
  /** Arguments after `--`. */
  rest: string[];
  /** The options in the order given (for options whose meaning depends on the one before). */
  ordered: { name: string; value: string | undefined }[];
}

/**
 * What a command hands back: nothing, the failures its report already showed (workers that did not
 * answer, a blocked push), or the worker process's own exit code.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a command with nothing to hand back returns Promise<void>
export type CommandResult = void | readonly ReviewRemoteError[] | { workerExitCode: number };

export interface Command {
  options: Options;
  /** How many positional arguments it takes at most; more is a usage error. */
  positionals: number;
  /** Whether it takes pathspecs after `--`. */
  pathspecs?: boolean;
  run(parsed: Parsed, output: Output): Promise<CommandResult>;
}

const common: Options = {
  help: { type: "boolean", short: "h" },
  quiet: { type: "boolean", short: "q" },
};

/** The options of a command that prints JSON; one that does not refuses `--json` as unknown. */
const withJson: Options = { ...common, json: { type: "boolean" } };

/** A string option's value (parseArgs has checked its type against the options). */
function text(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/** `-m`: a question with words in it; an empty one would reach the reviewer as its whole prompt. */
function question(parsed: Parsed): string | undefined {
  const asked = text(parsed, "question");
  if (asked === undefined || asked.trim() !== "") return asked;
  throw new UsageError(messages.emptyQuestion, { hints: [messages.hintEmptyQuestion] });
}

/** A repeatable string option's values. */
function texts(parsed: Parsed, name: string): string[] {
  const value = parsed.values[name];
  return Array.isArray(value) ? value : [];
}

function single(parsed: Parsed, name: string): string | undefined {
  if (parsed.positionals.length > 1) {
    throw new UsageError(messages.tooManyArguments(name, parsed.positionals.join(" ")), {
      hints: [messages.hintHelp],
    });
  }
  return parsed.positionals[0];
}

/** `--filter-mode`, checked here: a mistyped mode is a usage error before anything runs. */
function filterMode(parsed: Parsed): FilterMode | undefined {
  const mode = text(parsed, "filter-mode");
  if (mode === undefined || isFilterMode(mode)) return mode;
  throw new UsageError(messages.badFilterMode(mode), { hints: [messages.hintHelp] });
}

/** `--timeout`, checked here as review-remote.timeout is where it is read. */
function timeout(parsed: Parsed): number | undefined {
  const given = text(parsed, "timeout");
  if (given === undefined) return undefined;
  const seconds = Number(given);
  if (/^\d+$/.test(given) && seconds >= 1 && seconds <= MAX_TIMEOUT_SECONDS) return seconds;
  throw new UsageError(messages.badTimeout(given, MAX_TIMEOUT_SECONDS), { hints: [messages.hintHelp] });
}

/** `--fail-level`, checked here like `--filter-mode`. */
function failLevel(parsed: Parsed): FailLevel | undefined {
  const level = text(parsed, "fail-level");
  if (level === undefined || isFailLevel(level)) return level;
  throw new UsageError(messages.badFailLevel(level), { hints: [messages.hintHelp] });
}

const REVIEW_OPTIONS: Options = {
  ...withJson,
  worktree: { type: "boolean" },
  all: { type: "boolean" },
  "filter-mode": { type: "string" },
  "fail-level": { type: "string" },
  question: { type: "string", short: "m" },
  worker: { type: "string", multiple: true },
  "no-cache": { type: "boolean" },
  timeout: { type: "string" },
};

/**
 * Ctrl-C stops the worker and exits 130 with nothing imported. Every SIGINT is handled: run as `git
 * review-remote`, one comes from the terminal and one from git passing it on, and the second must
 * not kill the review while it stops its worker and marks its record.
 */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.on("SIGINT", () => controller.abort());
  process.on("SIGTERM", () => controller.abort());
  return controller.signal;
}

export const reviewCommand: Command = {
  options: REVIEW_OPTIONS,
  positionals: 1,
  pathspecs: true,
  async run(parsed, output) {
    const { runReviewCommand } = await import("./review.js");
    return runReviewCommand(
      {
        target: single(parsed, "review"),
        worktree: Boolean(parsed.values.worktree),
        all: Boolean(parsed.values.all),
        filterMode: filterMode(parsed),
        failLevel: failLevel(parsed),
        question: question(parsed),
        workers: texts(parsed, "worker"),
        noCache: Boolean(parsed.values["no-cache"]),
        timeoutSeconds: timeout(parsed),
        json: Boolean(parsed.values.json),
        pathspecs: parsed.rest,
        signal: interruptSignal(),
      },
      output,
    );
  },
};

function requiredId(parsed: Parsed, name: string): string {
  const id = single(parsed, name);
  if (!id) throw new UsageError(messages.needsReviewId(name), { hints: [messages.hintListReviews] });
  return id;
}

export const COMMANDS: Record<string, Command> = {
  audit: {
    options: { ...withJson, verify: { type: "boolean" } },
    positionals: 0,
    async run(parsed, output) {
      const { runAudit } = await import("./audit.js");
      return runAudit({ json: Boolean(parsed.values.json), verify: Boolean(parsed.values.verify) }, output);
    },
  },
  "install-hook": {
    options: { ...common, force: { type: "boolean" } },
    positionals: 0,
    async run(parsed, output) {
      const { runInstallHook } = await import("./install-hook.js");
      return runInstallHook({ force: Boolean(parsed.values.force) }, output);
    },
  },
  hook: {
    options: common,
    positionals: 3,
    async run(parsed, output) {
      const { runHook } = await import("./hook.js");
      const [name, remote] = parsed.positionals;
      return runHook({ name, remote, stdin: process.stdin }, output);
    },
  },
  list: {
    options: withJson,
    positionals: 0,
    async run(parsed, output) {
      const { runList } = await import("./list.js");
      return runList({ json: Boolean(parsed.values.json) }, output);
    },
  },
  show: {
    options: {
      ...withJson,
      format: { type: "string" },
      "filter-mode": { type: "string" },
      "all-comments": { type: "boolean" },
    },
    positionals: 1,
    async run(parsed, output) {
      const { runShow } = await import("./show.js");
      return runShow(
        {
          id: requiredId(parsed, "show"),
          format: text(parsed, "format"),
          json: Boolean(parsed.values.json),
          filterMode: filterMode(parsed),
          allComments: Boolean(parsed.values["all-comments"]),
        },
        output,
      );
    },
  },
  verify: {
    options: withJson,
    positionals: 1,
    async run(parsed, output) {
      const { runVerify } = await import("./verify.js");
      return runVerify({ id: requiredId(parsed, "verify"), json: Boolean(parsed.values.json) }, output);
    },
  },
  merge: {
    options: { ...common, abort: { type: "boolean" }, continue: { type: "boolean" } },
    positionals: 1,
    async run(parsed, output) {
      const { runMerge } = await import("./merge.js");
      if (parsed.values.abort && parsed.values.continue)
        throw new UsageError(messages.abortOrContinue, { hints: [messages.hintHelp] });
      const action = parsed.values.abort ? "abort" : parsed.values.continue ? "continue" : "merge";
      return runMerge({ id: requiredId(parsed, "merge"), action }, output);
    },
  },
  prune: {
    options: {
      ...withJson,
      "dry-run": { type: "boolean", short: "n" },
      expire: { type: "string" },
      "include-open": { type: "boolean" },
    },
    positionals: 0,
    async run(parsed, output) {
      const { runPrune } = await import("./prune.js");
      return runPrune(
        {
          dryRun: Boolean(parsed.values["dry-run"]),
          json: Boolean(parsed.values.json),
          expire: text(parsed, "expire"),
          includeOpen: Boolean(parsed.values["include-open"]),
        },
        output,
      );
    },
  },
  drop: {
    options: common,
    positionals: 1,
    async run(parsed, output) {
      const { runDrop } = await import("./drop.js");
      return runDrop({ id: requiredId(parsed, "drop") }, output);
    },
  },
  import: {
    options: { ...withJson, request: { type: "string" }, "fail-level": { type: "string" } },
    positionals: 1,
    async run(parsed, output) {
      const { runImport } = await import("./import.js");
      const file = single(parsed, "import");
      if (!file) throw new UsageError(messages.importNeedsFile, { hints: [messages.hintHelp] });
      const request = text(parsed, "request");
      const json = Boolean(parsed.values.json);
      return runImport({ file, request, json, failLevel: failLevel(parsed) }, output);
    },
  },
  worker: {
    options: { help: { type: "boolean", short: "h" }, ...WORKER_OPTIONS },
    positionals: 0,
    async run(parsed) {
      const { runWorkerCommand } = await import("./worker.js");
      const workerExitCode = await runWorkerCommand(workerFlagsFrom(parsed.values, parsed.ordered));
      return { workerExitCode };
    },
  },
  export: {
    options: {
      ...withJson,
      worktree: { type: "boolean" },
      list: { type: "boolean" },
      output: { type: "string", short: "o" },
    },
    positionals: 1,
    pathspecs: true,
    async run(parsed, output) {
      const { runExport } = await import("./export.js");
      return runExport(
        {
          rev: single(parsed, "export"),
          worktree: Boolean(parsed.values.worktree),
          list: Boolean(parsed.values.list),
          json: Boolean(parsed.values.json),
          output: text(parsed, "output"),
          pathspecs: parsed.rest,
        },
        output,
      );
    },
  },
};
