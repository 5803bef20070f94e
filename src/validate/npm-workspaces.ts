// A package.json's `workspaces`, for validation layer 4 (design §9): npm, Yarn and Bun install every
// folder its patterns match as a workspace, running that package's install scripts (and node-gyp for
// a binding.gyp) and fetching its dependencies. A folder already in the tree that the proposal makes a
// workspace has code the proposal does not show: a `workspaces` change may not add a pattern that
// matches one whose package.json would run or fetch something on install, nor one reaching outside
// the tree. (pnpm's `pnpm-workspace.yaml` is a forbidden path.)
import { posix } from "node:path";
import { foldedName } from "../paths/fold.js";
import { isNodeGypPath } from "./npm-scripts.js";
import { DEPENDENCY_FIELDS, nonRegistrySource } from "./npm-sources.js";
import { quoteForDisplay } from "./sanitize.js";

/** The scripts npm, Yarn and Bun run for a workspace on install (npm's `prepare` too, and `dependencies`). */
const INSTALL_SCRIPTS = new Set(
  ["install", "prepare", "dependencies"]
    .flatMap((event) => [event, `pre${event}`, `post${event}`])
    .concat("prepublish"),
);

type Patterns = { ok: true; patterns: string[] } | { ok: false };

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text.replace(/^\ufeff/, ""));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The `workspaces` patterns: an array of strings, or Yarn's and Bun's `{ "packages": [...] }`. */
function workspacePatterns(document: Record<string, unknown> | undefined): Patterns {
  if (document === undefined || !Object.hasOwn(document, "workspaces")) return { ok: true, patterns: [] };
  let value = document.workspaces;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    value = (value as Record<string, unknown>).packages ?? [];
  }
  if (!Array.isArray(value) || !value.every((pattern) => typeof pattern === "string")) return { ok: false };
  return { ok: true, patterns: value };
}

/**
 * A glob of the workspace patterns as a regex over tree paths, or undefined where it has a form read
 * here only loosely. `loose`: answer for every form and match more, never less (dot names, any
 * bracket or extglob as a whole segment); strict: match less, never more (no dot names, as the
 * package managers' globs do by default), and undefined for any bracket, extglob or brace inside one.
 */
function globRegex(pattern: string, loose: boolean): RegExp | undefined {
  const noDot = loose ? "" : "(?!\\.)";
  const segment = (text: string): string | undefined => {
    if (text === "**") return undefined; // handled by the caller
    if (/[[\]()!+@]/.test(text)) return loose ? "[^/]*" : undefined;
    let out = "";
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c === "*") out += i === 0 ? `${noDot}[^/]*` : "[^/]*";
      else if (c === "?") out += i === 0 ? `${noDot}[^/]` : "[^/]";
      else if (c === "{") {
        const close = text.indexOf("}", i);
        if (close === -1 || text.slice(i + 1, close).includes("{")) return loose ? "[^/]*" : undefined;
        const options = text
          .slice(i + 1, close)
          .split(",")
          .map((option) => segment(option));
        if (options.some((option) => option === undefined)) return loose ? "[^/]*" : undefined;
        out += `(?:${options.join("|")})`;
        i = close;
      } else if (c === "\\") return loose ? "[^/]*" : undefined;
      else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
    return out;
  };
  let source = "";
  const parts = pattern.split("/");
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    if (part === "**") {
      source += last ? `(?:${noDot}[^/]+(?:/${noDot}[^/]+)*)?` : `(?:${noDot}[^/]+/)*`;
      continue;
    }
    const converted = segment(part);
    if (converted === undefined) return undefined;
    source += last ? converted : `${converted}/`;
  }
  return new RegExp(`^${source.replace(/\/$/, "")}$`);
}

/** `pattern` from the folder `folder`, as a tree path glob, or undefined where it leaves the tree. */
function fromFolder(folder: string, pattern: string): string | undefined {
  const trimmed = pattern.trim().replace(/\/+$/, "");
  if (trimmed === "" || trimmed.startsWith("/") || /^[a-z]:/i.test(trimmed)) return undefined;
  const joined = posix.normalize(folder === "" ? trimmed : `${folder}/${trimmed}`);
  if (joined === ".." || joined.startsWith("../")) return undefined;
  return joined === "." ? "" : joined;
}

