// reviewdog's rdjson (ESLint's rdjson formatter, Biome's rdjson reporter): each diagnostic becomes a
// comment, and its `suggestions` one fix applied together. The conversion of one diagnostic is shared
// with rdjsonl, its JSON Lines form.

import type { Severity } from "../../protocol/result.js";
import { workerMessages as m } from "../messages.js";
import {
  type Diagnostic,
  DiagnosticResultSchema,
  type RdjsonRange,
  type RdjsonSeverity,
  type RdjsonSource,
} from "./rdjson-schema.js";
import { readJson } from "./read-json.js";
import { lastLine, ReportBuilder } from "./report-builder.js";
import { treePathFromFile } from "./tree-paths.js";
import type { ColumnUnit, ConvertContext, ConvertOutcome, Edit, EditRange } from "./types.js";

/**
 * The format counts columns in UTF-8 bytes, and ESLint's formatter does. Measured: Biome 2.6 counts
 * Unicode code points instead (`let` after "🐶" on a line is column 16, not 19), so its reports are
 * read its way.
 */
const CODE_POINT_COLUMN_SOURCES = new Set(["biome"]);

const SEVERITIES: Record<string, Severity> = { ERROR: "error", WARNING: "warning", INFO: "info" };
const SEVERITY_NUMBERS: readonly (Severity | undefined)[] = [undefined, "error", "warning", "info"];

/** What a diagnostic inherits from the document it is in (rdjson's top-level source and severity). */
export interface DiagnosticDefaults {
  source?: RdjsonSource;
  severity?: RdjsonSeverity;
}

function severityOf(value: RdjsonSeverity | undefined): Severity | undefined {
  if (value === undefined) return undefined;
  return typeof value === "number" ? SEVERITY_NUMBERS[value] : SEVERITIES[value];
}

/** A suggestion's range; without columns at both ends it is a range of whole lines, as in reviewdog. */
function suggestionRange(range: RdjsonRange | undefined, unit: ColumnUnit): EditRange | string {
  const start = range?.start;
  const end = range?.end;
  if (!start?.line) return m.noStartLine;
  const endLine = end?.line || start.line;
  if (!start.column && !end?.column) return { kind: "lines", startLine: start.line, endLine };
  const from = { line: start.line, column: start.column || 1 };
  // No end: a zero-length range, an insertion at the start.
  const to = end ? { line: endLine, column: end.column || 1 } : from;
  return { kind: "lineColumn", start: from, end: to, unit };
}

/** The diagnostic's suggestions as one fix's edits; ones that cannot be placed are left out. */
function suggestionEdits(
  diagnostic: Diagnostic,
  path: string | undefined,
  unit: ColumnUnit,
  out: ReportBuilder,
): Edit[] {
  const suggestions = diagnostic.suggestions ?? [];
  if (suggestions.length === 0) return [];
  if (path === undefined) {
    out.warn(m.badFix(out.format, m.noFileForSuggestions));
    return [];
  }
  const edits: Edit[] = [];
  for (const suggestion of suggestions) {
    const range = suggestionRange(suggestion.range, unit);
    if (typeof range === "string") {
      out.warn(m.badFix(out.format, range));
      return [];
    }
    edits.push({ path, range, text: suggestion.text ?? "" });
  }
  return edits;
}

/**
 * ESLint's word that it did not lint a file it was given: `File ignored by default`, `File ignored
 * because of a matching ignore pattern`, and ESLint 9's `File ignored because no matching
 * configuration was supplied`. A warning without a rule about ESLint's own choice of files, not a
 * finding about the code; ESLint 9 and later leave it out under `--no-warn-ignored`, which ESLint 8
 * refuses, so a recipe that gives ESLint the changed files left it on every README of the change.
 */
const ESLINT_IGNORED_FILE = /^File ignored (?:by default|because )/;

function isIgnoredFileNotice(diagnostic: Diagnostic, source: string): boolean {
  return (
    source.toLowerCase() === "eslint" &&
    !diagnostic.code?.value &&
    ESLINT_IGNORED_FILE.test(diagnostic.message ?? "")
  );
}

export function convertDiagnostic(
  diagnostic: Diagnostic,
  defaults: DiagnosticDefaults,
  out: ReportBuilder,
): void {
  const source = diagnostic.source?.name ?? defaults.source?.name ?? "";
  if (isIgnoredFileNotice(diagnostic, source)) return;
  const unit: ColumnUnit = CODE_POINT_COLUMN_SOURCES.has(source.toLowerCase()) ? "codePoint" : "utf8";
  const rawPath = diagnostic.location?.path || undefined;
  const path = rawPath && out.keepPath(rawPath, treePathFromFile(rawPath, out.context.treeRoot));
  if (rawPath !== undefined && path === undefined) return;
  const range = diagnostic.location?.range;
  const line = path !== undefined ? range?.start?.line || undefined : undefined;
  const finding = {
    path,
    line,
    endLine: line !== undefined ? lastLine(line, range?.end?.line, range?.end?.column) : undefined,
    severity: severityOf(diagnostic.severity) ?? severityOf(defaults.severity) ?? "warning",
    message: diagnostic.message ?? "",
    rule: diagnostic.code?.value || undefined,
  };
  out.addFinding(finding, suggestionEdits(diagnostic, path, unit, out));
}

export function convertRdjson(bytes: Uint8Array, context: ConvertContext): ConvertOutcome {
  const read = readJson(bytes, "rdjson", DiagnosticResultSchema);
  if (!read.ok) return read;
  const { diagnostics = [], source, severity } = read.value;
  const out = new ReportBuilder("rdjson", context);
  if (source?.name) out.setTool(source.name);
  const defaults = { ...(source ? { source } : {}), ...(severity !== undefined ? { severity } : {}) };
  for (const diagnostic of diagnostics) convertDiagnostic(diagnostic, defaults, out);
  return { ok: true, report: out.finish() };
}
