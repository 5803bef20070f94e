// Settings from git config (section `review-remote`), never from a file committed in the repo.
import { ConfigError } from "../errors.js";
import { git, splitNul } from "../git/run.js";
import { messages } from "../messages.js";
import { type FailLevel, isFailLevel } from "../pipeline/fail-level.js";
import { type FilterMode, isFilterMode } from "../pipeline/filter.js";
import {
  LIMIT_CEILINGS,
  MAX_TIMEOUT_SECONDS,
  RAISABLE_LIMITS,
  type RaisableLimit,
} from "../protocol/limits.js";
import type { Repo } from "../repo.js";

const PrePushMode = { off: "off", warn: "warn", block: "block" } as const;
type PrePushMode = (typeof PrePushMode)[keyof typeof PrePushMode];

export interface Settings {
  worker: string;
  timeoutSeconds: number;
  question: string | undefined;
  prePush: PrePushMode;
  prePushTimeoutSeconds: number;
  failClosed: boolean;
  branchPrefix: string;
  /** `review-remote.<name>.command`, by worker name. */
  workerCommands: Map<string, string>;
  /** git's own color.ui, which our colors follow. */
  colorUi: string | undefined;
  /** `review-remote.pruneExpire` as written: prune checks it (a bad one fails prune alone). */
  pruneExpire: string | undefined;
  /** `review-remote.failLevel`: the review exits 7 on a finding at or above it. */
  failLevel: FailLevel | undefined;
  /** `review-remote.filterMode`: which comments a focused review shows. */
  filterMode: FilterMode | undefined;
  /** git's own core.whitespace, which the local worker's built-in reviewer follows. */
  coreWhitespace: string | undefined;
  /** `review-remote.maxPatchBytes`, `maxComments`, `maxCommits`: set ones only, within the ceilings. */
  limits: Partial<Record<RaisableLimit, number>>;
  /** Receipts (design §12): `review-remote.allowedSigners`, and per worker name. */
  allowedSigners: { all: string | undefined; byWorker: Map<string, string> };
  /** `review-remote.<name>.requireSignature`, by worker name, where set. */
  requireSignature: Map<string, boolean>;
}

export const DEFAULT_QUESTION =
  "Review this change for bugs, security problems and style; propose fixes as commits.";

/**
 * `git config -z --get-regexp` prints `key\nvalue\0` per entry. Section and key names come back
 * lower-cased; the subsection (the worker name) keeps its case.
 */
async function readGitConfig(repo: Pick<Repo, "env" | "cwd">): Promise<Map<string, string>> {
  const result = await git(
    ["config", "-z", "--get-regexp", "^(review-remote\\.|color\\.ui$|core\\.whitespace$)"],
    {
      cwd: repo.cwd,
      env: repo.env,
      allowFailure: true,
    },
  );
  // Exit 1 means no key is set; anything else is a config file git cannot read.
  if (result.exitCode !== 0 && result.exitCode !== 1) {
    throw new ConfigError(messages.gitConfigUnreadable(result.stderr.trim().split("\n")[0] ?? ""));
  }
  const { stdout } = result;
  const values = new Map<string, string>();
  for (const record of splitNul(stdout)) {
    const newline = record.indexOf("\n");
    const key = newline === -1 ? record : record.slice(0, newline);
    values.set(key, newline === -1 ? "true" : record.slice(newline + 1));
  }
  return values;
}

/** A config value this tool cannot use: what it expected, and where to look for the setting. */
function invalidConfig(key: string, value: string, expected: string): ConfigError {
  return new ConfigError(messages.configInvalid(key, value, expected), {
    hints: [messages.hintConfigInvalid(key)],
  });
}

function parsePositive(key: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  // Timers hold at most 2^31 - 1 ms.
  if (!Number.isInteger(number) || number <= 0 || number > MAX_TIMEOUT_SECONDS) {
    throw invalidConfig(key, value, `a number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`);
  }
  return number;
}

function parseBool(key: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (["true", "yes", "on", "1"].includes(v)) return true;
  if (["false", "no", "off", "0", ""].includes(v)) return false;
  throw invalidConfig(key, value, "a boolean");
}

