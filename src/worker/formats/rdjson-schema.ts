// reviewdog's Diagnostic format (proto/rdf/reviewdog.proto) as its JSON mapping reads: every field is
// optional as in proto3, a null field is an absent one (the proto3 JSON mapping: ESLint's rdjson
// formatter writes `"code": {"value": null}` for a message without a rule, a parse error or an ignored
// file) and enums come as names or numbers, but an unknown field is an error, as in reviewdog's own
// reader, so a report in some other format is not taken for an empty one.

import { z } from "zod";

/** An object without its null fields; anything else as it is, for the schema to judge. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

/** A proto3 message: a strict object whose null fields read as absent. */
const protoMessage = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.preprocess(withoutNulls, z.strictObject(shape));

/** proto3 JSON: a missing or 0 line/column means "not given". */
const PositionSchema = protoMessage({ line: z.int().min(0).optional(), column: z.int().min(0).optional() });

const RangeSchema = protoMessage({
  start: PositionSchema.optional(),
  end: PositionSchema.optional(),
});

const SeveritySchema = z.union([
  z.enum(["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]),
  z.int().min(0).max(3),
]);

const SourceSchema = protoMessage({ name: z.string().optional(), url: z.string().optional() });

export const DiagnosticSchema = protoMessage({
  message: z.string().optional(),
  location: protoMessage({ path: z.string().optional(), range: RangeSchema.optional() }).optional(),
  severity: SeveritySchema.optional(),
  source: SourceSchema.optional(),
  code: protoMessage({ value: z.string().optional(), url: z.string().optional() }).optional(),
  suggestions: z
    .array(protoMessage({ range: RangeSchema.optional(), text: z.string().optional() }))
    .optional(),
  // Read by nobody here, but part of the format (proto field names and their JSON names).
  original_output: z.string().optional(),
  originalOutput: z.string().optional(),
  images: z.array(z.unknown()).optional(),
});

export const DiagnosticResultSchema = protoMessage({
  diagnostics: z.array(DiagnosticSchema).optional(),
  source: SourceSchema.optional(),
  severity: SeveritySchema.optional(),
});

export type Diagnostic = z.infer<typeof DiagnosticSchema>;
export type RdjsonRange = z.infer<typeof RangeSchema>;
export type RdjsonSeverity = z.infer<typeof SeveritySchema>;
export type RdjsonSource = z.infer<typeof SourceSchema>;
