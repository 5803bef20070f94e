// Installing the pre-push shim (hooks/pre-push of this package) where git looks for hooks, inside
// marker lines, so a later install updates our block and leaves the rest of the hook alone.
import { chmod, readFile, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { quoteLikeGit, readQuotePath } from "../git/quote.js";
import { git } from "../git/run.js";
import { workTrees } from "../git/worktrees.js";
import { messages } from "../messages.js";
import { packageFile } from "../package-files.js";
import type { Repo } from "../repo.js";
import { writeFileAtomic } from "../store/layout.js";

const BEGIN_MARKER = "# >>> git-review-remote >>>";
const END_MARKER = "# <<< git-review-remote <<<";

async function shim(): Promise<string> {
  return readFile(packageFile("hooks/pre-push"), "utf8");
}

function block(text: string): string {
  const start = text.indexOf(BEGIN_MARKER);
  const end = text.indexOf(END_MARKER);
  return text.slice(start, end + END_MARKER.length);
}

/** The hook's path as git would print it: quoted only when it holds a control character, a quote... */
async function shownPath(repo: Repo, path: string): Promise<string> {
  return quoteLikeGit(path, await readQuotePath({ cwd: repo.cwd, env: repo.env }));
}

/**
 * A line that runs `git review-remote hook pre-push`, as README's husky line does, not commented out
 * (indented or not: the look-ahead spans the blanks, which a `[ \t]*` before it could give back).
 */
const RUNS_US = /^(?![ \t]*#)[^\n]*\bgit(?:[ \t]+|-)review-remote[ \t]+hook[ \t]+pre-push\b/m;

/** Whether husky's `pre-push` in `huskyDir` already runs the review (it may not exist). */
async function huskyRunsUs(huskyDir: string): Promise<boolean> {
  const text = await readFile(join(huskyDir, "pre-push"), "utf8").catch(() => "");
  return RUNS_US.test(text);
}

/**
 * With a relative core.hooksPath, each work tree runs the hooks of its own checkout: the other work
 * trees whose copy has no pre-push that runs the review (a hook installed here is not there).
 */
async function workTreesWithoutHook(repo: Repo): Promise<string[]> {
  const run = { cwd: repo.cwd, env: repo.env };
  const hooksPath = (
    await git(["config", "--get", "core.hooksPath"], { ...run, allowFailure: true })
  ).stdout.replace(/\n$/, "");
  if (!hooksPath || isAbsolute(hooksPath) || hooksPath.startsWith("~") || !repo.top) return [];
  const here = resolve(repo.top);
  const without: string[] = [];
  for (const tree of await workTrees(run)) {
    if (resolve(tree.path) === here) continue;
    const text = await readFile(join(tree.path, hooksPath, "pre-push"), "utf8").catch(() => "");
    if (!RUNS_US.test(text)) without.push(tree.path);
  }
  return without;
}

/** The JSON file `name` at the top of the work tree; undefined when it is missing or not JSON. */
async function readTopJson(top: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(join(top, name), "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** husky 5 and later as a package script runs it (`husky install`, `husky`, `npx husky install`). */
const RUNS_HUSKY = /(?:^|[;&|(\s])husky(?:\s+install)?(?=$|[\s;&|)])/;

/**
 * The package.json script that sets husky up on install (`"prepare": "husky install"`), in a clone
 * that has no `.husky/` yet (axios commits none: its prepare script makes it); undefined when none.
 */
async function huskyScript(top: string): Promise<string | undefined> {
  const pkg = (await readTopJson(top, "package.json")) as { scripts?: Record<string, unknown> } | undefined;
  for (const name of ["prepare", "postinstall", "install", "preinstall"]) {
    const script = pkg?.scripts?.[name];
    if (typeof script === "string" && RUNS_HUSKY.test(script)) return name;
  }
  return undefined;
}

/** The hooks husky 4 and older writes into .git/hooks: a runner its every install rewrites. */
const OLD_HUSKY = /^# husky\s*$/m;

/**
 * The `pre-push` command husky 4 and older runs (its `hooks` in package.json's "husky" or in
 * .huskyrc/.huskyrc.json), or undefined when it has none (its .js configurations are code: not read).
 */
async function oldHuskyPrePush(top: string): Promise<string | undefined> {
  const pkg = (await readTopJson(top, "package.json")) as Record<string, unknown> | undefined;
  const configs = [pkg?.husky, await readTopJson(top, ".huskyrc"), await readTopJson(top, ".huskyrc.json")];
  for (const config of configs) {
    const hooks = (config as { hooks?: Record<string, unknown> } | null | undefined)?.hooks;
    const command = hooks?.["pre-push"];
    if (typeof command === "string") return command;
  }
  return undefined;
}

/**
 * Writes the hook; returns its path as git would print it, whether one was there before, and whether the work tree has a
 * `.husky/` directory whose husky is not set up yet (once it is, git runs no hook from there) and
 * whose `pre-push` does not run the review yet. Where husky runs the hooks already and its
 * `pre-push` runs the review, nothing is written: `how` is "husky" and `shown` that file.
 */
export async function installHook(
  repo: Repo,
  force: boolean,
): Promise<{
  shown: string;
  how: "installed" | "updated" | "unchanged" | "husky" | "huskyConfig";
  huskyLater: boolean;
  /** With no `.husky/` yet, the package.json script that will set husky up (`prepare`). */
  huskyScript?: string | undefined;
  removedBySimpleGitHooks: boolean;
  untrackedInTracked?: UntrackedHook | undefined;
  /** Linked work trees that run their own copy of a relative core.hooksPath with no review in it. */
  workTreesWithout?: string[];
  /** The global or system configuration file whose core.hooksPath every repository of the user runs. */
  sharedBy?: string | undefined;
}> {
  // Only git's line end is cut: a core.hooksPath may end in a space, which is part of the name.
  const reported = (
    await git(["rev-parse", "--git-path", "hooks"], { cwd: repo.cwd, env: repo.env })
  ).stdout.replace(/\n$/, "");
  const dir = isAbsolute(reported) ? reported : join(repo.cwd, reported);
  if (/(^|\/)\.husky(\/_)?$/.test(dir)) {
    const huskyDir = dir.replace(/\/_$/, "");
    if (await huskyRunsUs(huskyDir)) {
      const shown = await shownPath(repo, join(huskyDir, "pre-push"));
      return { shown, how: "husky", huskyLater: false, removedBySimpleGitHooks: false };
    }
    throw new ReviewRemoteError(messages.hooksThroughHusky, { hints: [messages.hintHuskyLine] });
  }
  const path = join(dir, "pre-push");
  const fresh = await shim();
  const existing = await readFile(path, "utf8").catch(() => undefined);
  let text = fresh;
  if (existing !== undefined && !force) {
    if (!existing.includes(BEGIN_MARKER) || !existing.includes(END_MARKER)) {
      // Husky 4 and older rewrites its own hooks at each install: a line added there would go.
      if (OLD_HUSKY.test(existing)) {
        const configured = repo.top ? await oldHuskyPrePush(repo.top) : undefined;
        if (configured !== undefined && RUNS_US.test(configured)) {
          const shown = await shownPath(repo, path);
          return { shown, how: "huskyConfig", huskyLater: false, removedBySimpleGitHooks: false };
        }
        throw new ReviewRemoteError(messages.hookIsOldHusky(await shownPath(repo, path)), {
          hints: [configured === undefined ? messages.hintOldHuskyForce : messages.hintOldHuskyConfigured],
        });
      }
      // A hook the repository tracks is the team's: replacing it changes a file everyone shares.
      const force = (await isTrackedFile(repo, path))
        ? messages.hintHookForceTracked
        : messages.hintHookForce;
      throw new ReviewRemoteError(messages.hookNotOurs(await shownPath(repo, path)), {
        hints: [messages.hintHookLine, force],
      });
    }
    text = existing.replace(block(existing), block(fresh));
  }
  await writeFileAtomic(path, text, 0o755);
  await chmod(path, 0o755);
  const husky = repo.top ? await stat(join(repo.top, ".husky")).catch(() => undefined) : undefined;
  const script = repo.top && husky?.isDirectory() !== true ? await huskyScript(repo.top) : undefined;
  return {
    shown: await shownPath(repo, path),
    how: existing === undefined ? "installed" : existing === text ? "unchanged" : "updated",
    huskyLater:
      script !== undefined ||
      (husky?.isDirectory() === true && !(repo.top && (await huskyRunsUs(join(repo.top, ".husky"))))),
    huskyScript: script,
    removedBySimpleGitHooks: repo.top ? await removedBySimpleGitHooks(repo.top) : false,
    untrackedInTracked: await untrackedInTrackedDir(repo, dir, path),
    workTreesWithout: await workTreesWithoutHook(repo),
    sharedBy: await sharedHooksConfig(repo),
  };
}

/**
 * The file that sets core.hooksPath when it is the user's or the system's configuration: a hook
 * written there runs on every push of every repository that does not set its own.
 */
async function sharedHooksConfig(repo: Repo): Promise<string | undefined> {
  const shown = await git(["config", "--show-scope", "--show-origin", "--get", "core.hooksPath"], {
    cwd: repo.cwd,
    env: repo.env,
    allowFailure: true,
  });
  const [scope, origin] = shown.stdout.split("\t");
  if (shown.exitCode !== 0 || (scope !== "global" && scope !== "system")) return undefined;
  return origin?.replace(/^file:/, "");
}

/** Whether `path`, in the work tree, is a file the index tracks. */
async function isTrackedFile(repo: Repo, path: string): Promise<boolean> {
  const top = repo.top;
  if (!top) return false;
  const rel = relative(top, path);
  if (rel.startsWith("..") || isAbsolute(rel)) return false;
  const listed = await git(["ls-files", "-z", "--", `:(literal)${rel}`], {
    cwd: top,
    env: repo.env,
    allowFailure: true,
  });
  return listed.exitCode === 0 && listed.stdout.split("\0").includes(rel);
}

/** A hook file git status lists: untracked, not ignored, in a hooks directory the repository tracks. */
interface UntrackedHook {
  /** The hook and its directory, from the current directory. */
  hook: string;
  dir: string;
  /** The line that keeps it out of git status (`/` and its path from the top), and the file for it. */
  excludeLine: string;
  excludeFile: string;
}

/**
 * Whether the hook just written sits untracked in a committed hooks directory (a husky-style
 * `.githooks/` that core.hooksPath names): git status then lists it, and a careless `git add .`
 * shares it. Undefined for a hooks directory outside the work tree, one that tracks nothing, and a
 * hook already tracked or ignored.
 */
async function untrackedInTrackedDir(
  repo: Repo,
  dir: string,
  hook: string,
): Promise<UntrackedHook | undefined> {
  const top = repo.top;
  if (!top) return undefined;
  const inTree = relative(top, dir);
  if (inTree === "" || inTree.startsWith("..") || isAbsolute(inTree)) return undefined;
  const run = (args: string[]) => git(args, { cwd: top, env: repo.env, allowFailure: true });
  const rel = relative(top, hook);
  // Literal pathspecs: a hooks directory's name is not a glob.
  const tracked = await run(["ls-files", "-z", "--", `:(literal)${inTree}`]);
  const files = tracked.stdout.split("\0").filter(Boolean);
  if (tracked.exitCode !== 0 || files.length === 0 || files.includes(rel)) return undefined;
  if ((await run(["check-ignore", "-q", "--", rel])).exitCode === 0) return undefined;
  const exclude = resolve(
    top,
    (await run(["rev-parse", "--git-path", "info/exclude"])).stdout.replace(/\n$/, ""),
  );
  const here = (path: string) => relative(repo.cwd, path) || ".";
  const shownExclude = here(exclude);
  return {
    hook: here(hook),
    dir: here(dir),
    excludeLine: `/${rel}`,
    excludeFile: shownExclude.startsWith("..") ? exclude : shownExclude,
  };
}
/** simple-git-hooks' JSON configurations (its .js ones are code, not read here). */
const SIMPLE_GIT_HOOKS_FILES = [".simple-git-hooks.json", "simple-git-hooks.json"];

/**
 * Whether the project's simple-git-hooks would delete this hook when it next installs (an npm install
 * runs it): it removes every hook its configuration does not name, unless `preserveUnused` keeps it.
 */
async function removedBySimpleGitHooks(top: string): Promise<boolean> {
  let config: unknown;
  for (const name of SIMPLE_GIT_HOOKS_FILES) config ??= await readTopJson(top, name);
  if (config === undefined) {
    const pkg = await readTopJson(top, "package.json");
    if (typeof pkg === "object" && pkg !== null)
      config = (pkg as Record<string, unknown>)["simple-git-hooks"];
  }
  if (typeof config !== "object" || config === null) return false;
  const { preserveUnused, "pre-push": prePush } = config as Record<string, unknown>;
  if (prePush !== undefined || preserveUnused === true) return false;
  return !(Array.isArray(preserveUnused) && preserveUnused.includes("pre-push"));
}
