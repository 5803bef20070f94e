// Reports name files as tools printed them: relative, absolute, or as `file://` URIs with %-escapes.
// Each becomes a path relative to the tree, or a reason it is not one, before anything is applied.

import { checkPath } from "../../paths/result.js";

export type TreePath = { ok: true; path: string } | { ok: false; reason: string };

const outside = (reason: string): TreePath => ({ ok: false, reason });

/** Drops `.` and empty components and resolves `..`; undefined when it climbs above the start. */
function normalize(relative: string): string | undefined {
  const stack: string[] = [];
  for (const component of relative.split("/")) {
    if (component === "" || component === ".") continue;
    if (component === "..") {
      if (stack.length === 0) return undefined;
      stack.pop();
    } else {
      stack.push(component);
    }
  }
  return stack.join("/");
}

/** A file path (rdjson's `location.path`): relative to the tree, or absolute inside it. */
export function treePathFromFile(raw: string, treeRoot: string): TreePath {
  let relative = raw;
  if (raw.startsWith("/")) {
    const root = treeRoot.replace(/\/+$/, "");
    if (!raw.startsWith(`${root}/`)) return outside("not inside the tree");
    relative = raw.slice(root.length + 1);
  }
  const path = normalize(relative);
  if (path === undefined) return outside("climbs out of the tree with ..");
  if (path === "") return outside("names the tree itself, not a file");
  const problems = checkPath(path);
  return problems[0] === undefined ? { ok: true, path } : outside(problems[0]);
}

/** %XX escapes decoded as UTF-8; undefined when malformed, or when one hides a "/" or a NUL. */
function decodePercent(text: string): string | undefined {
  if (/%(?:2f|00)/i.test(text)) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A URI reference (SARIF's `artifactLocation.uri`, already resolved against its base): `file:` URIs
 * and absolute paths must lie inside the tree, relative references are relative to it.
 */
export function treePathFromUri(uri: string, treeRoot: string): TreePath {
  const withoutSuffix = uri.replace(/[?#].*$/s, "");
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(withoutSuffix);
  let path = withoutSuffix;
  if (scheme) {
    if (scheme[1]?.toLowerCase() !== "file") return outside(`not a file URI (${scheme[1]}:)`);
    path = withoutSuffix.slice(scheme[0].length);
    if (path.startsWith("//")) {
      const slash = path.indexOf("/", 2);
      const host = path.slice(2, slash === -1 ? path.length : slash);
      if (host !== "" && host.toLowerCase() !== "localhost") return outside(`on another host (${host})`);
      path = slash === -1 ? "/" : path.slice(slash);
    }
  }
  const decoded = decodePercent(path);
  if (decoded === undefined) return outside("has a malformed or forbidden %-escape");
  return treePathFromFile(decoded, treeRoot);
}
