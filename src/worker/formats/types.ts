// The one value every reviewer report format converts to (comments, fixes to apply, or a patch), so the
// worker handles ESLint's rdjson, ast-grep's SARIF and ShellCheck's diff alike after this point.

import type { CommentTier } from "../../protocol/parse-result.js";
import type { ReviewComment } from "../../protocol/result.js";

export const REPORT_FORMATS = ["comments", "sarif", "rdjson", "rdjsonl", "diff"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

/** What a column counts: UTF-8 bytes (rdjson), UTF-16 code units (SARIF's default) or code points. */
export type ColumnUnit = "utf8" | "utf16" | "codePoint";

/** A 1-based place in a file; an end without `column` means the end of the line, before its newline. */
export interface LineColumn {
  line: number;
  column?: number;
}

/** Where an edit applies, in the terms the report used; resolved against the file's bytes later. */
export type EditRange =
  | { kind: "bytes"; offset: number; length: number; startLine?: number; endLine?: number }
  | { kind: "chars"; offset: number; length: number; unit: ColumnUnit }
  | { kind: "lineColumn"; start: LineColumn; end: LineColumn; unit: ColumnUnit }
  /** Whole lines with their newlines, replaced by `text` plus the newline (rdjson without columns). */
  | { kind: "lines"; startLine: number; endLine: number };

export interface Edit {
  /** Relative to the tree, already checked to stay inside it. */
  path: string;
  range: EditRange;
  text: string;
  /** The text the range must hold (a SARIF snippet): a stale fix is caught instead of misapplied. */
  expected?: string;
}

/** Edits applied together or not at all, with where to report the fix when it cannot be applied. */
export interface Fix {
  rule?: string;
  path?: string;
  line?: number;
  edits: Edit[];
}

/** A unified diff made into `git diff` form, every name checked. */
export interface ReportPatch {
  text: string;
  files: string[];
}

export interface ConvertedReport {
  /** The tool that wrote the report, when the report says (SARIF's driver, rdjson's source). */
  tool?: { name: string; version?: string };
  /** At most the limit: the most severe. */
  comments: ReviewComment[];
  /** Findings over the comments' limit, left out (their fixes still count). */
  overLimit: number;
  fixes: Fix[];
  /** Fixes over their limit, not in `fixes` (a count, for "n of m fixes applied"). */
  fixesOverLimit?: number;
  patch?: ReportPatch;
  /** Already capped: what was dropped or truncated and why. */
  warnings: string[];
}

export type ConvertOutcome = { ok: true; report: ConvertedReport } | { ok: false; error: string };

export interface FormatLimits {
  /** Bytes of report read; line formats are cut at the last whole line, JSON ones refused. */
  maxReportBytes: number;
  maxComments: number;
  maxFixes: number;
  /** Edits applied from one report, all fixes together. */
  maxEdits: number;
  /** UTF-8 bytes inserted by one report's edits. */
  maxInsertedBytes: number;
  /** Files larger than this are not edited. */
  maxFileBytes: number;
  /** Bytes of the patch a diff report becomes. */
  maxPatchBytes: number;
}

export const DEFAULT_FORMAT_LIMITS: Readonly<FormatLimits> = Object.freeze({
  maxReportBytes: 32 * 1024 * 1024,
  maxComments: 500,
  maxFixes: 2000,
  maxEdits: 10_000,
  maxInsertedBytes: 1024 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  maxPatchBytes: 1024 * 1024,
});

export interface ConvertContext {
  /** The tree's absolute path as the reviewer saw it: absolute paths and file URIs inside it count. */
  treeRoot: string;
  limits: FormatLimits;
  /** The change's comments first when the cut to maxComments comes. */
  tier?: CommentTier | undefined;
}
