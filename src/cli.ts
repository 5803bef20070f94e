// argv → command → report. The client process's one catch: every error, thrown or handed back by a
// command as part of its report, becomes the exit code here. Commands load lazily so that
// `--version` and a cached pre-push hook start fast.
import { parseArgs } from "node:util";
import { UnknownCommandError, verifyNotMistyped } from "./commands/suggest.js";
import {
  COMMANDS,
  type Command,
  type CommandResult,
  type Options,
  type Parsed,
  reviewCommand,
  type Values,
} from "./commands/table.js";
import { debugExit } from "./debug.js";
import { ExitCode, ReviewRemoteError, UsageError } from "./errors.js";
import { messages } from "./messages.js";
import { packageFile } from "./package-files.js";
import { createOutput, type Output } from "./report/output.js";
import { commandUsage, USAGE } from "./usage.js";
import { readVersion } from "./version.js";

/**
 * node's parseArgs messages, in git's words: `unknown option '--x'`, `option '-o, --output' needs a
 * value` (node names it `'-o, --output <value>'`).
 */
function describeArgsError(error: Error): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1]?.replace(/ <value>$/, "");
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
    const ordered = tokens.flatMap((token) =>
      token.kind === "option" ? [{ name: token.name, value: token.value }] : [],
    );
    return {
      values: values as Values,
      positionals: positionals.slice(0, positionals.length - rest.length),
      rest,
      ordered,
    };
  } catch (error) {
    throw new UsageError(describeArgsError(error as Error), {
      hints: [messages.hintHelp],
      cause: error,
    });
  }
}

/** Every command takes so many words, and pathspecs only where it says so. */
function verifyArgumentCount(name: string, command: Command, parsed: Parsed): void {
  const extra = parsed.positionals.slice(command.positionals);
  if (!command.pathspecs && parsed.rest.length > 0) extra.push("--", ...parsed.rest);
  if (extra.length === 0) return;
  throw new UsageError(messages.tooManyArguments(name, extra.join(" ")), { hints: [messages.hintHelp] });
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

/** git's own words for a mistyped subcommand (help.c), with the most similar ones. */
function reportUnknownCommand(error: UnknownCommandError, output: Output): number {
  output.err(`git: ${error.message}`);
  output.err("");
  output.err(
    error.suggestions.length === 1 ? "The most similar command is" : "The most similar commands are",
  );
  for (const name of error.suggestions) output.err(`\t${name}`);
  return error.exitCode;
}

/** `command`: the command that ran, whose own -h lists the options a usage error is about. */
function report(error: unknown, output: Output, command: string | undefined): number {
  if (error instanceof UnknownCommandError) return reportUnknownCommand(error, output);
  if (error instanceof ReviewRemoteError) {
    output.err(`git-review-remote: ${error.message}`);
    for (const line of error.details) output.err(`  ${line}`);
    for (const hint of error.hints)
      output.err(`hint: ${hint === messages.hintHelp && command ? messages.hintCommandHelp(command) : hint}`);
    if (process.env.REVIEW_REMOTE_DEBUG && error.cause)
      output.err(String((error.cause as Error).stack ?? error.cause));
  } else {
    output.err(`git-review-remote: ${messages.internalError}`);
    output.err(String((error as Error)?.stack ?? error));
  }
  return exitCodeOf(error);
}

/** The manual page on a terminal, through man; false when not on one or man could not show it. */
async function showManual(): Promise<boolean> {
  if (!process.stdout.isTTY) return false;
  const { spawnSync } = await import("node:child_process");
  const page = packageFile("man/git-review-remote.1");
  return spawnSync("man", [page], { stdio: "inherit" }).status === 0;
}

/**
 * `--help` opens the manual page on a terminal (git itself turns `git review-remote --help` into
 * that), and `<command> --help` too, as `git merge --help` opens git-merge's; elsewhere the -h text.
 */
async function openManual(output: Output, usage: string): Promise<number> {
  if (!(await showManual())) output.out(usage);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  // `git review-remote export --list | head`, and `2>&1 | head`: a closed pipe ends the output, not
  // the program with a stack trace and exit 1 (git itself dies quietly of SIGPIPE there); the command
  // runs on and its exit code says how it went.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
  const output = createOutput(process.stdout, process.stderr);
  let named: string | undefined;
  try {
    const [first, ...others] = argv;
    if (first === "--version") {
      output.out(`git-review-remote version ${readVersion()}`);
      return 0;
    }
    if (first === "--help") return await openManual(output, USAGE);
    // `-h` prints the usage and exits 129, as `git commit -h` does: nothing was run (a script
    // that passes it by mistake does not go on). `help`, as `git help`, is what was asked: 0.
    if (first === "-h") {
      output.out(USAGE);
      return ExitCode.shortHelp;
    }
    if (first === "help") {
      // `help merge`, as `git help merge`: that command's -h text.
      const [topic, ...extra] = others;
      if (topic === undefined) output.out(USAGE);
      else if (extra.length > 0 || !(Object.hasOwn(COMMANDS, topic) || topic === "review"))
        throw new UsageError(messages.unknownHelpTopic(others.join(" ")), { hints: [messages.hintHelp] });
      else output.out(commandUsage(topic));
      return 0;
    }
    // A first word that is no command is a revision (or an option) for the review pipeline.
    named = first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
    const command = (named ? COMMANDS[named] : undefined) ?? reviewCommand;
    const parsed = parse(named ? others : argv, command.options);
    // As parsed: `-nq` is quiet, a pathspec `-- -q` or a question `-m -q` is not.
    output.quiet = parsed.values.quiet === true;
    if (parsed.values.help) {
      const usage = commandUsage(named ?? "review");
      if ((named ? others : argv).includes("--help")) return await openManual(output, usage);
      output.out(usage);
      return ExitCode.shortHelp;
    }
    const [word] = parsed.positionals;
    if (!named && word !== undefined) await verifyNotMistyped(word, Object.keys(COMMANDS));
    verifyArgumentCount(named ?? "review", command, parsed);
    return exitCodeOfResult(await command.run(parsed, output));
  } catch (error) {
    return report(error, output, named);
  } finally {
    debugExit();
  }
}
