// The built-in reviewer `hygiene` (design §8): deterministic, offline, our own code. It fixes trailing
// whitespace and missing final newlines, and reports conflict markers, mixed line endings and oversized
// files. It runs in the worker process on the unpacked tree and never follows a symlink.

import { closeSync, constants, fstatSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forbiddenChangeReason } from "../../paths/forbidden.js";
import type { ReviewComment } from "../../protocol/result.js";
import type { BundleListing } from "../verify-bundle.js";
import { checkText, isBinary } from "./hygiene-text.js";

const HYGIENE_MAX_FILE_BYTES = 1024 * 1024;
/** Files named in the commit body; the message must stay well under the result's 64 KiB per text. */
const MAX_LISTED_FILES = 200;
export const HYGIENE_COMMIT_TITLE = "Fix whitespace: trailing spaces and final newlines";

export interface HygieneOptions {
  /** Only these paths (the request's range.paths), when set. */
  paths?: ReadonlySet<string>;
  /** The request's forbiddenPaths: reported on, never fixed. */
  forbiddenPaths: readonly string[];
  /** False when the request does not ask for proposals: nothing is written. */
  fix: boolean;
  /** Called with a file's original content just before it is rewritten. */
  beforeRewrite?: (path: string, content: Buffer) => void;
}

export interface HygieneOutcome {
  comments: ReviewComment[];
  /** Paths rewritten in the tree. */
  fixed: string[];
  /** The message of the one commit, when something was fixed. */
  commitMessage?: string;
  summary: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(content: Buffer): boolean {
  try {
    utf8.decode(content);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a regular file without following a symlink at the last component (the validated listing has
 * none above it). Synchronous on purpose: for tens of thousands of small files on tmpfs the async
 * version spends most of its time in the thread pool round trips.
 */
function readRegularFile(path: string): { size: number; content?: Buffer } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { size: -1 };
    if (stat.size > HYGIENE_MAX_FILE_BYTES) return { size: stat.size };
    return { size: stat.size, content: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

function writeRegularFile(path: string, content: Buffer): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

function describe(
  outcome: HygieneOutcome,
  counts: { conflicts: number; mixed: number; oversized: number },
): string {
  const parts: string[] = [];
  if (outcome.fixed.length > 0)
    parts.push(`fixed whitespace in ${outcome.fixed.length} file${outcome.fixed.length === 1 ? "" : "s"}`);
  if (counts.conflicts > 0)
    parts.push(`${counts.conflicts} conflict marker block${counts.conflicts === 1 ? "" : "s"}`);
  if (counts.mixed > 0)
    parts.push(`${counts.mixed} file${counts.mixed === 1 ? "" : "s"} with mixed line endings`);
  if (counts.oversized > 0)
    parts.push(`${counts.oversized} oversized file${counts.oversized === 1 ? "" : "s"}`);
  return parts.length === 0 ? "Hygiene: nothing to report." : `Hygiene: ${parts.join("; ")}.`;
}

export async function runHygiene(
  tree: string,
  listing: BundleListing,
  options: HygieneOptions,
): Promise<HygieneOutcome> {
  const outcome: HygieneOutcome = { comments: [], fixed: [], summary: "" };
  const counts = { conflicts: 0, mixed: 0, oversized: 0 };
  const paths = [...listing.nodes].filter(
    ([path, node]) => node.kind === "file" && (!options.paths || options.paths.has(path)),
  );
  paths.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path] of paths) {
    const { size, content } = readRegularFile(join(tree, path));
    if (size > HYGIENE_MAX_FILE_BYTES) {
      counts.oversized++;
      outcome.comments.push({
        path,
        severity: "warning",
        message: `Large file (${size} bytes, over ${HYGIENE_MAX_FILE_BYTES}): consider Git LFS or keeping it out of the repository.`,
        rule: "hygiene/oversized-file",
      });
      continue;
    }
    if (!content || isBinary(content)) continue;
    const report = checkText(content);
    for (const block of report.conflicts) {
      counts.conflicts++;
      outcome.comments.push({
        path,
        line: block.line,
        endLine: block.endLine,
        severity: "error",
        message: "Unresolved merge conflict markers.",
        rule: "hygiene/conflict-marker",
      });
    }
    if (report.mixedLineEndings) {
      const { crlf, lf, firstMinorityLine } = report.mixedLineEndings;
      counts.mixed++;
      outcome.comments.push({
        path,
        line: firstMinorityLine,
        severity: "warning",
        message: `Mixed line endings: ${crlf} CRLF and ${lf} LF lines.`,
        rule: "hygiene/mixed-line-endings",
      });
    }
    if (
      !report.fixed ||
      !options.fix ||
      !isUtf8(content) ||
      forbiddenChangeReason(path, options.forbiddenPaths)
    )
      continue;
    options.beforeRewrite?.(path, content);
    writeRegularFile(join(tree, path), report.fixed);
    outcome.fixed.push(path);
  }
  if (outcome.fixed.length > 0) {
    const listed = outcome.fixed.slice(0, MAX_LISTED_FILES).map((path) => `- ${path}`);
    if (outcome.fixed.length > MAX_LISTED_FILES)
      listed.push(`- ... and ${outcome.fixed.length - MAX_LISTED_FILES} more`);
    outcome.commitMessage = `${HYGIENE_COMMIT_TITLE}\n\n${listed.join("\n")}\n`;
  }
  outcome.summary = describe(outcome, counts);
  return outcome;
}
