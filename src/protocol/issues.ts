// zod issues become one `path: message` line each, in plain words: the lines are shown to users and to
// third-party worker authors, so they name the field and the rule, never zod internals.

import type { z } from "zod";
import { formatPath, quoteForMessage } from "./quote.js";

/** Lines beyond this are summarized, so a result with thousands of bad comments stays readable. */
const MAX_PROBLEM_LINES = 20;

type RawIssue = z.core.$ZodRawIssue;

/** Per-parse error map: messages set on a schema win over it (zod 4 precedence). */
export const describeIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? "required"
        : `must be ${article(issue.expected)}, not ${kindOf(issue.input)}`;
    case "too_small":
      return describeBound(issue, "at least", issue.minimum);
    case "too_big":
      return describeBound(issue, "at most", issue.maximum);
    case "invalid_value":
      return issue.input === undefined ? "required" : describeValues(issue.values, issue.input);
    case "invalid_format":
      return "has an invalid format";
    case "unrecognized_keys":
      return "unknown field";
    default:
      return "is invalid";
  }
};

/** One line per issue (one per unknown key), capped at `maxLines`. */
export function formatIssues(
  issues: readonly z.core.$ZodIssue[],
  root: string,
  maxLines = MAX_PROBLEM_LINES,
): string[] {
  const lines = issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => `${formatPath([...issue.path, key], root)}: unknown field`)
      : [`${formatPath(issue.path, root)}: ${issue.message}`],
  );
  return capProblems(lines, maxLines);
}

export function capProblems(lines: string[], maxLines = MAX_PROBLEM_LINES): string[] {
  if (lines.length <= maxLines) return lines;
  const rest = lines.length - (maxLines - 1);
  return [...lines.slice(0, maxLines - 1), `... and ${rest} more problems`];
}

function describeBound(issue: RawIssue & { origin: string }, word: string, bound: number | bigint): string {
  const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
  switch (issue.origin) {
    case "string":
      if (word === "at least" && bound === 1) return "must not be empty";
      return `must be ${word} ${bound} characters long (got ${(issue.input as string).length})`;
    case "array":
      if (word === "at least" && bound === 1) return "must not be empty";
      return `must have ${word} ${bound} items (got ${(issue.input as unknown[]).length})`;
    default:
      return `must be ${inclusive ? word : word === "at least" ? "greater than" : "less than"} ${bound}`;
  }
}

function describeValues(values: readonly unknown[], input: unknown): string {
  const allowed = values.map((value) => JSON.stringify(value)).join(", ");
  const got = typeof input === "string" ? ` (got ${quoteForMessage(input)})` : `, not ${kindOf(input)}`;
  return values.length === 1 ? `must be ${allowed}${got}` : `must be one of ${allowed}${got}`;
}

function article(expected: string): string {
  if (expected === "int") return "an integer";
  if (expected === "null") return "null";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && !Number.isInteger(value)) return "a fractional number";
  return article(typeof value);
}
