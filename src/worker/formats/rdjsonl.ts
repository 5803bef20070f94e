// rdjsonl: reviewdog's Diagnostic, one JSON object a line. Unlike the comments file, one bad line makes
// the whole report invalid (a tool that writes a format either writes it or is broken); a report over
// the size limit is read up to its last whole line.

import { workerMessages as m } from "../messages.js";
import { cutAtLastLine, splitLines } from "./lines.js";
import { convertDiagnostic } from "./rdjson.js";
import { DiagnosticSchema } from "./rdjson-schema.js";
import { readJson } from "./read-json.js";
import { ReportBuilder } from "./report-builder.js";
import type { ConvertContext, ConvertOutcome } from "./types.js";

/** Spaces and tabs only. */
const isBlank = (bytes: Uint8Array): boolean => bytes.every((byte) => byte === 0x20 || byte === 0x09);

export function convertRdjsonl(bytes: Uint8Array, context: ConvertContext): ConvertOutcome {
  const { bytes: kept, cut } = cutAtLastLine(bytes, context.limits.maxReportBytes);
  const out = new ReportBuilder("rdjsonl", context);
  if (cut) out.warn(m.truncated("rdjsonl", context.limits.maxReportBytes));
  for (const line of splitLines(kept)) {
    if (isBlank(line.bytes)) continue;
    const read = readJson(line.bytes, "rdjsonl", DiagnosticSchema, `line ${line.number}: `);
    if (!read.ok) return read;
    const diagnostic = read.value;
    if (diagnostic.source?.name) out.setTool(diagnostic.source.name);
    convertDiagnostic(diagnostic, {}, out);
  }
  return { ok: true, report: out.finish() };
}