/** The folders that hold a package.json in `treePaths`, each with that file's path. */
function packageFolders(treePaths: readonly string[]): Map<string, string> {
  const folders = new Map<string, string>();
  for (const path of treePaths) {
    if (foldedName(path) !== "package.json") continue;
    folders.set(path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", path);
  }
  return folders;
}

/** What a workspace's package.json would make the next install run or fetch. */
function installEffects(manifest: string | undefined, hasBindingGyp: boolean): string[] {
  const effects: string[] = [];
  const document = parseObject(manifest);
  const scripts = document?.scripts;
  if (typeof scripts === "object" && scripts !== null && !Array.isArray(scripts)) {
    for (const name of Object.keys(scripts)) {
      if (INSTALL_SCRIPTS.has(name.trim().toLowerCase())) effects.push(`the script ${quoteForDisplay(name)}`);
    }
  }
  if (hasBindingGyp) effects.push("node-gyp for its binding.gyp");
  // peerDependencies too: npm 7 and later install a workspace's peers.
  for (const field of DEPENDENCY_FIELDS) {
    const map = document?.[field];
    if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
    for (const [name, spec] of Object.entries(map)) {
      const source = typeof spec === "string" ? nonRegistrySource(spec) : undefined;
      if (source !== undefined && source !== "a local path") {
        effects.push(`the dependency ${quoteForDisplay(name)} from ${source}`);
      }
    }
  }
  return effects;
}

/** Whether the change from `before` to `after` of a package.json touches its `workspaces`. */
export function changesWorkspaces(before: string | undefined, after: string): boolean {
  const old = parseObject(before)?.workspaces;
  const next = parseObject(after)?.workspaces;
  return JSON.stringify(old) !== JSON.stringify(next);
}

/**
 * What the change of the package.json at `path` from `before` (undefined: new) to `after` makes a
 * workspace that the next install runs or fetches code of (design §9): every folder of the tree
 * after the change (`treePaths`; `read` gives a file's content there) that a pattern it adds matches,
 * and the old ones did not, whose package.json has an install-time script, a binding.gyp
 * beside it or a dependency from a git repository or a URL; and any added pattern leaving the tree.
 * Old patterns are read strictly (a form not read exactly matches nothing; a negation excludes
 * loosely), new ones loosely: a folder is taken as newly matched whenever it may be.
 */
export async function workspaceProblems(
  path: string,
  before: string | undefined,
  after: string,
  treePaths: readonly string[],
  read: (path: string) => Promise<string | undefined>,
): Promise<string[]> {
  if (!changesWorkspaces(before, after)) return [];
  const next = workspacePatterns(parseObject(after));
  if (!next.ok) {
    return [
      `changes the field "workspaces" to a form this check does not read (the next install runs the install scripts of every folder it names)`,
    ];
  }
  const oldRead = workspacePatterns(parseObject(before));
  // `packages/*/` and `./packages/*` are `packages/*`: the same folders.
  const same = (pattern: string) =>
    pattern
      .trim()
      .replace(/^(!?)(?:\.\/)+/, "$1")
      .replace(/\/+$/, "");
  const old = (oldRead.ok ? oldRead.patterns : []).map(same);
  const patterns = next.patterns.map(same);
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const problems: string[] = [];
  // The positive patterns the list adds, or all of them where it drops an old negation (whose folders
  // the others then match); the new negations are left out, which only matches more. A pattern kept
  // as it was matches what it did.
  const droppedNegation = old.some((pattern) => pattern.startsWith("!") && !patterns.includes(pattern));
  const newGlobs: RegExp[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith("!") || (old.includes(pattern) && !droppedNegation)) continue;
    const glob = fromFolder(folder, pattern);
    if (glob === undefined) {
      if (old.includes(pattern)) continue;
      problems.push(
        `adds the workspace ${quoteForDisplay(pattern)}, outside the tree (the next install runs the install scripts of what is there)`,
      );
      continue;
    }
    newGlobs.push(globRegex(glob, true) ?? /^/);
  }
  const strict = (pattern: string) => {
    const glob = fromFolder(folder, pattern);
    return glob === undefined ? undefined : globRegex(glob, false);
  };
  const loose = (pattern: string) => {
    const glob = fromFolder(folder, pattern);
    return glob === undefined ? /^/ : (globRegex(glob, true) ?? /^/);
  };
  const oldGlobs = old.filter((pattern) => !pattern.startsWith("!")).map(strict);
  const oldNegations = old
    .filter((pattern) => pattern.startsWith("!"))
    .map((pattern) => loose(pattern.slice(1)));
  const wasWorkspace = (candidate: string) =>
    oldGlobs.some((glob) => glob?.test(candidate)) && !oldNegations.some((glob) => glob.test(candidate));
  // The folders with a binding.gyp, in any spelling a case-insensitive checkout reads as one.
  const gypFolders = new Set(
    treePaths
      .filter(isNodeGypPath)
      .map((gyp) => (gyp.includes("/") ? gyp.slice(0, gyp.lastIndexOf("/")) : "")),
  );
  for (const [candidate, manifest] of packageFolders(treePaths)) {
    if (candidate === folder || !newGlobs.some((glob) => glob.test(candidate)) || wasWorkspace(candidate)) {
      continue;
    }
    const effects = installEffects(await read(manifest), gypFolders.has(candidate));
    if (effects.length === 0) continue;
    problems.push(
      `makes ${quoteForDisplay(candidate)} a workspace: the next install runs or fetches ${effects.join(", ")} of it (code the proposal does not show)`,
    );
  }
  return problems;
}
