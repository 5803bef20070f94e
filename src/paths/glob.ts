// Gitignore-style globs (gitignore(5)) for the policy file, the forbidden paths and the secrets
// allowlist, matched by the `ignore` library; it loads on the first match, so a command that
// matches no glob (a cached pre-push review, `--version`) never reads it.
import { createRequire } from "node:module";
import type { Ignore, Options } from "ignore";

type IgnoreFactory = ((options?: Options) => Ignore) & { isPathValid(path: string): boolean };

let factory: IgnoreFactory | undefined;
const matchers = new Map<string, Ignore>();

function load(): IgnoreFactory {
  factory ??= createRequire(import.meta.url)("ignore") as IgnoreFactory;
  return factory;
}

/** One matcher per pattern list; git's own case rule (core.ignoreCase is false on Linux). */
function matcherFor(patterns: readonly string[]): Ignore {
  const key = patterns.join("\n");
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = load()({ ignorecase: false }).add(patterns);
    matchers.set(key, matcher);
  }
  return matcher;
}

/** A path no checkout could hold: absolute, or with an empty, `.` or `..` component anywhere. */
function isCheckoutPath(path: string): boolean {
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * A gitignore-style list: the last matching pattern decides, `!pattern` re-includes, and nothing
 * inside an excluded directory comes back. Returns the pattern that matched, or undefined. A path
 * no checkout could hold (absolute, `..` anywhere in it) matches nothing: the path rules refuse it
 * on their own. The library takes `a/../b` as a path like any other, so a pattern anchored at
 * `b/` would miss it where a plain `b` would hit it: no answer is safer than half of one.
 */
export function matchGlobList(patterns: readonly string[], path: string): string | undefined {
  if (patterns.length === 0 || !isCheckoutPath(path) || !load().isPathValid(path)) return undefined;
  const result = matcherFor(patterns).test(path);
  return result.ignored ? result.rule?.pattern : undefined;
}

/** True when `path` (relative to the top, `/`-separated) or one of its directories matches. */
export function matchGlob(pattern: string, path: string): boolean {
  return matchGlobList([pattern], path) !== undefined;
}

function translate(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "*") {
      if (body[i + 1] === "*") {
        const atStart = i === 0 || body[i - 1] === "/";
        const atEnd = i + 2 === body.length || body[i + 2] === "/";
        if (atStart && atEnd) {
          // "**/" = zero or more directories; a final "**" = everything below.
          if (i + 2 === body.length) out += ".*";
          else out += "(?:.*/)?";
          i += 2;
          continue;
        }
      }
      out += "[^/]*";
      while (body[i + 1] === "*") i++;
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = body.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        continue;
      }
      let set = body.slice(i + 1, close);
      // A bracket never matches "/" (fnmatch(3) with FNM_PATHNAME), negated or not.
      if (set.startsWith("!")) set = `^${set.slice(1)}/`;
      out += `[${set.replace(/\\/g, "\\\\")}]`;
      i = close;
    } else if (c === "\\" && i + 1 < body.length) {
      out += escapeRegex(body[++i] as string);
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * One regex for the gitignore semantics of a built-in `pattern`: it matches a path when the path
 * itself or one of its directories matches. Only for the secret name rules, which join each rule's
 * globs into one regex (one test per rule on every path of a large tree); a unit test holds it to
 * the `ignore` library's answers on those very globs. Everything else matches with the library.
 */
export function globSource(pattern: string): string {
  let body = pattern;
  const dirOnly = body.endsWith("/");
  if (dirOnly) body = body.replace(/\/+$/, "");
  const anchored = body.includes("/");
  body = body.replace(/^\//, "");
  const prefix = anchored ? "" : "(?:.*/)?";
  const suffix = dirOnly ? "/.*" : "(?:/.*)?";
  return `^${prefix}${translate(body)}${suffix}$`;
}

/** Where a compiled secret-name glob is tested: on each component, on each directory, or on the path. */
export interface GlobScope {
  scope: "component" | "directory" | "path";
  source: string;
}

/**
 * globSource in the form a large tree needs: a glob with no "/" that cannot match across one (no
 * "**", no bracket) matches a path exactly when it matches one of its components whole (one of its
 * directories, for `name/`). Testing the components then avoids a `(?:.*\/)?` prefix retried at
 * every "/" of every path. Any other glob keeps the whole-path regex.
 */
export function globScope(pattern: string): GlobScope {
  const dirOnly = pattern.endsWith("/");
  const body = pattern.replace(/\/+$/, "");
  if (body.includes("/") || body.includes("**") || body.includes("[")) {
    return { scope: "path", source: globSource(pattern) };
  }
  return { scope: dirOnly ? "directory" : "component", source: `^${translate(body)}$` };
}
