// The entry point: a reviewer's report in its declared format becomes the normalized report, or one
// error line naming the format and the first problem. Each converter (and zod) loads only when used.

import { workerMessages as m } from "../messages.js";
import type { ConvertContext, ConvertOutcome, ReportFormat } from "./types.js";

type Converter = (bytes: Uint8Array, context: ConvertContext) => ConvertOutcome;

const CONVERTERS: Record<ReportFormat, () => Promise<Converter>> = {
  comments: async () => (await import("./comments.js")).convertComments,
  sarif: async () => (await import("./sarif.js")).convertSarif,
  rdjson: async () => (await import("./rdjson.js")).convertRdjson,
  rdjsonl: async () => (await import("./rdjsonl.js")).convertRdjsonl,
  diff: async () => (await import("./diff.js")).convertDiff,
};

/** Formats that are one JSON document: they cannot be read in part, so a report too large is refused. */
const WHOLE_DOCUMENT = new Set<ReportFormat>(["sarif", "rdjson"]);

export async function convertReport(
  format: ReportFormat,
  bytes: Uint8Array,
  context: ConvertContext,
): Promise<ConvertOutcome> {
  if (WHOLE_DOCUMENT.has(format) && bytes.length > context.limits.maxReportBytes) {
    return { ok: false, error: m.tooLargeToParse(format, context.limits.maxReportBytes) };
  }
  try {
    const convert = await CONVERTERS[format]();
    return convert(bytes, context);
  } catch (error) {
    // A report is the reviewer's output: whatever it holds, it fails this reviewer, not the worker.
    return { ok: false, error: m.unreadable(format, error instanceof Error ? error.message : String(error)) };
  }
}
