// argv → command → report. The client process's one catch: every error, thrown or handed back by a
// command as part of its report, becomes the exit code here. Commands load lazily so that
// `--version` and a cached pre-push hook start fast.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { debugExit } from "./debug.js";
import { ExitCode, ReviewRemoteError, UsageError } from "./errors.js";
import { messages } from "./messages.js";
import { createOutput, type Output } from "./report/output.js";
import { commandUsage, USAGE } from "./usage.js";
import { readVersion } from "./version.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | string[] | undefined>;

interface Parsed {
  values: Values;
  positionals: string[];
  /** Arguments after `--`. */
  rest: string[];
}

/**
 * What a command hands back: nothing, the failures its report already showed (workers that did not
 * answer, a blocked push), or the worker process's own exit code.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a command with nothing to hand back returns Promise<void>
type CommandResult = void | readonly ReviewRemoteError[] | { workerExitCode: number };

interface Command {
  options: Options;
  run(parsed: Parsed, output: Output): Promise<CommandResult>;
}

const common: Options = {
  help: { type: "boolean", short: "h" },
  quiet: { type: "boolean", short: "q" },
  json: { type: "boolean" },
};

function single(parsed: Parsed, name: string): string | undefined {
  if (parsed.positionals.length > 1) {
    throw new UsageError(messages.tooManyArguments(name, parsed.positionals.join(" ")), {
      hints: [messages.hintHelp],
    });
  }
  return parsed.positionals[0];
}

const REVIEW_OPTIONS: Options = {
  ...common,
  worktree: { type: "boolean" },
  question: { type: "string", short: "m" },
  worker: { type: "string", multiple: true },
  "no-cache": { type: "boolean" },
};

/** Ctrl-C stops the worker and exits 130 with nothing imported. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  process.once("SIGTERM", () => controller.abort());
  return controller.signal;
}

const reviewCommand: Command = {
  options: REVIEW_OPTIONS,
  async run(parsed, output) {
    const { runReviewCommand } = await import("./commands/review.js");
    return runReviewCommand(
      {
        target: single(parsed, "review"),
        worktree: Boolean(parsed.values.worktree),
        question: parsed.values.question as string | undefined,
        workers: (parsed.values.worker as string[] | undefined) ?? [],
        noCache: Boolean(parsed.values["no-cache"]),
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

const COMMANDS: Record<string, Command> = {
  audit: {
    options: { ...common, verify: { type: "boolean" } },
    async run(parsed, output) {
      const { runAudit } = await import("./commands/audit.js");
      return runAudit({ json: Boolean(parsed.values.json), verify: Boolean(parsed.values.verify) }, output);
    },
  },
  "install-hook": {
    options: { ...common, force: { type: "boolean" } },
    async run(parsed, output) {
      const { runInstallHook } = await import("./commands/install-hook.js");
      return runInstallHook({ force: Boolean(parsed.values.force) }, output);
    },
  },
  hook: {
    options: common,
    async run(parsed, output) {
      const { runHook } = await import("./commands/hook.js");
      const [name, remote] = parsed.positionals;
      return runHook({ name, remote, stdin: process.stdin }, output);
    },
  },
  list: {
    options: common,
    async run(parsed, output) {
      const { runList } = await import("./commands/list.js");
      return runList({ json: Boolean(parsed.values.json) }, output);
    },
  },
  show: {
    options: { ...common, format: { type: "string" } },
    async run(parsed, output) {
      const { runShow } = await import("./commands/show.js");
      const format = parsed.values.format as string | undefined;
      return runShow({ id: requiredId(parsed, "show"), format, json: Boolean(parsed.values.json) }, output);
    },
  },
  merge: {
    options: common,
    async run(parsed, output) {
      const { runMerge } = await import("./commands/merge.js");
      return runMerge({ id: requiredId(parsed, "merge") }, output);
    },
  },
  drop: {
    options: common,
    async run(parsed, output) {
      const { runDrop } = await import("./commands/drop.js");
      return runDrop({ id: requiredId(parsed, "drop") }, output);
    },
  },
  import: {
    options: { ...common, request: { type: "string" } },
    async run(parsed, output) {
      const { runImport } = await import("./commands/import.js");
      const file = single(parsed, "import");
      if (!file) throw new UsageError(messages.importNeedsFile);
      return runImport(
        { file, request: parsed.values.request as string | undefined, json: Boolean(parsed.values.json) },
        output,
      );
    },
  },
  worker: {
    options: {
      help: { type: "boolean", short: "h" },
      reviewer: { type: "string" },
      "reviewer-command": { type: "string" },
      sandbox: { type: "string" },
    },
    async run(parsed) {
      const { runWorkerCommand } = await import("./commands/worker.js");
      const workerExitCode = await runWorkerCommand({
        reviewer: parsed.values.reviewer as string | undefined,
        reviewerCommand: parsed.values["reviewer-command"] as string | undefined,
        sandbox: (parsed.values.sandbox as string | undefined) ?? "auto",
      });
      return { workerExitCode };
    },
  },
  export: {
    options: {
      ...common,
      worktree: { type: "boolean" },
      list: { type: "boolean" },
      output: { type: "string", short: "o" },
    },
    async run(parsed, output) {
      const { runExport } = await import("./commands/export.js");
      return runExport(
        {
          rev: single(parsed, "export"),
          worktree: Boolean(parsed.values.worktree),
          list: Boolean(parsed.values.list),
          json: Boolean(parsed.values.json),
          output: parsed.values.output as string | undefined,
          pathspecs: parsed.rest,
        },
        output,
      );
    },
  },
};

/** node's parseArgs messages, in git's words: `unknown option '--x'`. */
function describeArgsError(error: Error): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1];
  const code = (error as NodeJS.ErrnoException).code;
  if (option && code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return messages.unknownOption(option);
  if (option && code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return messages.optionNeedsValue(option);
  return error.message.split("\n")[0] ?? "bad arguments";
}

function parse(argv: string[], options: Options): Parsed {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    const terminator = tokens.find((token) => token.kind === "option-terminator");
    const restStart = terminator ? terminator.index + 1 : argv.length;
    const rest = argv.slice(restStart);
    return {
      values: values as Values,
      positionals: positionals.slice(0, positionals.length - rest.length),
      rest,
    };
  } catch (error) {
    throw new UsageError(describeArgsError(error as Error), {
      hints: [messages.hintHelp],
      cause: error,
    });
  }
}

