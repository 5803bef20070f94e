// reviewdog's Diagnostic format (proto/rdf/reviewdog.proto) as its JSON mapping reads: every field is
// optional as in proto3 and enums come as names or numbers, but an unknown field is an error, as in
// reviewdog's own reader, so a report in some other format is not taken for an empty one.

import { z } from "zod";

/** proto3 JSON: a missing or 0 line/column means "not given". */
const PositionSchema = z.strictObject({ line: z.int().min(0).optional(), column: z.int().min(0).optional() });

const RangeSchema = z.strictObject({
  start: PositionSchema.optional(),
  end: PositionSchema.optional(),
});

const SeveritySchema = z.union([
  z.enum(["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]),
  z.int().min(0).max(3),
]);

const SourceSchema = z.strictObject({ name: z.string().optional(), url: z.string().optional() });

export const DiagnosticSchema = z.strictObject({
  message: z.string().optional(),
  location: z.strictObject({ path: z.string().optional(), range: RangeSchema.optional() }).optional(),
  severity: SeveritySchema.optional(),
  source: SourceSchema.optional(),
  code: z.strictObject({ value: z.string().optional(), url: z.string().optional() }).optional(),
  suggestions: z
    .array(z.strictObject({ range: RangeSchema.optional(), text: z.string().optional() }))
    .optional(),
  // Read by nobody here, but part of the format (proto field names and their JSON names).
  original_output: z.string().optional(),
  originalOutput: z.string().optional(),
  images: z.array(z.unknown()).optional(),
});

export const DiagnosticResultSchema = z.strictObject({
  diagnostics: z.array(DiagnosticSchema).optional(),
  source: SourceSchema.optional(),
  severity: SeveritySchema.optional(),
});

export type Diagnostic = z.infer<typeof DiagnosticSchema>;
export type RdjsonRange = z.infer<typeof RangeSchema>;
export type RdjsonSeverity = z.infer<typeof SeveritySchema>;
export type RdjsonSource = z.infer<typeof SourceSchema>;
