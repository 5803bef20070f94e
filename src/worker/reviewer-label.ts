// How a reviewer command is named in its commit message and in the summary: the program and the flags
// that say it fixes (`eslint --fix`), and its version when it prints one on `--version`.

import { basename } from "node:path";
import { runProcess } from "./run-process.js";
import { type Grants, type ReviewerIo, treeEnv, treeSpec } from "./run-reviewer.js";
import { type Sandbox, sandboxCommand } from "./sandbox.js";

/** Words that only run another program, skipped to find the tool. */
const RUNNERS = new Set(["npx", "exec", "env", "command", "nice", "timeout", "xargs"]);
const FIX_FLAG = /^--?(fix|write|apply|update-all|unsafe|in-place)(=|$)/;

/**
 * The words of the command's last pipeline stage: the program whose output is the report
 * (`grep -z '\.sh$' "$REVIEW_REMOTE_CHANGED" | xargs -0 -r shellcheck -f diff` is shellcheck's).
 * A `|` between spaces is a pipe (`||` is not; one inside a quoted pattern rarely has spaces around it).
 */
function words(command: string): string[] {
  return (command.split(/\s\|\s/).at(-1) ?? command)
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/^['"]+|['";&|)]+$/g, ""));
}

/** The program a command runs, or undefined when it cannot be told. */
function program(command: string): { name: string; at: number } | undefined {
  const list = words(command);
  for (const [at, word] of list.entries()) {
    if (word === "" || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || RUNNERS.has(word)) continue;
    if (/^-/.test(word)) continue;
    return { name: word, at };
  }
  return undefined;
}

/** `eslint --fix` for `npx eslint --fix -f rdjson src`. */
export function commandLabel(command: string): string {
  const found = program(command);
  if (!found) return command.trim().slice(0, 60);
  const flags = words(command)
    .slice(found.at + 1)
    .filter((word) => FIX_FLAG.test(word))
    .map((word) => word.replace(/=.*$/, ""));
  return [basename(found.name), ...new Set(flags)].join(" ").slice(0, 80);
}

/** The probe gets at most this, and at most a tenth of the time left: a script may not know the flag. */
const VERSION_TIMEOUT_MS = 10_000;
/** How long the probe may go on once the reviewer is done. */
const VERSION_GRACE_MS = 1000;

/**
 * `<program> --version`, best effort and alongside the reviewer: only in a sandbox (neither the tree
 * nor the reviewer's /tmp bound, so a script that does not know the flag changes nothing), bounded in
 * output and in time (a tenth of what is left, at most 10 s: a node tool on a loaded machine takes
 * seconds; and 1 s after the reviewer is done). `whileRunning` runs the reviewer.
 */
export async function withVersion<T>(
  command: string,
  sandbox: Sandbox,
  io: Pick<ReviewerIo, "home">,
  grants: Grants,
  deadline: { signal: AbortSignal; remainingMs(): number },
  whileRunning: () => Promise<T>,
): Promise<{ version: string | undefined; value: T }> {
  const stop = new AbortController();
  const probe = probeVersion(command, sandbox, io, grants, {
    signal: AbortSignal.any([deadline.signal, stop.signal]),
    timeoutMs: Math.min(VERSION_TIMEOUT_MS, deadline.remainingMs() / 10),
  });
  let grace: NodeJS.Timeout | undefined;
  try {
    const value = await whileRunning();
    grace = setTimeout(() => stop.abort(), VERSION_GRACE_MS);
    return { version: await probe, value };
  } finally {
    clearTimeout(grace);
    stop.abort();
  }
}

async function probeVersion(
  command: string,
  sandbox: Sandbox,
  io: Pick<ReviewerIo, "home">,
  grants: Grants,
  bounds: { signal: AbortSignal; timeoutMs: number },
): Promise<string | undefined> {
  const found = program(command);
  if (!found || sandbox.kind === "none") return undefined;
  const spec = treeSpec(
    { tree: "/tmp" },
    { ...grants, network: false },
    {
      argv: ["sh", "-c", 'exec "$0" --version', found.name],
      writable: [],
      readOnly: [],
      env: treeEnv(sandbox, io, grants),
    },
  );
  const outcome = await runProcess(sandboxCommand(sandbox, spec), {
    cwd: "/",
    timeoutMs: bounds.timeoutMs,
    captureStdoutBytes: 4096,
    maxOutputBytes: 0,
    signal: bounds.signal,
  });
  if (outcome.exitCode !== 0) return undefined;
  // `v10.16.0`, `Version: 2.6.9`, `ast-grep 0.51.1`, `version: 0.9.0`: the first dotted number.
  return /(?<![\d.])\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?/.exec(outcome.stdout.toString("utf8"))?.[0];
}
