// The real reviewer reports of fixtures/reviewer-formats (made by its capture.sh): the tree the tools
// ran on, each report with @TREE@ put back as a tree path, and what each tool's own write mode made.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { applyFixes } from "../../src/worker/formats/apply-fixes.js";
import { convertReport } from "../../src/worker/formats/convert.js";
import {
  type ConvertedReport,
  DEFAULT_FORMAT_LIMITS,
  type FormatLimits,
  type ReportFormat,
} from "../../src/worker/formats/types.js";
import { FIXTURES } from "./fixtures.js";

const FORMATS_DIR = join(FIXTURES, "reviewer-formats");
const TREE_DIR = join(FORMATS_DIR, "tree");

/** Where the tools ran as far as their reports are concerned; any absolute path works. */
export const TREE_ROOT = "/srv/review/tree";

export function readReport(name: string, treeRoot = TREE_ROOT): Buffer {
  return Buffer.from(readFileSync(join(FORMATS_DIR, "reports", name), "utf8").replaceAll("@TREE@", treeRoot));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Every file of the tree, by tree path. */
export function treeFiles(): Map<string, Uint8Array> {
  return new Map(listFiles(TREE_DIR).map((path) => [path, readFileSync(join(TREE_DIR, path))]));
}

/** The files a tool's own write mode changed, by tree path, as it left them. */
export function fixedFiles(tool: string): Map<string, Uint8Array> {
  const dir = join(FORMATS_DIR, "fixed", tool);
  return new Map(listFiles(dir).map((path) => [path, readFileSync(join(dir, path))]));
}

export async function convertOk(
  format: ReportFormat,
  bytes: Uint8Array,
  limits: Partial<FormatLimits> = {},
  treeRoot = TREE_ROOT,
): Promise<ConvertedReport> {
  const outcome = await convertReport(format, bytes, {
    treeRoot,
    limits: { ...DEFAULT_FORMAT_LIMITS, ...limits },
  });
  if (!outcome.ok) throw new Error(`expected the ${format} report to convert: ${outcome.error}`);
  return outcome.report;
}

/** A report's fixes applied to the tree: the changed files as text, for readable failures. */
export function applyToTree(report: ConvertedReport): { changed: Map<string, string>; comments: string[] } {
  const applied = applyFixes(report.fixes, treeFiles(), DEFAULT_FORMAT_LIMITS);
  const changed = new Map(
    [...applied.files].map(([path, bytes]) => [path, Buffer.from(bytes).toString("utf8")]),
  );
  return { changed, comments: applied.comments.map((comment) => comment.message) };
}

export function asText(files: Map<string, Uint8Array>): Map<string, string> {
  return new Map([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString("utf8")]));
}

/** `path:line rule` of each comment, the way a reviewer reads them. */
export function places(comments: readonly { path?: string; line?: number; rule?: string }[]): string[] {
  return comments.map((comment) => `${comment.path}:${comment.line} ${comment.rule}`);
}

/** What ESLint (the README's recipe) says of the crafted tree, in its order. */
export const ESLINT_PLACES: readonly string[] = [
  "src/app.js:1 no-var",
  "src/app.js:2 prefer-const",
  "src/app.js:3 eqeqeq",
  "src/app.js:6 prefer-const",
  "src/app.js:6 no-unused-vars",
  "src/app.js:6 prefer-const",
  "src/app.js:6 no-unused-vars",
  "src/crlf.js:1 prefer-const",
  "src/crlf.js:2 prefer-const",
  "src/noeol.js:1 eol-last",
  "src/ugly.js:1 no-unused-vars",
  "src/ugly.js:3 no-unused-vars",
];
