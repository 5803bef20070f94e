// Name rules for entries of an untrusted bundle: every way a tar name or symlink target can mean
// something other than "a plain relative path inside the tree", on Linux, Windows or macOS checkouts.
// `.git` look-alikes and name folding are the validation layer's, shared (src/paths/fold.ts).
import { isDotGitLike, MAX_COMPONENT_BYTES, MAX_PATH_BYTES } from "./fold.js";

/** A refusal: the rule id (stable, for tests and users) and a short explanation. */
export interface RuleViolation {
  rule: string;
  reason: string;
}

const violation = (rule: string, reason: string): RuleViolation => ({ rule, reason });

function checkCharacters(text: string, what: string): RuleViolation | undefined {
  if (text.includes("\0")) return violation("nul-in-path", `NUL byte in the ${what}`);
  if (text.includes("\uFFFD")) return violation("invalid-utf8", `the ${what} is not valid UTF-8`);
  if (text.includes("\\")) return violation("backslash", `backslash in the ${what} (a separator on Windows)`);
  if (text.startsWith("/")) return violation("absolute-path", `the ${what} is absolute`);
  if (/^[A-Za-z]:/.test(text)) return violation("drive-path", `the ${what} starts with a drive letter`);
  if (Buffer.byteLength(text, "utf8") > MAX_PATH_BYTES) {
    return violation("path-too-long", `the ${what} is over ${MAX_PATH_BYTES} bytes`);
  }
  return undefined;
}

/**
 * Checks an entry name and returns its components. Directories may end with one "/" (git archive
 * writes `dir/`); anything else that is not canonical (`a//b`, `./a`, `a/.`) is refused, because GNU tar
 * and our listing could disagree on what it names.
 */
export function checkEntryPath(raw: string, isDirectory: boolean): RuleViolation | string[] {
  if (raw === "") return violation("empty-path", "empty name");
  const bad = checkCharacters(raw, "name");
  if (bad) return bad;
  let path = raw;
  if (path.endsWith("/")) {
    if (!isDirectory) return violation("trailing-slash", "a name ending in / that is not a directory");
    path = path.slice(0, -1);
  }
  const components = path.split("/");
  for (const component of components) {
    if (component === "..") return violation("dotdot", '".." path component');
    if (component === "" || component === ".")
      return violation("non-canonical-path", "empty or '.' path component");
    if (isDotGitLike(component))
      return violation("dotgit", `".git" look-alike component ${JSON.stringify(component)}`);
    if (Buffer.byteLength(component, "utf8") > MAX_COMPONENT_BYTES) {
      return violation("path-too-long", `a path component is over ${MAX_COMPONENT_BYTES} bytes`);
    }
  }
  return components;
}

/** Static checks of a symlink target; where it resolves is checked once the whole listing is known. */
export function checkLinkTarget(target: string): RuleViolation | undefined {
  if (target === "") return violation("symlink-empty-target", "symlink with an empty target");
  const bad = checkCharacters(target, "symlink target");
  if (bad) return { rule: `symlink-${bad.rule}`, reason: bad.reason };
  for (const component of target.split("/")) {
    if (isDotGitLike(component)) {
      return violation(
        "symlink-dotgit",
        `symlink target goes through a ".git" look-alike ${JSON.stringify(component)}`,
      );
    }
  }
  return undefined;
}

/** Outcome of resolving a symlink target physically, following the symlinks of the listing. */
export type Resolution = { ok: true; path: string } | { ok: false; rule: string; reason: string };

const MAX_HOPS = 40;

/**
 * Resolves `target` relative to the directory `parent` (components) the way the kernel would once the
 * tree is on disk: `..` after a symlink component applies to the symlink's target, not to its name.
 * Leaving the root at any step is an escape, even when later components would come back.
 */
export function resolveLink(
  parent: readonly string[],
  target: string,
  links: ReadonlyMap<string, string>,
): Resolution {
  let hops = 0;
  const walk = (start: readonly string[], text: string): string[] | Resolution => {
    const stack = [...start];
    for (const component of text.split("/")) {
      if (component === "" || component === ".") continue;
      if (component === "..") {
        if (stack.length === 0)
          return { ok: false, rule: "symlink-escape", reason: "symlink resolves outside the tree" };
        stack.pop();
        continue;
      }
      stack.push(component);
      const next = links.get(stack.join("/"));
      if (next === undefined) continue;
      if (++hops > MAX_HOPS)
        return { ok: false, rule: "symlink-loop", reason: "too many levels of symlinks" };
      const resolved = walk(stack.slice(0, -1), next);
      if (!Array.isArray(resolved)) return resolved;
      stack.splice(0, stack.length, ...resolved);
    }
    return stack;
  };
  const result = walk(parent, target);
  return Array.isArray(result) ? { ok: true, path: result.join("/") } : result;
}
