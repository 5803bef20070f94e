// Named operation: the gitattributes of paths, as git itself resolves them (gitattributes(5)).
import { type GitOptions, git, splitNul } from "./run.js";

/** `set`, `unset`, `unspecified` or the attribute's value, as `git check-attr` prints them. */
export type AttributeValue = string;

/**
 * The named attributes of each path; `cached` reads .gitattributes from the index (the tree may
 * not be checked out). Paths travel NUL-terminated on stdin: no name is ever an argument.
 */
export async function readAttributes(
  run: Pick<GitOptions, "cwd" | "env">,
  names: readonly string[],
  paths: readonly string[],
  { cached = false }: { cached?: boolean } = {},
): Promise<Map<string, Map<string, AttributeValue>>> {
  const attributes = new Map<string, Map<string, AttributeValue>>();
  if (paths.length === 0) return attributes;
  const out = await git(["check-attr", ...(cached ? ["--cached"] : []), "-z", "--stdin", ...names], {
    ...run,
    input: paths.map((path) => `${path}\0`).join(""),
  });
  // -z output: <path> NUL <attribute> NUL <value> NUL, for each path and attribute.
  const fields = splitNul(out.stdout);
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const path = fields[i] as string;
    const values = attributes.get(path) ?? new Map<string, AttributeValue>();
    attributes.set(path, values);
    values.set(fields[i + 1] as string, fields[i + 2] as string);
  }
  return attributes;
}
