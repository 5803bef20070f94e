// The part of SARIF 2.1.0 the worker reads (results, their regions and fixes), checked as the spec
// types it; every other property of a log is let through unread.

import { z } from "zod";

const line = z.int().min(1);
/** -1 is SARIF's "absent" for offsets. */
const offset = z.int().min(-1);
const length = z.int().min(0);

const RegionSchema = z.object({
  startLine: line.optional(),
  startColumn: line.optional(),
  endLine: line.optional(),
  endColumn: line.optional(),
  charOffset: offset.optional(),
  charLength: length.optional(),
  byteOffset: offset.optional(),
  byteLength: length.optional(),
  snippet: z.object({ text: z.string().optional() }).optional(),
});

const ArtifactLocationSchema = z.object({
  uri: z.string().optional(),
  uriBaseId: z.string().optional(),
  index: z.int().min(-1).optional(),
});

const MessageSchema = z.object({
  text: z.string().optional(),
  markdown: z.string().optional(),
  id: z.string().optional(),
  arguments: z.array(z.string()).optional(),
});

const LevelSchema = z.enum(["none", "note", "warning", "error"]);

const LocationSchema = z.object({
  physicalLocation: z
    .object({ artifactLocation: ArtifactLocationSchema.optional(), region: RegionSchema.optional() })
    .optional(),
});

const FixSchema = z.object({
  artifactChanges: z.array(
    z.object({
      artifactLocation: ArtifactLocationSchema,
      replacements: z.array(
        z.object({
          deletedRegion: RegionSchema,
          insertedContent: z
            .object({ text: z.string().optional(), binary: z.string().optional() })
            .optional(),
        }),
      ),
    }),
  ),
});

const ResultSchema = z.object({
  ruleId: z.string().optional(),
  ruleIndex: z.int().min(-1).optional(),
  rule: z.object({ id: z.string().optional(), index: z.int().min(-1).optional() }).optional(),
  kind: z.enum(["notApplicable", "pass", "fail", "review", "open", "informational"]).optional(),
  level: LevelSchema.optional(),
  message: MessageSchema,
  locations: z.array(LocationSchema).optional(),
  fixes: z.array(FixSchema).optional(),
});

const RuleSchema = z.object({
  id: z.string(),
  defaultConfiguration: z.object({ level: LevelSchema.optional() }).optional(),
  messageStrings: z.record(z.string(), z.object({ text: z.string().optional() })).optional(),
});

const RunSchema = z.object({
  tool: z.object({
    driver: z.object({
      name: z.string(),
      version: z.string().optional(),
      semanticVersion: z.string().optional(),
      rules: z.array(RuleSchema).optional(),
    }),
  }),
  results: z.array(ResultSchema).optional(),
  originalUriBaseIds: z.record(z.string(), ArtifactLocationSchema).optional(),
  artifacts: z.array(z.object({ location: ArtifactLocationSchema.optional() })).optional(),
  columnKind: z.enum(["utf16CodeUnits", "unicodeCodePoints"]).optional(),
});

export const SarifLogSchema = z.object({
  version: z.literal("2.1.0"),
  runs: z.array(RunSchema),
});

export type SarifRun = z.infer<typeof RunSchema>;
export type SarifResult = z.infer<typeof ResultSchema>;
export type SarifRule = z.infer<typeof RuleSchema>;
export type SarifRegion = z.infer<typeof RegionSchema>;
export type SarifArtifactLocation = z.infer<typeof ArtifactLocationSchema>;
export type SarifFix = z.infer<typeof FixSchema>;
