// The one module that runs ssh-keygen (its -Y signature commands): argument arrays, no shell, the data
// on stdin, a deadline. Every path passed is absolute, so none can be read as an option.
// https://man.openbsd.org/ssh-keygen#Y

import { isAbsolute } from "node:path";
import { messages } from "../messages.js";
import { sanitizeLine } from "../validate/sanitize.js";
import { runProcess } from "../worker/run-process.js";
import { SshKeygenError } from "./errors.js";
import { RECEIPT_NAMESPACE } from "./statement.js";

const DEFAULT_TIMEOUT_MS = 10_000;
/** ssh-keygen prints a line or two; a signature is a few KiB. */
const MAX_OUTPUT_BYTES = 64 * 1024;

export interface VerifyFiles {
  /** An allowed_signers file (sshd(8), ALLOWED SIGNERS). */
  allowedSigners: string;
  /** Who must have signed: matched against the principals column of `allowedSigners`. */
  principal: string;
  signature: string;
}

/** `-Y sign`: the data on stdin, the armored signature on stdout; `-f` may name a public key in ssh-agent. */
export function signArgs(keyFile: string): string[] {
  return ["-Y", "sign", "-n", RECEIPT_NAMESPACE, "-f", absolute(keyFile)];
}

/** `-Y verify`: checks the signature, the key against `-I`'s lines (namespaces, validity, CAs), the data. */
export function verifyArgs(files: VerifyFiles): string[] {
  return [
    "-Y",
    "verify",
    "-f",
    absolute(files.allowedSigners),
    "-I",
    files.principal,
    "-n",
    RECEIPT_NAMESPACE,
    "-s",
    absolute(files.signature),
  ];
}

/** `-Y check-novalidate`: whether the signature holds at all, whoever's key made it. */
export function checkNovalidateArgs(signatureFile: string): string[] {
  return ["-Y", "check-novalidate", "-n", RECEIPT_NAMESPACE, "-s", absolute(signatureFile)];
}

function absolute(path: string): string {
  if (!isAbsolute(path)) throw new TypeError(`ssh-keygen: ${path} is not an absolute path`);
  return path;
}

export interface SshKeygenOptions {
  /** The process environment (ssh-agent is reached through its SSH_AUTH_SOCK). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface SshKeygenOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs ssh-keygen with `input` on stdin. Throws SshKeygenError only when it is missing or hangs. */
export async function runSshKeygen(
  args: readonly string[],
  input: string,
  options: SshKeygenOptions = {},
): Promise<SshKeygenOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let stderr = "";
  const outcome = await runProcess(
    { file: "ssh-keygen", args: [...args], env: sshKeygenEnv(options.env ?? process.env) },
    {
      cwd: "/",
      timeoutMs,
      captureStdoutBytes: MAX_OUTPUT_BYTES,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      onOutput: (text) => {
        stderr += text;
      },
      onStdin: (stdin) => stdin.end(input, "utf8"),
    },
  );
  const operation = args[1] ?? "";
  if (outcome.error) {
    const missing = (outcome.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new SshKeygenError(
      missing ? messages.sshKeygenMissing : messages.sshKeygenFailed(operation, outcome.error.message),
      { cause: outcome.error, hints: missing ? [messages.hintSshKeygenMissing] : [] },
    );
  }
  if (outcome.timedOut) throw new SshKeygenError(messages.sshKeygenTimedOut(operation, timeoutMs / 1000));
  return { exitCode: outcome.exitCode ?? 128, stdout: outcome.stdout.toString("utf8"), stderr };
}

/**
 * Its own session (run-process detaches it) gives ssh-keygen no terminal to prompt on, and with
 * SSH_ASKPASS_REQUIRE=never no askpass window either: a passphrase it would need makes it fail, not wait.
 */
function sshKeygenEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) clean[name] = value;
  return { ...clean, LC_ALL: "C", SSH_ASKPASS_REQUIRE: "never" };
}

export interface SignerKey {
  keyType: string;
  fingerprint: string;
}

/** `Good "git-review-remote@v1" signature for box with ED25519 key SHA256:7DLl...` (verify and check-novalidate). */
export function parseGoodSignature(stdout: string): SignerKey | undefined {
  const line = stdout.split("\n").find((candidate) => candidate.startsWith("Good "));
  const match = line && / with (\S+) key (\S+)$/.exec(line);
  return match ? { keyType: match[1] as string, fingerprint: match[2] as string } : undefined;
}

/** The last line ssh-keygen wrote (its reason), made safe to print. */
export function lastLine(stderr: string): string {
  const lines = stderr.split("\n").map((line) => sanitizeLine(line).trim());
  return (
    lines
      .filter((line) => line !== "")
      .at(-1)
      ?.slice(0, 200) ?? "no reason given"
  );
}
