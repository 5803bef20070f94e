// The work trees of a repository, as `git worktree list` knows them.
import { existsSync } from "node:fs";
import { type Env, git } from "./run.js";

interface WorkTree {
  path: string;
  /** The commit checked out there; undefined in a work tree with no commit yet. */
  head: string | undefined;
}

/** The work trees that exist (a bare repository's own entry is none), the main one first. */
export async function workTrees(run: { cwd: string; env: Env }): Promise<WorkTree[]> {
  const listed = await git(["worktree", "list", "--porcelain", "-z"], { ...run, allowFailure: true });
  if (listed.exitCode !== 0) return [];
  const trees: WorkTree[] = [];
  for (const entry of listed.stdout.split("\0\0")) {
    const fields = entry.split("\0");
    const field = (name: string) => fields.find((one) => one.startsWith(`${name} `))?.slice(name.length + 1);
    const path = field("worktree");
    if (path !== undefined && !fields.includes("bare") && existsSync(path))
      trees.push({ path, head: field("HEAD") });
  }
  return trees;
}
