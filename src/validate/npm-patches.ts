// Dependency patches named by path, for validation layer 4 (design §9): a `patch:` resolution
// (Yarn Berry: `patch:pad@npm%3A1.0.0#./custom/x.patch`), a `patchedDependencies` value (pnpm,
// Bun) or patch-package's `--patch-dir` makes the next install apply those files to a dependency's
// code, install scripts included. The files the base tree's package files name are protected from
// change wherever they are, beside the forbidden paths' usual names (`.yarn/patches/**`,
// `patches/pad@1.0.0.patch`).
import { posix } from "node:path";
import { readBlobs } from "../git/blobs.js";
import { type GitOptions, git, splitNul } from "../git/run.js";
import { foldPath } from "../paths/fold.js";
import { parseBunLock } from "./npm-sources.js";
import { quoteForDisplay } from "./sanitize.js";

/** What a package file's text may name a patch by: a prefilter for `git grep`, then read in full. */
const PATCH_WORDS = ["patch:", "patchedDependencies", "--patch-dir"];

/** The files that can name patches: package.json (pnpm's package.yaml too), the lockfiles, pnpm's workspace settings. */
const PATCH_NAMING_FILES = [
  "package.json",
  "package.yaml",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "bun.lock",
];

/** The folders from `folder` up to the top, `folder` first: `a/b` → `a/b`, `a`, ``. */
function ancestors(folder: string): string[] {
  const found = [folder];
  let current = folder;
  while (current !== "") {
    current = current.includes("/") ? current.slice(0, current.lastIndexOf("/")) : "";
    found.push(current);
  }
  return found;
}

