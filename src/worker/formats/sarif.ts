// SARIF 2.1.0 reports (ast-grep, CodeQL, Semgrep...): each result becomes a comment, and the first of
// its `fixes` (the spec lists alternatives) becomes a fix whose replacements apply together.

import type { Severity } from "../../protocol/result.js";
import { workerMessages as m } from "../messages.js";
import { readJson } from "./read-json.js";
import { lastLine, ReportBuilder } from "./report-builder.js";
import { SarifLocations } from "./sarif-locations.js";
import {
  type SarifFix,
  SarifLogSchema,
  type SarifResult,
  type SarifRule,
  type SarifRun,
} from "./sarif-schema.js";
import type { ConvertContext, ConvertOutcome, Edit } from "./types.js";

/** Result kinds that report no problem (SARIF §3.27.9). */
const NOT_A_FINDING = new Set(["pass", "notApplicable"]);

interface RunContext {
  locations: SarifLocations;
  rules: readonly SarifRule[];
  rulesById: ReadonlyMap<string, SarifRule>;
  out: ReportBuilder;
}

function ruleOf(result: SarifResult, run: RunContext): SarifRule | undefined {
  const index = result.ruleIndex ?? result.rule?.index;
  if (index !== undefined && index >= 0) return run.rules[index];
  const id = result.ruleId ?? result.rule?.id;
  return id === undefined ? undefined : run.rulesById.get(id);
}

/** SARIF §3.27.10: a result without a level takes its rule's default, or "warning" if it is a failure. */
function severityOf(result: SarifResult, rule: SarifRule | undefined): Severity {
  const level =
    result.level ??
    (result.kind !== undefined && result.kind !== "fail" ? "none" : rule?.defaultConfiguration?.level) ??
    "warning";
  return level === "error" ? "error" : level === "warning" ? "warning" : "info";
}

/** The text, or the rule's message string for `message.id` with its {0}, {1}... arguments filled in. */
function messageOf(result: SarifResult, rule: SarifRule | undefined): string {
  const { text, markdown, id, arguments: args = [] } = result.message;
  if (text !== undefined) return text;
  if (markdown !== undefined) return markdown;
  const strings = rule?.messageStrings;
  const template = id !== undefined && strings && Object.hasOwn(strings, id) ? strings[id]?.text : undefined;
  return template?.replace(/\{(\d+)\}/g, (whole, n: string) => args[Number(n)] ?? whole) ?? "";
}

/** The fix's edits, or why it cannot be used (a path outside the tree is counted, not described). */
function editsOf(fix: SarifFix, run: RunContext): Edit[] | string | undefined {
  const edits: Edit[] = [];
  for (const change of fix.artifactChanges) {
    const file = run.locations.resolve(change.artifactLocation);
    if (file === undefined) return m.noArtifact;
    const path = run.out.keepPath(file.uri, file.path);
    if (path === undefined) return undefined;
    for (const replacement of change.replacements) {
      const inserted = replacement.insertedContent;
      if (inserted?.text === undefined && inserted?.binary !== undefined) return m.binaryInsertion;
      const range = run.locations.editRange(replacement.deletedRegion);
      if (typeof range === "string") return range;
      const expected = replacement.deletedRegion.snippet?.text;
      edits.push({
        path,
        range,
        text: inserted?.text ?? "",
        ...(expected !== undefined ? { expected } : {}),
      });
    }
  }
  return edits;
}

/** The first fix's edits (the spec lists alternatives); a fix that cannot be used is left out. */
function fixEdits(result: SarifResult, run: RunContext): Edit[] {
  const first = result.fixes?.[0];
  if (first === undefined) return [];
  const edits = editsOf(first, run);
  if (typeof edits === "string") run.out.warn(m.badFix("sarif", edits));
  return Array.isArray(edits) ? edits : [];
}

function convertResult(result: SarifResult, run: RunContext): void {
  if (result.kind !== undefined && NOT_A_FINDING.has(result.kind)) return;
  const rule = ruleOf(result, run);
  const physical = result.locations?.[0]?.physicalLocation;
  const file = run.locations.resolve(physical?.artifactLocation);
  const path = file && run.out.keepPath(file.uri, file.path);
  if (file !== undefined && path === undefined) return;
  const region = physical?.region;
  const line = path !== undefined ? region?.startLine : undefined;
  const finding = {
    path,
    line,
    endLine: line !== undefined ? lastLine(line, region?.endLine, region?.endColumn) : undefined,
    severity: severityOf(result, rule),
    message: messageOf(result, rule),
    rule: result.ruleId ?? result.rule?.id ?? rule?.id,
  };
  run.out.addFinding(finding, fixEdits(result, run));
}

function convertRun(run: SarifRun, out: ReportBuilder): void {
  const { driver } = run.tool;
  out.setTool(driver.name, driver.semanticVersion ?? driver.version);
  const rules = driver.rules ?? [];
  const context: RunContext = {
    locations: new SarifLocations(run, out.context.treeRoot),
    rules,
    rulesById: new Map(rules.map((rule) => [rule.id, rule])),
    out,
  };
  for (const result of run.results ?? []) convertResult(result, context);
}

export function convertSarif(bytes: Uint8Array, context: ConvertContext): ConvertOutcome {
  const read = readJson(bytes, "sarif", SarifLogSchema);
  if (!read.ok) return read;
  const out = new ReportBuilder("sarif", context);
  for (const run of read.value.runs) convertRun(run, out);
  return { ok: true, report: out.finish() };
}
