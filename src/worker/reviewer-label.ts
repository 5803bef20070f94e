// How a reviewer command is named in its commit message and in the summary: the program and the flags
// that say it fixes (`eslint --fix`), and its version when it prints one on `--version`.

import { basename } from "node:path";
import { runProcess } from "./run-process.js";
import { type Grants, type ReviewerIo, treeEnv, treeSpec } from "./run-reviewer.js";
import { type Sandbox, sandboxCommand } from "./sandbox.js";

/** Words that only run another program, skipped to find the tool. */
const RUNNERS = new Set(["npx", "exec", "env", "command", "nice", "timeout", "xargs", "-0"]);
const FIX_FLAG = /^--?(fix|write|apply|update-all|unsafe|in-place)(=|$)/;

function words(command: string): string[] {
  return command
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

/**
 * `<program> --version`, best effort: only in a sandbox (the tree not bound, so a script that does not
 * know the flag changes nothing), bounded in output and in time (a tenth of what is left, at most
 * 10 s: a node tool on a loaded machine takes seconds); the first version-like word.
 */
export async function probeVersion(
  command: string,
  sandbox: Sandbox,
  io: Pick<ReviewerIo, "home" | "scratch">,
  grants: Grants,
  deadline: { signal: AbortSignal; remainingMs(): number },
): Promise<string | undefined> {
  const found = program(command);
  if (!found || sandbox.kind === "none") return undefined;
  const spec = treeSpec(
    { tree: "/tmp", ...(io.scratch ? { scratch: io.scratch } : {}) },
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
    timeoutMs: Math.min(VERSION_TIMEOUT_MS, deadline.remainingMs() / 10),
    captureStdoutBytes: 4096,
    maxOutputBytes: 0,
    signal: deadline.signal,
  });
  if (outcome.exitCode !== 0) return undefined;
  // `v10.16.0`, `Version: 2.6.9`, `ast-grep 0.51.1`, `version: 0.9.0`: the first dotted number.
  return /(?<![\d.])\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?/.exec(outcome.stdout.toString("utf8"))?.[0];
}
