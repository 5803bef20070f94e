// The one module that spawns git: argument arrays, no shell, a clean environment for every child.
// Plain node:child_process: every command (and the pre-push hook on each push) runs git, and a
// process wrapper library would add more to start-up than all of our own code.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { GitError, UsageError } from "../errors.js";
import { messages } from "../messages.js";
import { isSupportedGit, MINIMUM_GIT, parseGitVersion } from "./version.js";

export type Env = Record<string, string | undefined>;

/** Who a commit is by and when, as plain git reads them from the environment (git-commit-tree(1)). */
export const IDENTITY_VARIABLES = [
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
] as const;
const IDENTITY_SET: ReadonlySet<string> = new Set(IDENTITY_VARIABLES);

/**
 * The user's `git -c key=value review-remote` arrives as GIT_CONFIG_PARAMETERS (and the
 * GIT_CONFIG_COUNT family); those are the user's own config and are kept, as are the files git reads
 * it from (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM: a worker configured with
 * `git config --global` under them is one plain git sees, and so must we), and so is the identity a
 * CI job sets as GIT_AUTHOR_* and GIT_COMMITTER_*: a merge commit made for the user is theirs, as
 * plain git would make it (the tool's own commits set theirs: `src/git/identity.ts`). Every other
 * GIT_* variable (GIT_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY... which git hands to hooks) is
 * removed: each child gets exactly the repository we resolved, nothing inherited.
 */
function isKeptGitVariable(name: string): boolean {
  return (
    name === "GIT_CONFIG_PARAMETERS" ||
    name === "GIT_CONFIG_GLOBAL" ||
    name === "GIT_CONFIG_SYSTEM" ||
    name === "GIT_CONFIG_NOSYSTEM" ||
    IDENTITY_SET.has(name) ||
    /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(name)
  );
}

/**
 * `userConfig: false` also drops the user's `git -c` settings and identity: for gits that must
 * behave the same whoever runs them (the export's scratch dir, the worker's repositories).
 */
export function cleanEnv(extra: Env = {}, { userConfig = true }: { userConfig?: boolean } = {}): Env {
  const env: Env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("GIT_") && !(userConfig && isKeptGitVariable(name))) continue;
    env[name] = value;
  }
  // Machine-readable messages, never a credential or editor prompt from a child git.
  env.LC_ALL = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_EDITOR = ":";
  env.GIT_PAGER = "cat";
  return { ...env, ...extra };
}

export interface GitOptions {
  cwd: string;
  env: Env;
  input?: string | Uint8Array;
  /** Return the result instead of throwing on a non-zero exit. */
  allowFailure?: boolean;
  /** Kills git (SIGKILL) when aborted; the call then rejects with the abort error. */
  signal?: AbortSignal | undefined;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

interface RawResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** Spawn options that kill the child outright when `signal` aborts (a deadline, not a request to stop). */
function killedBy(signal: AbortSignal | undefined): { signal?: AbortSignal; killSignal?: NodeJS.Signals } {
  return signal ? { signal, killSignal: "SIGKILL" } : {};
}

const MINIMUM = `${MINIMUM_GIT.major}.${MINIMUM_GIT.minor}`;

/**
 * No git on PATH is said as an old one is (exit 2), not as a bug; any other spawn error as it is
 * (ENOENT also names a directory to run in that is gone).
 */
function spawnError(error: NodeJS.ErrnoException, cwd: string): Error {
  if (error.code !== "ENOENT" || !existsSync(cwd)) return error;
  return new UsageError(messages.gitNotFound(MINIMUM), { hints: [messages.hintGitNotFound], cause: error });
}

function run(args: readonly string[], options: GitOptions): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...killedBy(options.signal),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => reject(spawnError(error, options.cwd)));
    child.on("close", (code, signal) =>
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString("utf8"),
        exitCode: code ?? (signal ? 128 : -1),
      }),
    );
    if (options.input !== undefined && child.stdin) {
      // git may exit before reading all of its input (an error): its exit status says so.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}

/** git's exit status for a usage error: what an older git answers to an option it does not know. */
const USAGE_STATUS = 129;

let versionVerified: Promise<void> | undefined;

/**
 * Refuses a git older than MINIMUM_GIT (exit 2, with the version found). `git version` is asked once
 * a process, and only where a git has already failed as an old one fails: never on the way that works.
 */
export function verifyGitVersion(options: { cwd: string; env: Env }): Promise<void> {
  // A version it cannot tell (or no answer at all) leaves the failure to be said as it was.
  versionVerified ??= run(["version"], { cwd: options.cwd, env: options.env }).then(
    (result) => {
      const version = parseGitVersion(result.stdout.toString("utf8"));
      if (version === undefined || isSupportedGit(version)) return;
      throw new UsageError(messages.gitTooOld(version.text, MINIMUM), { hints: [messages.hintGitTooOld] });
    },
    () => undefined,
  );
  return versionVerified;
}

/** `run`, refusing a git too old for us where one of its options was refused. */
async function runVerified(args: readonly string[], options: GitOptions): Promise<RawResult> {
  const result = await run(args, options);
  if (result.exitCode === USAGE_STATUS) await verifyGitVersion(options);
  return result;
}

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await runVerified(args, options);
  if (result.exitCode !== 0 && !options.allowFailure)
    throw new GitError(args, result.exitCode, result.stderr);
  return { stdout: result.stdout.toString("utf8"), stderr: result.stderr, exitCode: result.exitCode };
}

/** The same as `git`, with stdout as bytes (blob contents, tar streams). */
export async function gitBuffer(args: readonly string[], options: GitOptions): Promise<Buffer> {
  const result = await runVerified(args, options);
  if (result.exitCode !== 0) throw new GitError(args, result.exitCode, result.stderr);
  return result.stdout;
}

export interface GitStream {
  stdout: Readable;
  /** Its stdin, when asked for (`interactive`): requests of a `--batch` git. */
  stdin: Writable | null;
  /** Resolves when git exits, with its status and stderr. */
  exited: Promise<{ exitCode: number; stderr: string }>;
  kill(): void;
}

/** A streaming child git: the caller reads `stdout` (and writes `stdin`) and awaits `exited`. */
export function spawnGit(
  args: readonly string[],
  options: Omit<GitOptions, "input"> & { interactive?: boolean },
): GitStream {
  const child = spawn("git", args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.interactive ? "pipe" : "ignore", "pipe", "pipe"],
    ...killedBy(options.signal),
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const exited = new Promise<{ exitCode: number; stderr: string }>((resolve, reject) => {
    child.on("error", (error) => reject(spawnError(error, options.cwd)));
    child.on("close", (code, signal) =>
      resolve({ exitCode: code ?? (signal ? 128 : -1), stderr: Buffer.concat(stderr).toString("utf8") }),
    );
  });
  // git may exit before reading all of its input (an error): its exit status says so.
  child.stdin?.on("error", () => undefined);
  return { stdout: child.stdout, stdin: child.stdin, exited, kill: () => child.kill() };
}

/** Split NUL-terminated `-z` output into records. */
export function splitNul(output: string): string[] {
  const records = output.split("\0");
  if (records.at(-1) === "") records.pop();
  return records;
}
