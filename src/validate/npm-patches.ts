// Dependency patches named by path, for validation layer 4 (design §9): a `patch:` resolution
// (Yarn Berry: `patch:pad@npm%3A1.0.0#./custom/x.patch`), a `patchedDependencies` value (pnpm,
// Bun) or patch-package's `--patch-dir` makes the next install apply those files to a dependency's
// code, install scripts included. The files the base tree's package files name are protected from
// change wherever they are, beside the forbidden paths' usual names (`.yarn/patches/**`,
// `patches/pad@1.0.0.patch`).
import { posix } from "node:path";
import { readBlobs } from "../git/blobs.js";
import type { TreeChange } from "../git/raw-diff.js";
import { type GitOptions, git, splitNul } from "../git/run.js";
import { foldPath } from "../paths/fold.js";
import { readJson5 } from "./json5.js";
import { parseBunLock } from "./npm-sources.js";
import { quoteForDisplay } from "./sanitize.js";
import { readYamlSubset } from "./yaml-subset.js";

/** What a package file's text may name a patch by: a prefilter for `git grep`, then read in full. */
const PATCH_WORDS = ["patch:", "patchedDependencies", "--patch-dir", "\\"];

/** The files that can name patches: package.json (pnpm's package.yaml too), the lockfiles, pnpm's workspace settings. */
const PATCH_NAMING_FILES = [
  "package.json",
  "package.yaml",
  "package.json5",
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

/** Every string in `value`, at any depth (pnpm's lockfile writes a patch as `{hash, path}`). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}

/**
 * The values of a document's `patchedDependencies`: at its top (pnpm-workspace.yaml, pnpm-lock.yaml,
 * Bun's package.json) and in its `pnpm` map (a manifest's, in any of pnpm's forms).
 */
function patchedDependencies(document: unknown): string[] {
  if (typeof document !== "object" || document === null || Array.isArray(document)) return [];
  const fields = document as Record<string, unknown>;
  const pnpm = fields.pnpm;
  return [
    ...strings(fields.patchedDependencies),
    ...(typeof pnpm === "object" && pnpm !== null && !Array.isArray(pnpm)
      ? strings((pnpm as Record<string, unknown>).patchedDependencies)
      : []),
  ];
}

/** Every key and string of a JSON document, each on its own (none, where it does not parse). */
function jsonStrings(text: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string") found.push(value);
    else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (!Array.isArray(value)) found.push(key);
        walk(item);
      }
    }
  };
  try {
    walk(JSON.parse(text.replace(/^\ufeff/, "")));
  } catch {
    // Not JSON: Yarn reads no patch from it either.
  }
  return found;
}

/**
 * A yarn.lock with its double-quoted strings read as JSON reads them (Yarn v1's parser does; Berry's
 * YAML reader reads these escapes alike), or why one cannot be: an escape JSON has not (YAML's `\x61`).
 */
function decodeQuoted(text: string): string | { unread: string } {
  let unread: string | undefined;
  const decoded = text.split(/\r\n?|\n/).map((line, index) =>
    line.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => {
      if (!quoted.includes("\\")) return quoted;
      try {
        return `"${JSON.parse(quoted) as string}"`;
      } catch {
        unread ??= `an escape this check does not read (line ${index + 1})`;
        return quoted;
      }
    }),
  );
  return unread === undefined ? decoded.join("\n") : { unread };
}

/**
 * The tree paths of the patch files the package file at `path` names (`files`), and the folders whose
 * every file is one (`folders`: patch-package's `--patch-dir`). A reference is taken from the file's
 * folder and each folder above it (Yarn's `~/` is the project's root, which may be any of them), and
 * a lockfile's from the workspace its locator names too: protecting a path no tool reads costs
 * nothing, missing one costs a patched dependency.
 */
