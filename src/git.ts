// The one module that spawns git: argument arrays, no shell, a clean environment for every child.
import { execa, type Options, type ResultPromise } from "execa";
import { GitError } from "./errors.js";

export type Env = Record<string, string | undefined>;

/**
 * The user's `git -c key=value review-remote` arrives as GIT_CONFIG_PARAMETERS (and the
 * GIT_CONFIG_COUNT family); those are the user's own config and are kept. Every other GIT_*
 * variable (GIT_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY... which git hands to hooks) is removed:
 * each child gets exactly the repository we resolved, nothing inherited.
 */
function isKeptGitVariable(name: string): boolean {
  return name === "GIT_CONFIG_PARAMETERS" || /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/.test(name);
}

export function cleanEnv(extra: Env = {}): Env {
  const env: Env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("GIT_") && !isKeptGitVariable(name)) continue;
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
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

function execaOptions(options: GitOptions): Options {
  return {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    ...(options.input === undefined ? { stdin: "ignore" } : { input: options.input }),
  } as Options;
}

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await execa("git", args, { ...execaOptions(options), encoding: "utf8" });
  const out = {
    stdout: String(result.stdout ?? ""),
    stderr: String(result.stderr ?? ""),
    exitCode: result.exitCode ?? -1,
  };
  if (out.exitCode !== 0 && !options.allowFailure) throw new GitError(args, result.exitCode, out.stderr);
  return out;
}

/** The same as `git`, with stdout as bytes (blob contents, tar streams). */
export async function gitBuffer(args: readonly string[], options: GitOptions): Promise<Buffer> {
  const result = await execa("git", args, { ...execaOptions(options), encoding: "buffer" });
  if (result.exitCode !== 0) {
    throw new GitError(args, result.exitCode, Buffer.from(result.stderr as Uint8Array).toString());
  }
  return Buffer.from(result.stdout as Uint8Array);
}

/** A streaming child git: the caller reads `stdout` and awaits the promise for the exit. */
export function spawnGit(args: readonly string[], options: Omit<GitOptions, "input">): ResultPromise {
  return execa("git", args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    buffer: { stdout: false, stderr: true },
    encoding: "buffer",
    stdin: "ignore",
  });
}

/** Split NUL-terminated `-z` output into records. */
export function splitNul(output: string): string[] {
  const records = output.split("\0");
  if (records.at(-1) === "") records.pop();
  return records;
}
