// What the user asked to review: `<rev>` or `<base>..<head>`.
import { UsageError } from "../errors.js";
import { messages } from "../messages.js";

export interface Target {
  /** The commit to snapshot. */
  rev: string;
  /** Set for a range: the reviewer focuses on base..rev. */
  base?: string;
}

export function parseTarget(spec: string | undefined): Target {
  if (spec === undefined) return { rev: "HEAD" };
  if (spec.includes("...")) {
    throw new UsageError(`symmetric ranges are not supported: ${spec}`, { hints: [messages.hintRange] });
  }
  const dots = spec.indexOf("..");
  if (dots === -1) return { rev: spec };
  const base = spec.slice(0, dots) || "HEAD";
  const rev = spec.slice(dots + 2) || "HEAD";
  return { rev, base };
}
