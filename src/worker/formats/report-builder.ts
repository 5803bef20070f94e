// Collects what a converter finds within the limits: comments and fixes past their caps are counted,
// not kept, and warnings stay few (a report with 10,000 bad paths says so once, not 10,000 times).

import {
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
  type ReviewComment,
  type Severity,
} from "../../protocol/result.js";
import { workerMessages as m } from "../messages.js";
import { MostSevere } from "../most-severe.js";
import type { TreePath } from "./tree-paths.js";
import type { ConvertContext, ConvertedReport, Edit } from "./types.js";

const MAX_WARNINGS = 10;

/** A finding as a converter reads it; `endLine` is the last line the finding covers. */
export interface Finding {
  path?: string;
  line?: number;
  endLine?: number;
  severity: Severity;
  message: string;
  rule?: string;
}

/** A report's exclusive end (`line 7, column 1`) covers through the line before it. */
export function lastLine(
  startLine: number,
  endLine: number | undefined,
  endColumn: number | undefined,
): number {
  if (endLine === undefined || endLine <= startLine) return startLine;
  return endColumn === 1 ? endLine - 1 : endLine;
}

export class ReportBuilder {
  private readonly report: ConvertedReport = { comments: [], overLimit: 0, fixes: [], warnings: [] };
  private readonly comments: MostSevere;
  private extraWarnings = 0;
  private droppedFixes = 0;
  private outside: { count: number; first: string; reason: string } | undefined;

  constructor(
    readonly format: string,
    readonly context: ConvertContext,
  ) {
    this.comments = new MostSevere(context.limits.maxComments, context.tier);
  }

  setTool(name: string, version?: string): void {
    if (this.report.tool === undefined && name !== "") {
      this.report.tool = version ? { name, version } : { name };
    }
  }

  warn(text: string): void {
    if (this.report.warnings.length < MAX_WARNINGS) this.report.warnings.push(text);
    else this.extraWarnings++;
  }

  /** The path, or undefined after counting it among the locations outside the tree. */
  keepPath(raw: string, resolved: TreePath): string | undefined {
    if (resolved.ok) return resolved.path;
    if (this.outside) this.outside.count++;
    else this.outside = { count: 1, first: raw, reason: resolved.reason };
    return undefined;
  }

  /** A finding, and the fix that came with it (reported at the finding's place if not applied). */
  addFinding(finding: Finding, edits: readonly Edit[] = []): void {
    const { fixes } = this.report;
    const { maxFixes } = this.context.limits;
    this.comments.add(toComment(finding));
    if (edits.length === 0) return;
    if (fixes.length >= maxFixes) {
      this.droppedFixes++;
      return;
    }
    const { path, line, rule } = finding;
    fixes.push({
      edits: [...edits],
      ...(rule !== undefined ? { rule } : {}),
      ...(path !== undefined ? { path } : {}),
      ...(path !== undefined && line !== undefined ? { line } : {}),
    });
  }

  finish(): ConvertedReport {
    const { format, context } = this;
    const { limits } = context;
    const late: string[] = [];
    if (this.outside) {
      const { count, first, reason } = this.outside;
      late.push(m.outsideTree(format, count, first, reason));
    }
    this.report.comments = this.comments.comments();
    this.report.overLimit = this.comments.overLimit;
    if (this.droppedFixes > 0) {
      this.report.fixesOverLimit = this.droppedFixes;
      late.push(m.fixesOverLimit(format, this.droppedFixes, limits.maxFixes));
    }
    // These summaries matter more than the tenth detail line, so they always fit.
    const room = Math.max(0, MAX_WARNINGS - late.length);
    const detail = this.report.warnings.splice(room);
    this.extraWarnings += detail.length;
    this.report.warnings.push(...late);
    if (this.extraWarnings > 0) this.report.warnings.push(m.moreWarnings(this.extraWarnings));
    return this.report;
  }
}

/** Bounded to what a result may carry: long messages and rule names are cut, not refused. */
export function toComment(finding: Finding): ReviewComment {
  const message = finding.message.trim() === "" ? (finding.rule ?? "(no message)") : finding.message;
  const comment: ReviewComment = {
    severity: finding.severity,
    message: cut(message, MAX_TEXT_LENGTH),
  };
  if (finding.path !== undefined) {
    comment.path = finding.path;
    if (finding.line !== undefined && finding.line >= 1) {
      comment.line = finding.line;
      if (finding.endLine !== undefined && finding.endLine > finding.line) comment.endLine = finding.endLine;
    }
  }
  if (finding.rule !== undefined && finding.rule !== "") comment.rule = cut(finding.rule, MAX_NAME_LENGTH);
  return comment;
}

/** `text` in at most `max` UTF-16 units, ending in `…` when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never end on half a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[max - 2] ?? "") ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}
