// The one symlink resolver: where a link leads once the tree is on disk, followed through the other
// links as the kernel follows them. The export and the worker's bundle check both resolve with it.

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
