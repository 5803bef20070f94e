// The client's check of the request it built, before a byte of it leaves: the v1 schema's rules
// (request.ts's RequestSchema, the worker's check and the published schema), its id, and the size
// of its envelope line against what a worker reads. Free of the schema library, which would cost a
// small review's start-up some 30 ms to load before the worker is sent anything; a unit test keeps
// these rules and the schema's in step, value for value.

import { canonicalJson } from "./jcs.js";
import { computeRequestId, REQUEST_SCHEMA } from "./request-line.js";

/** The longest request line (without its newline) a worker reads before it refuses the envelope. */
export const MAX_REQUEST_LINE_BYTES = 1024 * 1024;

/**
 * The longest question, in UTF-8 bytes. A reviewer command gets it as REVIEW_REMOTE_QUESTION, an
 * environment string, which Linux caps at 128 KiB with its name (more fails the reviewer's start with
 * E2BIG) and which cannot hold a NUL: a question either way is refused with the request.
 */
export const MAX_QUESTION_BYTES = 64 * 1024;

/**
 * The most globs a request may forbid. A worker matches each path a reviewer changed against all of
 * them, in one synchronous pass its deadline cannot stop: 60,000 short globs (a 1 MiB request line)
 * cost it some 90 ms a path, minutes for a crafted tree, where 1024 cost under 2 ms.
 */
export const MAX_FORBIDDEN_PATHS = 1024;

/** Why `question` cannot be a request's, or undefined. */
export function questionProblem(question: string): string | undefined {
  if (question.includes("\0")) return "must not hold a NUL character";
  if (question.length > MAX_QUESTION_BYTES / 3 && Buffer.byteLength(question, "utf8") > MAX_QUESTION_BYTES) {
    return `must be at most ${MAX_QUESTION_BYTES} bytes`;
  }
  return undefined;
}

/** Adds a `path: problem` line for each rule `value` breaks. */
type Rule = (value: unknown, path: string, problems: string[]) => void;

const HEX64 = /^[0-9a-f]{64}$/;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function string(options: { pattern?: RegExp; what?: string; nonEmpty?: boolean } = {}): Rule {
  return (value, path, problems) => {
    if (typeof value !== "string") problems.push(`${path}: must be a string`);
    else if (options.nonEmpty && value.length === 0) problems.push(`${path}: must not be empty`);
    else if (options.pattern && !options.pattern.test(value)) problems.push(`${path}: ${options.what}`);
  };
}

const question: Rule = (value, path, problems) => {
  if (typeof value !== "string") return void problems.push(`${path}: must be a string`);
  const problem = questionProblem(value);
  if (problem) problems.push(`${path}: ${problem}`);
};

function integer(min: number): Rule {
  return (value, path, problems) => {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
      problems.push(`${path}: must be an integer of at least ${min}`);
    }
  };
}

function oneOf(...values: string[]): Rule {
  return (value, path, problems) => {
    if (typeof value !== "string" || !values.includes(value)) {
      problems.push(`${path}: must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
    }
  };
}

function array(item: Rule, options: { nonEmpty?: boolean; unique?: boolean; maxItems?: number } = {}): Rule {
  return (value, path, problems) => {
    if (!Array.isArray(value)) return void problems.push(`${path}: must be an array`);
    if (options.nonEmpty && value.length === 0) problems.push(`${path}: must not be empty`);
    if (options.maxItems !== undefined && value.length > options.maxItems)
      return void problems.push(`${path}: must not list more than ${options.maxItems} items`);
    for (const [index, entry] of value.entries()) item(entry, `${path}.${index}`, problems);
    if (options.unique && new Set(value).size !== value.length)
      problems.push(`${path}: must not repeat a value`);
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every field of `shape` present (undefined is absent), and no other. */
function object(shape: Record<string, Rule>): Rule {
  return (value, path, problems) => {
    if (!isPlainObject(value)) return void problems.push(`${path}: must be an object`);
    for (const [key, rule] of Object.entries(shape)) {
      const where = path === "" ? key : `${path}.${key}`;
      if (value[key] === undefined) problems.push(`${where}: required`);
      else rule(value[key], where, problems);
    }
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(shape, key)) problems.push(`${path === "" ? key : `${path}.${key}`}: unknown field`);
    }
  };
}

function nullable(rule: Rule): Rule {
  return (value, path, problems) => {
    if (value !== null) rule(value, path, problems);
  };
}

const positive = integer(1);
const count = integer(0);

const REQUEST = object({
  schema: oneOf(REQUEST_SCHEMA),
  id: string({ pattern: HEX64, what: "must be 64 lowercase hex digits" }),
  bundle: object({
    sha256: string({ pattern: HEX64, what: "must be 64 lowercase hex digits" }),
    bytes: count,
    format: oneOf("tar+gzip"),
    files: count,
  }),
  snapshot: object({
    commit: string({ pattern: OID, what: "must be a 40- or 64-digit lowercase hex object id" }),
    kind: oneOf("commit", "worktree"),
  }),
  range: nullable(
    object({
      base: string({ pattern: OID, what: "must be a 40- or 64-digit lowercase hex object id" }),
      head: string({ pattern: OID, what: "must be a 40- or 64-digit lowercase hex object id" }),
      paths: array(string({ nonEmpty: true })),
      patch: string(),
    }),
  ),
  question,
  actions: array(oneOf("comment", "propose"), { nonEmpty: true, unique: true }),
  forbiddenPaths: array(string({ nonEmpty: true }), { maxItems: MAX_FORBIDDEN_PATHS }),
  limits: object({
    timeoutSeconds: positive,
    maxResultBytes: positive,
    maxCommits: positive,
    maxComments: positive,
    maxPatchBytes: positive,
  }),
});

/** Where a request breaks the v1 schema, one `path: problem` line each; none for a valid one. */
export function requestProblems(request: unknown): string[] {
  const problems: string[] = [];
  REQUEST(request, "", problems);
  return problems;
}

/**
 * The request checked as a worker will check it: its schema, then its id and its envelope line (a
 * value JSON cannot carry, such as a lone surrogate, is a problem too). The line's size, which a
 * worker caps at MAX_REQUEST_LINE_BYTES, is the caller's to judge: it is what the user can change.
 */
export function checkRequestLine(request: unknown): { problems: string[]; lineBytes: number } {
  const problems = requestProblems(request);
  if (problems.length > 0) return { problems, lineBytes: 0 };
  const body = request as { id: string };
  let line: string;
  try {
    line = canonicalJson(body);
  } catch (error) {
    return { problems: [(error as Error).message], lineBytes: 0 };
  }
  const expected = computeRequestId(body);
  if (expected !== body.id) return { problems: [`id: does not match the request's content`], lineBytes: 0 };
  return { problems: [], lineBytes: Buffer.byteLength(line) };
}