function parsePrePush(value: string | undefined): PrePushMode {
  if (value === undefined) return PrePushMode.warn;
  const mode = value.toLowerCase();
  if (mode === "off" || mode === "warn" || mode === "block") return mode;
  throw invalidConfig("review-remote.prePush", value, "off, warn or block");
}

function parseFilterMode(value: string | undefined): FilterMode | undefined {
  if (value === undefined || isFilterMode(value)) return value;
  throw invalidConfig("review-remote.filterMode", value, "added, diff_context, file or nofilter");
}

const UNIT: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A count or size as git config writes integers (`4m` is 4 MiB), from 1 up to the limit's ceiling. */
function parseLimit(key: string, value: string): number {
  const match = /^([0-9]{1,12})([kmg]?)$/i.exec(value.trim());
  const number = match ? Number(match[1]) * (UNIT[(match[2] ?? "").toLowerCase()] ?? 1) : Number.NaN;
  const ceiling = LIMIT_CEILINGS[key as RaisableLimit];
  if (!(number >= 1 && number <= ceiling)) {
    const name = RAISABLE_LIMITS[key as RaisableLimit];
    // A size reads as git writes it (32m), with the suffixes it takes; a count as a plain number.
    const expected =
      key === "maxPatchBytes"
        ? `a size in bytes from 1 to ${ceiling / 1024 ** 2}m (k, m and g multiply by 1024: 8m)`
        : `a number from 1 to ${ceiling}`;
    throw invalidConfig(name, value, expected);
  }
  return number;
}

function parseLimits(values: Map<string, string>): Partial<Record<RaisableLimit, number>> {
  const limits: Partial<Record<RaisableLimit, number>> = {};
  for (const [key, name] of Object.entries(RAISABLE_LIMITS) as [RaisableLimit, string][]) {
    const value = values.get(name.toLowerCase());
    if (value !== undefined) limits[key] = parseLimit(key, value);
  }
  return limits;
}

function parseFailLevel(value: string | undefined): FailLevel | undefined {
  if (value === undefined || isFailLevel(value)) return value;
  throw invalidConfig("review-remote.failLevel", value, "none, error, warning or info");
}

/** `review-remote.<name>.<key>` values by worker name (`key` as git prints it: lower-cased). */
function perWorker<T>(values: Map<string, string>, key: string, parse: (key: string, value: string) => T) {
  const byWorker = new Map<string, T>();
  const pattern = new RegExp(`^review-remote\\.(.+)\\.${key}$`);
  for (const [name, value] of values) {
    const worker = pattern.exec(name)?.[1];
    if (worker) byWorker.set(worker, parse(name, value));
  }
  return byWorker;
}

function parseSettings(values: Map<string, string>): Settings {
  const workerCommands = perWorker(values, "command", (_key, value) => value);
  return {
    worker: values.get("review-remote.worker") || "local",
    timeoutSeconds: parsePositive("review-remote.timeout", values.get("review-remote.timeout"), 900),
    question: values.get("review-remote.question"),
    prePush: parsePrePush(values.get("review-remote.prepush")),
    prePushTimeoutSeconds: parsePositive(
      "review-remote.prePushTimeout",
      values.get("review-remote.prepushtimeout"),
      120,
    ),
    failClosed: parseBool("review-remote.failClosed", values.get("review-remote.failclosed"), false),
    branchPrefix: values.get("review-remote.branchprefix") || "review/",
    workerCommands,
    colorUi: values.get("color.ui"),
    filterMode: parseFilterMode(values.get("review-remote.filtermode")),
    failLevel: parseFailLevel(values.get("review-remote.faillevel")),
    pruneExpire: values.get("review-remote.pruneexpire") || undefined,
    coreWhitespace: values.get("core.whitespace"),
    limits: parseLimits(values),
    allowedSigners: {
      all: values.get("review-remote.allowedsigners") || undefined,
      byWorker: perWorker(values, "allowedsigners", (_key, value) => value),
    },
    requireSignature: perWorker(values, "requiresignature", (key, value) =>
      parseBool(key.replace(/requiresignature$/, "requireSignature"), value, true),
    ),
  };
}

export async function readSettings(repo: Pick<Repo, "env" | "cwd">): Promise<Settings> {
  return parseSettings(await readGitConfig(repo));
}