export function namedPatchPaths(
  path: string,
  text: string,
): { files: string[]; folders: string[]; unread: string | undefined } {
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
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  let unread: string | undefined;
  // Yarn's `patch:` descriptors and resolutions, wherever they are written (JSON strings, lockfile
  // keys and values, always quoted): up to a quote, a line's end or a comma (between a key's
  // descriptors). A space may be in a patch's path. Yarn reads a package.json as JSON and a
  // yarn.lock's quoted strings with their escapes (`"p\u0061tch:..."` is `patch:`): they are
  // read so too, beside the text as written.
  const written = [text];
  if (name === "package.json" && text.includes("\\")) written.push(...jsonStrings(text));
  if (name === "yarn.lock" && text.includes("\\")) {
    const decoded = decodeQuoted(text);
    if (typeof decoded === "string") written.push(decoded);
    else unread = decoded.unread;
  }
  for (const match of written.join("\n").matchAll(/patch:([^"'\r\n,]+)/g)) {
    const { paths, workspace } = yarnPatchReferences((match[1] ?? "").trim());
    for (const reference of paths) {
      addFrom(up, reference, files);
      if (workspace !== undefined) {
        const root = inTree(folder, workspace) ?? (workspace === "." ? folder : undefined);
        if (root !== undefined) addFrom([root], reference, files);
      }
    }
  }
  if (name.endsWith(".yaml") || name.endsWith(".json5")) {
    // pnpm's own forms, read as a whole: a value read wrong is a patch left unprotected, so one
    // that cannot be read is said (`unread`). A key may be spelled with escapes (`"patched\x44..."`).
    if (/patchedDependencies|\\/.test(text)) {
      const read = name.endsWith(".yaml") ? readYamlSubset(text) : readJson5(text);
      if ("unread" in read) unread = read.unread;
      else {
        const values =
          "documents" in read ? read.documents.flatMap(patchedDependencies) : patchedDependencies(read.value);
        for (const reference of values) addFrom(up, reference, files);
      }
    }
  } else if (/patchedDependencies|--patch-dir|\\u/.test(text)) {
    let document: unknown;
    if (name === "bun.lock") document = parseBunLock(text);
    else {
      try {
        document = JSON.parse(text.replace(/^\ufeff/, ""));
      } catch {
        document = undefined;
      }
    }
    for (const reference of patchedDependencies(document)) addFrom(up, reference, files);
    // patch-package's folder, in any script: every file in it is applied.
    for (const match of text.matchAll(/--patch-dir(?:=|\s+)(['"]?)([^\s'"&|;]+)\1/g)) {
      addFrom([folder], match[2] ?? "", folders);
    }
  }
  return { files: [...files], folders: [...folders], unread };
}

/** The dependency patches a base tree's package files name: asked of each path a proposal changes. */
export interface NamedPatches {
  /**
   * Why a change of `path` is refused, or undefined; `texts`, the file's before and after, where
   * readsTexts says they are asked for.
   */
  reason(path: string, texts?: readonly string[]): string | undefined;
  /** Whether reason judges a file by its text too: while a base file's patches are not read. */
  readsTexts: boolean;
}

/**
 * Whether `text` is one a patch applier reads as a patch: a line that starts a file's diff or a hunk
 * (`diff --git `, `--- `, `+++ `, `@@ `). pnpm's and Yarn's appliers (patch-package's parser) read
 * nothing else, whatever the file's name, and a file of none of them changes no code.
 */
function readsAsPatch(text: string): boolean {
  return /^(?:diff --git |--- |\+\+\+ |@@ )/m.test(text);
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
  /** A file whose patches are not read, and why: every patch file is then taken for one it names. */
  let unread: { path: string; why: string } | undefined;
  for (const [index, path] of paths.entries()) {
    const named = namedPatchPaths(path, blobs[index]?.toString("utf8") ?? "");
    for (const file of named.files) files.set(foldPath(file), path);
    for (const folder of named.folders) folders.set(foldPath(folder), path);
    if (named.unread !== undefined) unread ??= { path, why: named.unread };
  }
  return {
    readsTexts: unread !== undefined,
    reason(path: string, texts: readonly string[] = []) {
      const folded = foldPath(path);
      let by = files.get(folded);
      if (by === undefined) {
        for (const folder of ancestors(folded.slice(0, Math.max(folded.lastIndexOf("/"), 0)))) {
          by = folders.get(folder);
          if (by !== undefined) break;
        }
      }
      const patchFile = /\.(?:patch|diff)$/i.test(path) || texts.some(readsAsPatch);
      if (by === undefined && unread !== undefined && patchFile) {
        return `is a patch file, and the base's ${quoteForDisplay(unread.path)} may name it as a dependency patch in a form this check does not read (${unread.why})`;
      }
      if (by === undefined) return undefined;
      return `is a dependency patch the base's ${quoteForDisplay(by)} names (the next install applies it to that package's code, install scripts included)`;
    },
  };
}

/** The blobs of a change's files, before and after: none of a link, a gitlink or a side it has not. */
function fileOids(change: TreeChange): string[] {
  const oids: string[] = [];
  if (change.oldMode.startsWith("100") && !/^0+$/.test(change.oldOid)) oids.push(change.oldOid);
  if (change.newMode.startsWith("100") && !/^0+$/.test(change.newOid)) oids.push(change.newOid);
  return oids;
}

/**
 * The texts, before and after, of each path `changes` touch (a rename's both names), for `named`'s
 * reason: read in one `git cat-file --batch`, and only while `named.readsTexts` asks for them.
 */
export async function changedTexts(
  run: GitOptions,
  changes: readonly TreeChange[],
  named: NamedPatches,
): Promise<Map<string, string[]>> {
  const texts = new Map<string, string[]>();
  if (!named.readsTexts) return texts;
  const oids = [...new Set(changes.flatMap(fileOids))];
  const blobs = await readBlobs(run, oids);
  const byOid = new Map(oids.map((oid, index) => [oid, blobs[index]?.toString("utf8") ?? ""]));
  for (const change of changes) {
    const both = fileOids(change).flatMap((oid) => byOid.get(oid) ?? []);
    for (const path of [change.fromPath ?? change.path, change.path]) {
      texts.set(path, [...(texts.get(path) ?? []), ...both]);
    }
  }
  return texts;
}
