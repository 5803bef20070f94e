// The checks of one changed package file (a package.json, a lockfile) that the client's quarantine
// and the worker's collection both run: the one refuses a proposal, the other leaves its file out.
import type { GitRun } from "../git/commits.js";
import { git } from "../git/run.js";
import { listTreePaths } from "../git/trees.js";
import { isPackageJsonPath, mayStartNodeGyp, nodeGypProblem } from "./npm-scripts.js";
import { declaresPnpm, isPnpmTree, packageFileProblems } from "./npm-sources.js";
import { changesWorkspaces, workspaceProblems } from "./npm-workspaces.js";

/** The proposed tree, read only where a check needs it: its paths, and a file of it by path. */
export interface ProposedTree {
  paths: () => Promise<readonly string[]>;
  read: (path: string) => Promise<string | undefined>;
}

/**
 * What a package file changed from `before` (undefined: new at this path) to `after` would make the
 * next install run or fetch: its own entries, the folders it makes workspaces, a node-gyp build it starts.
 */
export async function packageChangeProblems(
  path: string,
  before: string | undefined,
  after: string,
  tree: ProposedTree,
): Promise<string[]> {
  const problems = packageFileProblems(path, before, after);
  if (isPackageJsonPath(path) && changesWorkspaces(before, after)) {
    problems.push(...(await workspaceProblems(path, before, after, await tree.paths(), tree.read)));
  }
  if (mayStartNodeGyp(path, before, after)) {
    const problem = nodeGypProblem(path, before, after, await tree.paths());
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/**
 * Whether pnpm installs `tree`: a pnpm lockfile or workspace file in it, or pnpm named as its root
 * package.json's package manager (a project that commits no lockfile). A package.yaml stays pnpm's
 * manifest in a proposal that deletes what told.
 */
export async function installsWithPnpm(run: GitRun, tree: string): Promise<boolean> {
  if (isPnpmTree(await listTreePaths(run, tree))) return true;
  const root = await git(["cat-file", "blob", `${tree}:package.json`], { ...run, allowFailure: true });
  return root.exitCode === 0 && declaresPnpm(root.stdout);
}
