// npm lifecycle scripts for validation layer 4 (design §9): a script that npm, yarn or pnpm run by
// themselves on install, pack or publish is code execution on the user's machine, so none may be added
// or changed by a proposal.
import { foldedName } from "../paths/fold.js";
import { quoteForDisplay } from "./sanitize.js";

/** Events the package managers run without being asked by name; each also has `pre` and `post` hooks. */
const LIFECYCLE_EVENTS = [
  "install",
  "uninstall",
  "prepublish",
  "prepublishOnly",
  "publish",
  "prepare",
  "pack",
  "version",
  "dependencies",
  "shrinkwrap",
] as const;

/** Lower-cased: a differently-cased key is no lifecycle script to npm, but it is no honest edit either. */
export const LIFECYCLE_SCRIPTS: ReadonlySet<string> = new Set(
  [...LIFECYCLE_EVENTS.flatMap((event) => [event, `pre${event}`, `post${event}`]), "pnpm:devPreinstall"].map(
    (name) => name.toLowerCase(),
  ),
);

/** `package.json` at any depth, in any spelling a case-insensitive checkout would read as one. */
export function isPackageJsonPath(path: string): boolean {
  return foldedName(path) === "package.json";
}

/** npm runs `node-gyp rebuild` on install for a package with a `binding.gyp`, and gyp runs commands. */
export function isNodeGypPath(path: string): boolean {
  return foldedName(path) === "binding.gyp";
}

/**
 * Whether npm would run its default install, `node-gyp rebuild`, for a package with this package.json
 * and a binding.gyp beside it: one with neither an `install` nor a `preinstall` script (or that does
 * not parse, whose problem is changedLifecycleScripts' to say).
 */
function defaultsToNodeGyp(json: string): boolean {
  const read = readScripts(json);
  if (!read.ok) return true;
  return !Object.keys(read.scripts).some((name) =>
    ["install", "preinstall"].includes(name.trim().toLowerCase()),
  );
}

/**
 * Whether nodeGypProblem needs the tree: the change from `before` (undefined: new) to `after` of the
 * package.json at `path` turns npm's default node-gyp install on, wherever a binding.gyp is beside it.
 */
export function mayStartNodeGyp(path: string, before: string | undefined, after: string): boolean {
  return (
    isPackageJsonPath(path) &&
    defaultsToNodeGyp(after) &&
    (before === undefined || !defaultsToNodeGyp(before))
  );
}

/**
 * Why the change of the package.json at `path` is refused for the binding.gyp beside it in the tree
 * after the change (`treePaths`), or undefined: a package.json added there, or changed to drop its
 * own `install` and `preinstall` scripts, makes npm run `node-gyp rebuild` from that binding.gyp on
 * the next install, as writing one would (a binding.gyp written is refused, changes.ts).
 */
export function nodeGypProblem(
  path: string,
  before: string | undefined,
  after: string,
  treePaths: readonly string[],
): string | undefined {
  if (!mayStartNodeGyp(path, before, after)) return undefined;
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  const gyp = treePaths.find(
    (other) => other.startsWith(folder) && !other.slice(folder.length).includes("/") && isNodeGypPath(other),
  );
  if (gyp === undefined) return undefined;
  return `leaves npm to run node-gyp from ${quoteForDisplay(gyp)} on the next install (it has no install or preinstall script of its own)`;
}

const TOOLCHAIN_REASON = "it picks the package manager or runtime that is downloaded and run";
const COMMIT_REASON = "it names the commands the git hooks run on every commit";
const EDITOR_REASON = "it names the modules an editor's tool loads, by path too, when the folder is opened";

/**
 * Fields that make something run or merge by itself, with the reason shown: those that pick the
 * package manager or runtime a tool downloads and runs on an ordinary command in the directory, as
 * `.nvmrc` or `.tool-versions` do (design §9): Corepack's `packageManager` (a version, or a URL to
 * any script) and its `devEngines.packageManager`, Volta's `volta`; Renovate's configuration,
 * which the bot still reads from a `package.json` as from `renovate.json` (a merge bot's file); and
 * the install settings pnpm, Yarn and Bun read there as from their own config files (`pnpm`:
 * `onlyBuiltDependencies`, `patchedDependencies`, `packageExtensions`...; `dependenciesMeta`;
 * `trustedDependencies`; Bun's `patchedDependencies` (pnpm's is in `pnpm`); `publishConfig`, the registry and settings of the next publish, as an
 * `.npmrc` sets them); and the commit hooks' configuration these tools read there as from their
 * own files, refused in the family of tools a commit runs: lint-staged's commands, husky 4's and the
 * pre-commit package's hooks, simple-git-hooks' (written into the hooks at the next install), and
 * commitlint's, whose `extends` and `plugins` are modules it loads; and the configuration of the
 * editor's tools that names modules (ESLint's `eslintConfig`, `prettier`, `stylelint`, `babel`,
 * `jest`), refused in every form of their own files.
 */
