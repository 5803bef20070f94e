// Gitignore-style globs, shared by the secret name rules, the policy file and the forbidden paths.
// Semantics follow gitignore(5): a pattern without a slash matches a name at any depth, a pattern with
// a slash is anchored at the top, a trailing slash matches directories only, `**` spans directories,
// and a pattern that matches a directory matches everything inside it.

const cache = new Map<string, RegExp>();

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
      if (set.startsWith("!")) set = `^${set.slice(1)}`;
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
 * One regex for the whole gitignore semantics of `pattern`: it matches a path when the path itself
 * or one of its directories matches, so a directory pattern covers everything inside it.
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

export function compileGlob(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (!regex) {
    regex = new RegExp(globSource(pattern), "s");
    cache.set(pattern, regex);
  }
  return regex;
}

/** True when `path` (a file path relative to the top, `/`-separated) or one of its directories matches. */
export function matchGlob(pattern: string, path: string): boolean {
  return compileGlob(pattern).test(path);
}

/**
 * A gitignore-style list: the last matching pattern decides, and `!pattern` re-includes.
 * Returns the pattern that matched, or undefined.
 */
export function matchGlobList(patterns: readonly string[], path: string): string | undefined {
  let hit: string | undefined;
  for (const pattern of patterns) {
    if (pattern === "" || pattern.startsWith("#")) continue;
    if (pattern.startsWith("!")) {
      if (hit !== undefined && matchGlob(pattern.slice(1), path)) hit = undefined;
    } else if (matchGlob(pattern, path)) {
      hit = pattern;
    }
  }
  return hit;
}