/** The one mapping from an error to the client's exit code (design §4); anything untyped is a bug. */
function exitCodeOf(error: unknown): number {
  return error instanceof ReviewRemoteError ? error.exitCode : ExitCode.internal;
}

/** A command's result as the exit code: the worst failure its report showed, 0 without any. */
function exitCodeOfResult(result: CommandResult): number {
  if (!result) return ExitCode.ok;
  if ("workerExitCode" in result) return result.workerExitCode;
  return result.reduce<number>((code, failure) => Math.max(code, exitCodeOf(failure)), ExitCode.ok);
}

function report(error: unknown, output: Output): number {
  if (error instanceof ReviewRemoteError) {
    output.err(`git-review-remote: ${error.message}`);
    for (const line of error.details) output.err(`  ${line}`);
    for (const hint of error.hints) output.err(`hint: ${hint}`);
    if (process.env.REVIEW_REMOTE_DEBUG && error.cause)
      output.err(String((error.cause as Error).stack ?? error.cause));
  } else {
    output.err(`git-review-remote: ${messages.internalError}`);
    output.err(String((error as Error)?.stack ?? error));
  }
  return exitCodeOf(error);
}

/** `--help` opens the manual page on a terminal (git itself turns `git review-remote --help` into that). */
async function openManual(output: Output): Promise<number> {
  if (process.stdout.isTTY) {
    const { spawnSync } = await import("node:child_process");
    const page = new URL("../man/git-review-remote.1", import.meta.url).pathname;
    const shown = spawnSync("man", [page], { stdio: "inherit" });
    if (shown.status === 0) return 0;
  }
  output.out(USAGE);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  // `git review-remote export --list | head`: a closed pipe ends the output, not the program with a
  // stack trace (git itself dies quietly of SIGPIPE there).
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  const quiet = argv.includes("-q") || argv.includes("--quiet");
  const output = createOutput(process.stdout, process.stderr, { quiet });
  try {
    const [first, ...others] = argv;
    if (first === "--version") {
      output.out(`git-review-remote version ${readVersion()}`);
      return 0;
    }
    if (first === "--help") return await openManual(output);
    if (first === "-h" || first === "help") {
      output.out(USAGE);
      return 0;
    }
    // A first word that is no command is a revision (or an option) for the review pipeline.
    const named = first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
    const command = named ? (COMMANDS[named] as Command) : reviewCommand;
    const parsed = parse(named ? others : argv, command.options);
    if (parsed.values.help) {
      output.out(commandUsage(named ?? "review"));
      return 0;
    }
    return exitCodeOfResult(await command.run(parsed, output));
  } catch (error) {
    return report(error, output);
  } finally {
    debugExit();
  }
}
