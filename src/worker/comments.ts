// Reads the reviewer's comments file (JSON Lines at $REVIEW_REMOTE_COMMENTS) defensively: bounded size,
// no symlink, one comment per line with only the result's fields; a bad line is skipped with a warning.

import { constants } from "node:fs";
import { open } from "node:fs/promises";
import type { CommentTier } from "../protocol/parse-result.js";
import { type ReviewComment, ReviewCommentSchema } from "../protocol/result.js";
import { MostSevere } from "./most-severe.js";

const MAX_COMMENTS_FILE_BYTES = 16 * 1024 * 1024;
const MAX_WARNINGS = 10;
const FIELDS = ["path", "line", "endLine", "severity", "message", "rule"] as const;

export interface ParsedComments {
  /** At most the limit: the most severe. */
  comments: ReviewComment[];
  /** Comments over the limit, left out (the result says how many, once for every reviewer). */
  overLimit: number;
  /** One line per problem, already capped. */
  warnings: string[];
}

/** One line: the comment, or why it was skipped. */
function parseLine(line: string, number: number): ReviewComment | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `comments line ${number}: not valid JSON; skipped`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `comments line ${number}: not a JSON object; skipped`;
  }
  // Only the result's fields, copied by name: unknown keys and __proto__ never reach the result.
  const picked: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (Object.hasOwn(value, field)) picked[field] = (value as Record<string, unknown>)[field];
  }
  const checked = ReviewCommentSchema.safeParse(picked);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  return `comments line ${number}: ${issue?.path.join(".") || "comment"}: ${issue?.message ?? "invalid"}; skipped`;
}

/** Parses JSON Lines text into comments, keeping at most `maxComments`: the most severe (by `tier` first). */
export function parseComments(text: string, maxComments: number, tier?: CommentTier): ParsedComments {
  const kept = new MostSevere(maxComments, tier);
  const warnings: string[] = [];
  let skipped = 0;
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const parsed = parseLine(line, index + 1);
    if (typeof parsed === "string") {
      skipped++;
      if (warnings.length < MAX_WARNINGS) warnings.push(parsed);
    } else {
      kept.add(parsed);
    }
  }
  if (skipped > warnings.length)
    warnings.push(`comments: ${skipped - warnings.length} more bad lines skipped`);
  return { comments: kept.comments(), overLimit: kept.overLimit, warnings };
}

/** Reads the file the reviewer wrote (never through a symlink), up to MAX_COMMENTS_FILE_BYTES. */
export async function readComments(
  path: string,
  maxComments: number,
  tier?: CommentTier,
): Promise<ParsedComments> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { comments: [], overLimit: 0, warnings: [] };
    return {
      comments: [],
      overLimit: 0,
      warnings: [`comments file unreadable: ${(error as NodeJS.ErrnoException).code}; ignored`],
    };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      return { comments: [], overLimit: 0, warnings: ["comments file is not a regular file; ignored"] };
    }
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_COMMENTS_FILE_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const parsed = parseComments(buffer.subarray(0, bytesRead).toString("utf8"), maxComments, tier);
    if (stat.size > MAX_COMMENTS_FILE_BYTES)
      parsed.warnings.push(`comments file over ${MAX_COMMENTS_FILE_BYTES} bytes; the rest was ignored`);
    return parsed;
  } finally {
    await handle.close();
  }
}