const GUARDED_FIELDS: ReadonlyMap<string, string> = new Map([
  ["packageManager", TOOLCHAIN_REASON],
  ["devEngines", TOOLCHAIN_REASON],
  ["volta", TOOLCHAIN_REASON],
  ["renovate", "it configures the Renovate bot, which may merge changes by itself"],
  ["pnpm", "it configures what pnpm installs, and which dependencies may run install scripts"],
  ["dependenciesMeta", "it says which dependencies may run install scripts"],
  ["trustedDependencies", "it says which dependencies may run install scripts"],
  ["patchedDependencies", "it names the patches Bun applies to dependencies' code on the next install"],
  ["publishConfig", "it says where the next npm, Yarn or pnpm publish sends the package, and how"],
  ["lint-staged", COMMIT_REASON],
  ["husky", COMMIT_REASON],
  ["pre-commit", COMMIT_REASON],
  ["simple-git-hooks", COMMIT_REASON],
  ["commitlint", "it names the modules commitlint loads on every commit"],
  ["eslintConfig", EDITOR_REASON],
  ["prettier", EDITOR_REASON],
  ["stylelint", EDITOR_REASON],
  ["babel", EDITOR_REASON],
  ["jest", EDITOR_REASON],
]);

type ParsedScripts = { ok: true; scripts: Record<string, unknown> } | { ok: false };

function readDocument(json: string): Record<string, unknown> | undefined {
  let document: unknown;
  try {
    // npm strips a BOM before parsing; so do we.
    document = JSON.parse(json.replace(/^\ufeff/, ""));
  } catch {
    return undefined;
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) return undefined;
  return document as Record<string, unknown>;
}

function readScripts(json: string): ParsedScripts {
  const document = readDocument(json);
  if (document === undefined) return { ok: false };
  const scripts: unknown = document.scripts;
  if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts))
    return { ok: true, scripts: {} };
  return { ok: true, scripts: scripts as Record<string, unknown> };
}

/**
 * Problems with the change from `oldJson` (undefined: the file is new) to `newJson`: every lifecycle
 * script added or changed, or a document that is no longer a JSON object. Removing a script is fine.
 */
export function changedLifecycleScripts(oldJson: string | undefined, newJson: string): string[] {
  const after = readScripts(newJson);
  if (!after.ok) return ["is not a valid JSON object after the change"];
  const before = oldJson === undefined ? undefined : readScripts(oldJson);
  const oldScripts = before?.ok ? before.scripts : {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(after.scripts)) {
    if (!LIFECYCLE_SCRIPTS.has(name.trim().toLowerCase())) continue;
    const old = Object.hasOwn(oldScripts, name) ? oldScripts[name] : undefined;
    if (JSON.stringify(old) === JSON.stringify(value)) continue;
    problems.push(
      `${old === undefined ? "adds" : "changes"} the npm lifecycle script ${quoteForDisplay(name)}`,
    );
  }
  return problems;
}

/**
 * The guarded fields (GUARDED_FIELDS) the change from `oldJson` (undefined: the file is new) to
 * `newJson` adds or changes; removing one is fine. An invalid document is changedLifecycleScripts' to say.
 */
export function changedGuardedFields(oldJson: string | undefined, newJson: string): string[] {
  const after = readDocument(newJson);
  if (after === undefined) return [];
  const before = (oldJson === undefined ? undefined : readDocument(oldJson)) ?? {};
  const problems: string[] = [];
  for (const [field, reason] of GUARDED_FIELDS) {
    if (!Object.hasOwn(after, field)) continue;
    const old = Object.hasOwn(before, field) ? before[field] : undefined;
    if (JSON.stringify(old) === JSON.stringify(after[field])) continue;
    problems.push(`${old === undefined ? "adds" : "changes"} the field "${field}" (${reason})`);
  }
  return problems;
}
