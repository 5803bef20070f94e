// Node's flags for this package's own processes. bin/git-review-remote.js gives them on its first
// line, but a process started as `node bin/git-review-remote.js` (the local worker, the worker run
// again inside its namespaces) skips that line: it gets them from here.

/**
 * A smaller young generation keeps peak memory flat in the size of the repo: the bytes streamed
 * through a process are short-lived, and V8 would otherwise let up to 3x16 MB of them pile up before
 * collecting. Measured on the worker of a 20k-file range review: see the commit that added it.
 */
export const NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4"];
