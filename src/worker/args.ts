// The worker's command line: its options, and the flags they give. One parser for both sides of a
// local review: the CLI's `worker` command, and the client that starts its built-in worker inside
// the namespaces itself (confine.ts), which mounts the workspace for the reviewers and limits these
// flags name before the worker has parsed them.
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { HostFlags } from "./host-options.js";
import type { LimitFlagValues } from "./limits.js";
import type { OrderedOption } from "./reviewer-specs.js";

export const WORKER_OPTIONS = {
  reviewer: { type: "string" },
  "reviewer-command": { type: "string", multiple: true },
  "reviewer-format": { type: "string", multiple: true },
  "reviewer-fixes": { type: "string", multiple: true },
  tools: { type: "string", multiple: true },
  network: { type: "boolean" },
  "setup-command": { type: "string" },
  "setup-network": { type: "boolean" },
  "cache-dir": { type: "string" },
  "core-whitespace": { type: "string" },
  sandbox: { type: "string" },
  "sign-key": { type: "string" },
  "max-tree-bytes": { type: "string" },
  "max-files": { type: "string" },
  "max-tmp-bytes": { type: "string" },
  "max-processes": { type: "string" },
  "max-seconds": { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export interface WorkerFlags extends HostFlags {
  reviewer?: string | undefined;
  coreWhitespace?: string | undefined;
  sandbox: string;
  /** --sign-key, else REVIEW_REMOTE_SIGN_KEY: sign every result (design §12). */
  signKey?: string | undefined;
  limits: LimitFlagValues;
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

function text(values: Values, name: keyof typeof WORKER_OPTIONS): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

function texts(values: Values, name: keyof typeof WORKER_OPTIONS): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** The worker's flags from its parsed options: `values` as parseArgs gives them, `ordered` in order. */
export function workerFlagsFrom(values: Values, ordered: readonly OrderedOption[]): WorkerFlags {
  return {
    reviewer: text(values, "reviewer"),
    ordered,
    tools: texts(values, "tools"),
    network: Boolean(values.network),
    setupCommand: text(values, "setup-command"),
    setupNetwork: Boolean(values["setup-network"]),
    cacheDir: text(values, "cache-dir"),
    coreWhitespace: text(values, "core-whitespace"),
    sandbox: text(values, "sandbox") ?? "auto",
    signKey: text(values, "sign-key") ?? process.env.REVIEW_REMOTE_SIGN_KEY,
    limits: {
      treeBytes: text(values, "max-tree-bytes"),
      files: text(values, "max-files"),
      tmpBytes: text(values, "max-tmp-bytes"),
      processes: text(values, "max-processes"),
      seconds: text(values, "max-seconds"),
    },
  };
}

/** The flags of `git review-remote worker <args>`, parsed as that command parses them; throws as it would. */
export function parseWorkerArgs(args: readonly string[]): WorkerFlags {
  const { values, tokens } = parseArgs({
    args: [...args],
    options: WORKER_OPTIONS,
    allowPositionals: false,
    strict: true,
    tokens: true,
  });
  const ordered = tokens.flatMap((token) =>
    token.kind === "option" ? [{ name: token.name, value: token.value }] : [],
  );
  return workerFlagsFrom(values, ordered);
}