/** `reference` from `folder`, as a tree path, or undefined when it leaves the tree or is absolute. */
function inTree(folder: string, reference: string): string | undefined {
  if (reference === "" || reference.startsWith("/") || reference.includes("\\")) return undefined;
  const joined = posix.normalize(folder === "" ? reference : `${folder}/${reference}`);
  if (joined === "." || joined.startsWith("../") || joined === "..") return undefined;
  return joined.replace(/\/+$/, "");
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The paths of the patch files a Yarn `patch:` reference names, each as written (`./x.patch`,
 * `~/x.patch`), and the workspace its locator names (a lockfile's resolution), if any. Several
 * patches are joined with `&`; Yarn's built-in ones (`builtin<compat/fsevents>`) name no file.
 */
function yarnPatchReferences(reference: string): { paths: string[]; workspace: string | undefined } {
  const hash = reference.indexOf("#");
  if (hash === -1) return { paths: [], workspace: undefined };
  const rest = reference.slice(hash + 1);
  const separator = rest.indexOf("::");
  const list = separator === -1 ? rest : rest.slice(0, separator);
  const params = separator === -1 ? "" : rest.slice(separator + 2);
  const paths = decode(list)
    .split("&")
    .map((path) => path.replace(/^optional!/, ""))
    .filter((path) => path !== "" && !path.startsWith("builtin<"));
  const locator = /(?:^|&)locator=([^&]*)/.exec(params)?.[1];
  const workspace = locator === undefined ? undefined : /@workspace:(.*)$/.exec(decode(locator))?.[1];
  return { paths, workspace };
}

/**
 * A YAML line without its comment: from a `#` at its start or after a space, outside a quoted
 * scalar (one opens after a space, `:`, `,`, `[` or `{`, or at the line's start).
 */
function uncommented(line: string): string {
  let quote: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      continue;
    }
    const after = at === 0 ? " " : (line[at - 1] as string);
    if ((char === "'" || char === '"') && /[\s:,[{]/.test(after)) quote = char;
    else if (char === "#" && /\s/.test(after)) return line.slice(0, at);
  }
  return line;
}

/** The value of a `key: value` entry, unquoted. */
const entryValue = (entry: string) => /:\s+(['"]?)([^'"\s][^'"]*?)\1\s*$/.exec(entry)?.[2];

/**
 * The patch-naming values of a YAML file's `patchedDependencies:` mapping (pnpm), at the top level
 * (pnpm-workspace.yaml, pnpm-lock.yaml) or in the top-level `pnpm:` map (a package.yaml manifest):
 * a block (comments and blank lines inside it, at any indent, do not end it) or a one-line flow
 * mapping.
 */
function yamlPatchedDependencies(text: string): string[] {
  const values: string[] = [];
  const flow = (rest: string) => {
    for (const entry of rest.replace(/^\{|\}$/g, "").split(",")) {
      const value = entryValue(entry.trim());
      if (value !== undefined) values.push(value);
    }
  };
  /** The indent of the `patchedDependencies:` key whose block the lines are in, if any. */
  let block: number | undefined;
  let topKey: string | undefined;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = uncommented(raw).trimEnd();
    if (line.trim() === "") continue;
    const indent = line.length - line.trimStart().length;
    if (block !== undefined && indent > block) {
      const value = entryValue(line);
      if (value !== undefined) values.push(value);
      continue;
    }
    block = undefined;
    if (indent === 0) topKey = /^(['"]?)([^'":]*)\1\s*:/.exec(line)?.[2];
    if (indent !== 0 && topKey !== "pnpm") continue;
    const key = /^\s*(['"]?)patchedDependencies\1\s*:(?:\s+(.*))?$/.exec(line);
    if (key === null) continue;
    const rest = key[2] ?? "";
    if (rest === "") block = indent;
    else if (rest.startsWith("{")) flow(rest);
  }
  return values;
}

function stringValues(map: unknown): string[] {
  if (typeof map !== "object" || map === null || Array.isArray(map)) return [];
  return Object.values(map).filter((value): value is string => typeof value === "string");
}

/**
 * The tree paths of the patch files the package file at `path` names (`files`), and the folders whose
 * every file is one (`folders`: patch-package's `--patch-dir`). A reference is taken from the file's
 * folder and each folder above it (Yarn's `~/` is the project's root, which may be any of them), and
 * a lockfile's from the workspace its locator names too: protecting a path no tool reads costs
 * nothing, missing one costs a patched dependency.
 */
export function namedPatchPaths(path: string, text: string): { files: string[]; folders: string[] } {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const files = new Set<string>();
  const folders = new Set<string>();
  const addFrom = (bases: readonly string[], reference: string, into: Set<string>) => {
    const relative = reference.replace(/^~\//, "");
    for (const base of bases) {
      const found = inTree(base, relative);
      if (found !== undefined) into.add(found);
    }
  };
  const up = ancestors(folder);
  // Yarn's `patch:` descriptors and resolutions, wherever they are written (JSON strings, lockfile
  // keys and values, always quoted): up to a quote, a line's end or a comma (between a key's
  // descriptors). A space may be in a patch's path.
  for (const match of text.matchAll(/patch:([^"'\r\n,]+)/g)) {
    const { paths, workspace } = yarnPatchReferences((match[1] ?? "").trim());
    for (const reference of paths) {
      addFrom(up, reference, files);
      if (workspace !== undefined) {
        const root = inTree(folder, workspace) ?? (workspace === "." ? folder : undefined);
        if (root !== undefined) addFrom([root], reference, files);
      }
    }
  }
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  if (name.endsWith(".yaml")) {
    for (const reference of yamlPatchedDependencies(text)) addFrom(up, reference, files);
  } else if (text.includes("patchedDependencies") || text.includes("--patch-dir")) {
    let document: unknown;
    if (name === "bun.lock") document = parseBunLock(text);
    else {
      try {
        document = JSON.parse(text.replace(/^\ufeff/, ""));
      } catch {
        document = undefined;
      }
    }
    if (typeof document === "object" && document !== null && !Array.isArray(document)) {
      const fields = document as Record<string, unknown>;
      const pnpm = fields.pnpm as Record<string, unknown> | undefined;
      const references = [
        ...stringValues(fields.patchedDependencies),
        ...stringValues(typeof pnpm === "object" && pnpm !== null ? pnpm.patchedDependencies : undefined),
      ];
      for (const reference of references) addFrom(up, reference, files);
    }
    // patch-package's folder, in any script: every file in it is applied.
    for (const match of text.matchAll(/--patch-dir(?:=|\s+)(['"]?)([^\s'"&|;]+)\1/g)) {
      addFrom([folder], match[2] ?? "", folders);
    }
  }
  return { files: [...files], folders: [...folders] };
}

/** The dependency patches a base tree's package files name: asked of each path a proposal changes. */
export interface NamedPatches {
  /** Why a change of `path` is refused, or undefined. */
  reason(path: string): string | undefined;
}

/**
 * The patches the package files of `treeish` name (namedPatchPaths), read with one `git grep` for
 * the files that hold a patch word at all and one `cat-file --batch` for those.
 */
export async function readNamedPatches(run: GitOptions, treeish: string): Promise<NamedPatches> {
  const pathspecs = PATCH_NAMING_FILES.map((name) => `:(glob,icase)**/${name}`);
  const grep = await git(
    [
      "grep",
      "-l",
      "-z",
      "-I",
      "-F",
      ...PATCH_WORDS.flatMap((word) => ["-e", word]),
      treeish,
      "--",
      ...pathspecs,
    ],
    { ...run, allowFailure: true },
  );
  if (grep.exitCode > 1) throw new Error(`git grep failed: ${grep.stderr.trim()}`);
  const prefix = `${treeish}:`;
  const paths = splitNul(grep.stdout)
    .filter((hit) => hit.startsWith(prefix))
    .map((hit) => hit.slice(prefix.length))
    .filter((path) => !path.includes("\n"));
  const blobs = await readBlobs(
    run,
    paths.map((path) => `${prefix}${path}`),
  );
  const files = new Map<string, string>();
  const folders = new Map<string, string>();
  for (const [index, path] of paths.entries()) {
    const named = namedPatchPaths(path, blobs[index]?.toString("utf8") ?? "");
    for (const file of named.files) files.set(foldPath(file), path);
    for (const folder of named.folders) folders.set(foldPath(folder), path);
  }
  return {
    reason(path: string) {
      const folded = foldPath(path);
      let by = files.get(folded);
      if (by === undefined) {
        for (const folder of ancestors(folded.slice(0, Math.max(folded.lastIndexOf("/"), 0)))) {
          by = folders.get(folder);
          if (by !== undefined) break;
        }
      }
      if (by === undefined) return undefined;
      return `is a dependency patch the base's ${quoteForDisplay(by)} names (the next install applies it to that package's code, install scripts included)`;
    },
  };
}
