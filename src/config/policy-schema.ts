// The schema of the policy file `.review-remote.json`, loaded only when a repository has one.
import { z } from "zod";
import { ConfigError } from "../errors.js";
import { messages } from "../messages.js";
import { globSource } from "../paths/glob.js";

const GlobList = z.array(z.string().min(1, "must not be empty"));

/**
 * Paths of the kinds every tree holds below its top: code one and three directories down, a document
 * in a directory, a file under a dot directory. A glob that matches all of them names no place: it
 * is every path, however it is spelled (`**`, `*`, `*.*`, `[!.]*`, a directory-only `*` then a
 * slash, each also under `**` and a slash).
 */
const EVERY_KIND_OF_PATH = ["src/main.go", "lib/a/b/c.ts", "docs/README.md", ".github/workflows/ci.yml"];

/**
 * Whether the gitignore-style `glob` matches every kind of path (policy globs are case-sensitive;
 * trailing spaces not escaped are no part of a glob, as gitignore(5) reads them). A glob with no
 * regex form (a range out of order, `[z-a]`) matches nothing, as the glob library has it.
 */
function matchesEveryPath(glob: string): boolean {
  let regex: RegExp;
  try {
    regex = new RegExp(globSource(glob.replace(/(?<!\\) +$/, "")), "s");
  } catch {
    return false;
  }
  return EVERY_KIND_OF_PATH.every((path) => regex.test(path));
}

const SecretAllowSchema = z
  .strictObject({
    rule: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    fingerprint: z
      .string()
      .regex(/^[0-9a-f]{16,64}$/, "must be the hex fingerprint printed by the report")
      .optional(),
  })
  .refine(
    (entry) => entry.fingerprint !== undefined || entry.rule !== undefined || entry.path !== undefined,
    {
      message: 'needs "rule" or "path" (or both), or "fingerprint"',
    },
  )
  // A path alone allows every rule in the files it matches: a glob that matches every path (`**`,
  // `*.*`) would turn the content scan off for the whole tree.
  .refine((entry) => entry.rule !== undefined || entry.path === undefined || !matchesEveryPath(entry.path), {
    message: '"path" without "rule" must name a directory or files ("testdata/**"), not every path',
    path: ["path"],
  })
  .refine(
    (entry) => entry.fingerprint === undefined || (entry.rule === undefined && entry.path === undefined),
    {
      message: '"fingerprint" stands alone: drop "rule" and "path"',
    },
  );

/**
 * The most globs the policy may forbid: with the built-in ones they stay within the request's
 * MAX_FORBIDDEN_PATHS, which a worker refuses to go past (a unit test keeps the sum under it).
 */
export const MAX_POLICY_FORBIDDEN_PATHS = 512;

const PositiveInt = z.number().int().positive();

const PolicySchema = z.strictObject({
  exclude: GlobList.optional(),
  include: GlobList.optional(),
  forbiddenPaths: GlobList.max(MAX_POLICY_FORBIDDEN_PATHS, {
    message: `must not list more than ${MAX_POLICY_FORBIDDEN_PATHS} globs`,
  }).optional(),
  secrets: z
    .strictObject({
      allow: z.array(SecretAllowSchema).optional(),
      /** false: a `gitleaks:allow` marker allows nothing (only `review-remote:allow` does). */
      gitleaksAllow: z.boolean().optional(),
    })
    .optional(),
  limits: z
    .strictObject({
      timeoutSeconds: PositiveInt.optional(),
      maxResultBytes: PositiveInt.optional(),
      maxCommits: PositiveInt.optional(),
      maxComments: PositiveInt.optional(),
      maxPatchBytes: PositiveInt.optional(),
    })
    .optional(),
  question: z.string().min(1).optional(),
});
export type Policy = z.infer<typeof PolicySchema>;

/** One `path: message` line per zod issue, never a raw zod dump. */
function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${path || "(top)"}: ${issue.message}`;
  });
}

export function parsePolicy(text: string, file: string): Policy {
  let raw: unknown;
  try {
    // A byte-order mark, as some Windows editors save UTF-8, is no part of the JSON (npm and
    // TypeScript read their files past it too); JSON.parse would stop at it, naming an invisible token.
    raw = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new ConfigError(messages.policyInvalidJson(file, (error as Error).message), {
      hints: [messages.hintPolicy],
    });
  }
  const parsed = PolicySchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(messages.policyInvalid(file), {
      details: formatIssues(parsed.error),
      hints: [messages.hintPolicy],
    });
  }
  return parsed.data;
}
