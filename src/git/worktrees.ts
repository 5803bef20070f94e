// The work trees of a repository, as `git worktree list` knows them.
import { existsSync } from "node:fs";
import { type Env, git } from "./run.js";

/** The paths of the work trees that exist (a bare repository's own entry is none). */
export async function workTreePaths(run: { cwd: string; env: Env }): Promise<string[]> {
  const listed = await git(["worktree", "list", "--porcelain", "-z"], { ...run, allowFailure: true });
  if (listed.exitCode !== 0) return [];
  const paths: string[] = [];
  for (const entry of listed.stdout.split("\0\0")) {
    const fields = entry.split("\0");
    const path = fields.find((field) => field.startsWith("worktree "))?.slice("worktree ".length);
    if (path !== undefined && !fields.includes("bare") && existsSync(path)) paths.push(path);
  }
  return paths;
}
