// Where a package comes from, for validation layer 4 (design §9): a dependency a proposal points at
// a git repository, a URL or a local path, or a lockfile entry it resolves off the registry, is code
// the next `npm install` fetches and runs (its install scripts, its bin) without any registry having
// seen it, so none may be added or changed, as the lifecycle scripts may not.
import { foldedName, foldPath } from "../paths/fold.js";
import { parseStrictJson } from "../protocol/strict-json.js";
import { changedGuardedFields, changedLifecycleScripts, isPackageJsonPath } from "./npm-scripts.js";
import { quoteForDisplay } from "./sanitize.js";

/** The package.json maps whose values are version specs, by field (the `pnpm` field's one nested). */
export const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
];
const OVERRIDE_FIELDS = ["overrides", "resolutions"];

/** Registries whose tarballs every lockfile may name; a lockfile's own registries are added to these. */
const PUBLIC_REGISTRIES = ["https://registry.npmjs.org", "https://registry.yarnpkg.com"];

/** The problems reported per file at most; the rest are counted. */
const MAX_PROBLEMS = 10;

const UNREAD_LINE = "a resolution not in the form the package manager writes: it may name any source";

const ANOTHER_PACKAGE =
  "not the package the entry names: the next install puts that code, and its install scripts, in its place";

const LOCKED_DEPENDENCY =
  "the next install resolves it from there, with the entry, and runs its install scripts";

const RESOLVES_OFF_REGISTRY = "not the registry: the next install fetches it and runs its install scripts";

/**
 * What kind of source other than the registry `spec` names, or undefined for a registry one (a
 * version, a range, a tag, an `npm:` alias of one, a workspace or catalog reference by version).
 * The forms npm, Yarn and pnpm read: a protocol (`git+ssh:`, `github:`, `https:`, `file:`,
 * `link:`, `portal:`, `patch:`, `exec:`...), a path (`./`, `../`, `/`, `~/`, a backslash, a
 * tarball's name: `pad.tgz`) and GitHub's `owner/repo` shorthand.
 */
export function nonRegistrySource(spec: string): string | undefined {
  const value = spec.trim();
  const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (protocol === "npm" || protocol === "jsr") {
    // An alias, `npm:name@range` (`jsr:@scope/name@range`), or a range alone.
    const alias = value.slice(protocol.length + 1);
    const at = alias.indexOf("@", alias.startsWith("@") ? 1 : 0);
    return at === -1 ? undefined : nonRegistrySource(alias.slice(at + 1));
  }
  if (protocol === "workspace" || protocol === "catalog") {
    const rest = value.slice(protocol.length + 1);
    return /[/\\:]|^[.~]\//.test(rest) ? "a local path" : undefined;
  }
  if (protocol !== undefined) {
    if (protocol.startsWith("git") || ["github", "gitlab", "bitbucket", "gist"].includes(protocol)) {
      return "a git repository";
    }
    if (protocol === "http" || protocol === "https") return "a URL";
    if (["file", "link", "portal"].includes(protocol)) return "a local path";
    return `a "${protocol}:" source`;
  }
  if (/^(?:\.|\/|~\/)|\\/.test(value)) return "a local path";
  if (value.includes("/")) return "a git repository";
  // npm and pnpm read `pad.tgz` (`.tar.gz`, `.tar`) as the tarball of that name beside package.json.
  if (/\.(?:tgz|tar\.gz|tar)$/i.test(value)) return "a local path";
  return undefined;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text.replace(/^\ufeff/, ""));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Every version spec of a package.json, by a key naming where it is (`dependencies > name`). */
function dependencySpecs(document: Json | undefined): Map<string, string> {
  const specs = new Map<string, string>();
  if (document === undefined) return specs;
  const addMap = (where: string, map: unknown, nested: boolean) => {
    if (!isObject(map)) return;
    for (const [name, value] of Object.entries(map)) {
      const key = name === "." ? where : `${where} > ${name}`;
      if (typeof value === "string") specs.set(key, value);
      else if (nested) addMap(key, value, true);
    }
  };
  for (const field of DEPENDENCY_FIELDS) addMap(field, document[field], false);
  for (const field of OVERRIDE_FIELDS) addMap(field, document[field], true);
  if (isObject(document.pnpm)) addMap("pnpm > overrides", document.pnpm.overrides, true);
  return specs;
}

function capped(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more such changes`];
}

/**
 * The dependencies the change from `oldJson` (undefined: the file is new) to `newJson` adds or
 * points at a source other than the registry; one left as it was, or removed, is fine. An invalid
 * document is changedLifecycleScripts' to say.
 */
export function changedDependencySources(oldJson: string | undefined, newJson: string): string[] {
  const after = parseObject(newJson);
  if (after === undefined) return [];
  const before = dependencySpecs(parseObject(oldJson));
  const problems: string[] = [];
  for (const [key, spec] of dependencySpecs(after)) {
    const old = before.get(key);
    if (old === spec) continue;
    const source = nonRegistrySource(spec);
    if (source === undefined) continue;
    const [field, ...names] = key.split(" > ");
    const what = `the dependency ${quoteForDisplay(names.join(" > "))} in "${field}"`;
    problems.push(
      `${old === undefined ? "adds" : "changes"} ${what} to ${quoteForDisplay(spec)} (${source}: the next install fetches it and runs its install scripts)`,
    );
  }
  return capped(problems);
}

/** The lockfiles whose entries say where each package is fetched from, by their file name. */
type LockKind = "npm" | "yarn" | "pnpm" | "bun";

export function lockfileKind(path: string): LockKind | undefined {
  const name = foldedName(path);
  if (name === "package-lock.json" || name === "npm-shrinkwrap.json") return "npm";
  // A committed node_modules' own lockfiles, npm's hidden one and pnpm's virtual store's: the next
  // install reads what is installed, and where from, in them.
  const folded = foldPath(path);
  if (/(?:^|\/)node_modules\/\.package-lock\.json$/.test(folded)) return "npm";
  if (/(?:^|\/)node_modules\/\.pnpm\/lock\.yaml$/.test(folded)) return "pnpm";
  if (name === "yarn.lock") return "yarn";
  if (name === "pnpm-lock.yaml") return "pnpm";
  if (name === "bun.lock") return "bun";
  return undefined;
}

/**
 * `text` as JSON: the comments and trailing commas of JSONC (Bun's `bun.lock`) removed, outside
 * strings; a string keeps its bytes.
 */
function stripJsonc(text: string): string {
  let out = "";
  let pendingComma = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (pendingComma) out += ",";
      pendingComma = false;
      out += text.slice(index, end + 1);
      index = end;
    } else if (char === "/" && text[index + 1] === "/") {
      const end = text.indexOf("\n", index);
      index = end === -1 ? text.length : end - 1;
    } else if (char === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (char === ",") {
      if (pendingComma) out += ",";
      pendingComma = true;
    } else if (/\s/.test(char)) {
      out += char;
    } else {
      // A comma before a closing bracket is a trailing one: dropped.
      if (pendingComma && char !== "}" && char !== "]") out += ",";
      pendingComma = false;
      out += char;
    }
  }
  return pendingComma ? `${out},` : out;
}

/**
 * Bun's text lockfile, as JSON that means one thing (no duplicate key, which one reader keeps and
 * another drops), or why it cannot be read.
 */
export function parseBunLock(text: string): Json | string {
  try {
    const value = parseStrictJson(Buffer.from(stripJsonc(text.replace(/^\ufeff/, "")), "utf8"));
    return isObject(value) ? value : "not an object";
  } catch (error) {
    return (error as Error).message;
  }
}

/** The source of a `bun.lock` package entry that is not Bun's array: refused as off the registry. */
const NOT_A_BUN_ENTRY = "(not a package entry)";

/**
 * Each package of a `bun.lock` and where it comes from: its id, `name@<resolution>`, or for a
 * registry package from a registry other than the default one, that registry's URL (the entry's
 * second item; Bun writes "" for the default).
 */
function bunSources(document: Json): Map<string, string> {
  const sources = new Map<string, string>();
  if (!isObject(document.packages)) return sources;
  for (const [key, entry] of Object.entries(document.packages)) {
    const items: unknown[] = Array.isArray(entry) ? entry : [];
    const [id, registry] = items;
    if (typeof id !== "string") {
      // Not an entry Bun writes: no source this check can vouch for.
      sources.set(key, NOT_A_BUN_ENTRY);
      continue;
    }
    const isRegistryEntry = bunResolutionKind(id) === "registry";
    sources.set(key, isRegistryEntry && typeof registry === "string" && registry !== "" ? registry : id);
  }
  return sources;
}

/** What a `bun.lock` id's resolution is: a registry version, a folder of the tree, or elsewhere. */
function bunResolutionKind(id: string): "registry" | "tree" | "elsewhere" {
  const at = id.indexOf("@", id.startsWith("@") ? 1 : 0);
  if (at === -1) return "elsewhere";
  const resolution = id.slice(at + 1);
  if (resolution === "root:") return "tree";
  if (resolution.startsWith("workspace:")) {
    const path = resolution.slice("workspace:".length);
    return isTreePath(path) && !path.startsWith("~") ? "tree" : "elsewhere";
  }
  if (resolution === "" || /^[a-z][a-z0-9+.-]*:/i.test(resolution)) return "elsewhere";
  return nonRegistrySource(resolution) === undefined ? "registry" : "elsewhere";
}

/** A relative path that stays in the tree: no `..` component anywhere, no backslash or colon. */
function isTreePath(path: string): boolean {
  return !/^\/|\\|:/.test(path) && !path.split("/").includes("..");
}

/** A version 1 lockfile's `file:` link to a folder of the tree (a workspace): no tarball, no way out. */
function isLegacyTreeLink(spec: string): boolean {
  const path = /^file:(.*)$/i.exec(spec)?.[1];
  return path !== undefined && isTreePath(path) && !/\.(?:tgz|tar\.gz|tar)$/i.test(path);
}

/** Each place a lockfile fetches from, by a key naming the entry (a value alone where it has none). */
function lockSources(kind: LockKind, text: string | undefined): Map<string, string> {
  const sources = new Map<string, string>();
  if (text === undefined) return sources;
  if (kind === "bun") {
    const document = parseBunLock(text);
    return typeof document === "string" ? sources : bunSources(document);
  }
  if (kind === "npm") {
    const document = parseObject(text);
    if (document === undefined) return sources;
    const add = (key: string, entry: unknown) => {
      if (isObject(entry) && typeof entry.resolved === "string") {
        // A workspace's link names its folder in the tree: code the proposal shows, not fetched.
        const inTree = entry.link === true && isTreePath(entry.resolved);
        if (!inTree) sources.set(key, entry.resolved);
      }
    };
    if (isObject(document.packages)) {
      for (const [key, entry] of Object.entries(document.packages)) add(key, entry);
    }
    // Lockfile version 1: `dependencies`, nested as node_modules are. npm reads an entry's source
    // from its `version` too (a git URL, a `file:` folder or tarball in place of a version), and from
    // its `from` (the spec it was installed by): each is a source of its own, as `resolved` is.
    const addLegacy = (key: string, name: string, entry: unknown) => {
      add(key, entry);
      if (!isObject(entry)) return;
      for (const field of ["version", "from"] as const) {
        const value = entry[field];
        if (typeof value !== "string") continue;
        const spec = value.startsWith(`${name}@`) ? value.slice(name.length + 1) : value;
        if (isLegacyTreeLink(spec) || nonRegistrySource(spec) === undefined) continue;
        sources.set(`${key} (${field})`, value);
      }
    };
    const walk = (prefix: string, dependencies: unknown) => {
      if (!isObject(dependencies)) return;
      for (const [name, entry] of Object.entries(dependencies)) {
        addLegacy(`${prefix}${name}`, name, entry);
        if (isObject(entry)) walk(`${prefix}${name} > `, entry.dependencies);
      }
    };
    walk("dependencies > ", document.dependencies);
    return sources;
  }
  // Only the one-line forms the package managers write are read as sources. Any other line that
  // names a resolution (a block or quoted key, an anchor, a flow mapping over lines) or holds an
  // escape that could spell one is a source this cannot read: kept as the line reads (UNREAD). So
  // is a written one the next lines continue: YAML reads a scalar on to the lines indented deeper
  // (`resolution: pad@npm:1.0.0` then `    ::__archiveUrl=...` is one value), and no lockfile
  // written by its package manager indents the line after a resolution deeper than it.
  // Neither holds a backslash: Yarn v1 reads its quoted values as JSON and YAML its double-quoted
  // ones with escapes, so `"https://registry.yarnpkg.com\u0040e.invalid/..."` is read here as a
  // registry's path and there as a URL whose host is e.invalid.
  const written =
    kind === "yarn"
      ? // v1 `resolved "https://..."`, berry `resolution: "name@npm:1.0.0"`.
        /^\s+(?:resolved\s+|resolution:\s*)"?([^"\\\n]*?)"?\s*$/
      : // pnpm's `resolution: {integrity: ...}`, or `{tarball: ...}`, `{type: git, repo: ...}`, `{directory: ...}`.
        /^\s+resolution:\s*(\{[^\n\\]*\})\s*$/;
  // A key stands between the separators of YAML and of Yarn v1 (a space, a quote, a flow bracket,
  // a comma, the colon after it): `default-resolution@^2.0.0:` and `@pnpm/tarball-fetcher` are
  // packages' names, not the key.
  const naming =
    kind === "yarn"
      ? /(?:^|[\s"'{[,])(?:resolved|resolution)(?=$|[\s"':,}\]])|\\/
      : /(?:^|[\s"'{[,])(?:resolution|tarball)(?=$|[\s"':,}\]])|\\/;
  const lines = lockLines(text);
  for (const [index, line] of lines.entries()) {
    const source = written.exec(line)?.[1];
    if (source !== undefined && !continuesOnto(lines, index)) sources.set(source, source);
    else if (source !== undefined || naming.test(line)) sources.set(line.trim(), UNREAD);
  }
  if (kind === "pnpm") {
    // An importer's `link:` or `file:` to a folder outside the tree, or a specifier naming such a
    // folder, a git repository or a URL: code no proposal shows, linked or fetched in as is.
    const importers = readPnpmImporters(text);
    for (const line of importers.unread) sources.set(line, UNREAD);
    for (const dependency of importers.dependencies) {
      if (!pnpmVersionInTree(dependency)) sources.set(dependency.key, dependency.version);
      const specifier = dependency.specifier;
      if (specifier !== undefined && !pnpmSpecifierInTree(dependency.importer, specifier)) {
        sources.set(`${dependency.key} (specifier)`, specifier);
      }
    }
    // A package's own `link:` or `file:` dependency to a folder outside the tree, which the install
    // links in from the lockfile's folder as an importer's.
    const links = readPnpmPackageLinks(text, naming);
    for (const line of links.unread) sources.set(line, UNREAD);
    for (const link of links.links) {
      const path = /^(?:link|file):(.*)$/i.exec(link.version)?.[1] ?? "";
      if (path.startsWith("~") || !isTreePath(joinPath("", path))) sources.set(link.key, link.version);
    }
  }
  return sources;
}

/**
 * A `pnpm-lock.yaml` line as pnpm writes a key: its indentation, the key (plain or quoted; YAML reads
 * `importers :` as `importers:`, so spaces before the colon are not the key's) and the value on the
 * line, if any. The lockfile readers below read only lines of this form where a dependency can be.
 */
const PNPM_KEY_LINE = /^( *)('[^']*'|"[^"]*"|[^\s'"#][^:]*?)[ \t]*:(?:[ \t]+(.*?))?\s*$/;

/**
 * An entry of `packages:` or `snapshots:` as pnpm writes it: two spaces in, its key (a `file:`
 * package's may hold a colon, `pad@file:packages/pad:`), and pnpm's `{}` at most for a value.
 */
const PNPM_ENTRY_LINE = /^ {2}('[^']*'|"[^"]*"|[^\s'"#].*?)[ \t]*:(?:\s*\{\})?\s*$/;

/** The maps of a pnpm package's dependencies that it links in with it (not its peers: its parent's). */
const PNPM_LINKED_GROUPS = new Set(["dependencies", "optionalDependencies"]);

/**
 * The `link:` and `file:` dependencies of a `pnpm-lock.yaml`'s packages, in `snapshots:` (version 9)
 * or `packages:` (before it): pnpm links each in where the package's own node_modules are, from the
 * lockfile's folder, a `link:` always and a `file:` no entry resolves. Read only in the form pnpm
 * writes (`  <entry>:` or `  <entry>: {}`, `    dependencies:`, `      <name>: <version>`); any
 * other line there (a flow mapping, an anchor, alias or merge, another indentation, a scalar over
 * lines) that could make or name a dependency is `unread`, but for the lines `naming` matches,
 * whose resolutions are read on their own.
 */
function readPnpmPackageLinks(
  text: string,
  naming: RegExp,
): { links: { key: string; version: string }[]; unread: string[] } {
  const links: { key: string; version: string }[] = [];
  const unread: string[] = [];
  let section: string | undefined;
  let entry: string | undefined;
  /** The indentation of the entry's fields, from its first line: pnpm writes four spaces. */
  let fieldDepth: number | undefined;
  let group: string | undefined;
  for (const line of lockLines(text)) {
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const fields = PNPM_KEY_LINE.exec(line);
    const depth = /^ */.exec(line)?.[0].length ?? 0;
    const key = fields === null ? undefined : pnpmScalar(fields[2] ?? "");
    const rawValue = fields?.[3];
    const value = rawValue === undefined ? undefined : pnpmScalar(rawValue);
    const flagged = () => {
      if (!naming.test(line)) unread.push(line.trim());
    };
    if (depth === 0) {
      section = key === "packages" || key === "snapshots" ? key : undefined;
      entry = undefined;
      if (section !== undefined && rawValue !== undefined && rawValue !== "{}") flagged();
      continue;
    }
    if (section === undefined) continue;
    if (depth === 2) {
      fieldDepth = undefined;
      group = undefined;
      // Its key may be a `file:` package's (`pad@file:packages/pad:`); its value, pnpm's `{}` at most.
      const written = PNPM_ENTRY_LINE.exec(line)?.[1];
      entry = written === undefined ? undefined : unquoteYaml(written);
      if (written === undefined) flagged();
      continue;
    }
    fieldDepth ??= depth;
    if (entry === undefined || fieldDepth !== 4) {
      flagged();
    } else if (depth === 4) {
      // An entry's field: a dependency map as pnpm writes it, or a field whose value links nothing.
      group = key !== undefined && rawValue === undefined ? key : undefined;
      if (key === undefined || (PNPM_LINKED_GROUPS.has(key) && rawValue !== undefined && rawValue !== "{}")) {
        flagged();
      }
    } else if (group !== undefined && PNPM_LINKED_GROUPS.has(group)) {
      if (depth !== 6 || key === undefined || value === undefined) flagged();
      else if (/^(?:link|file):/i.test(value))
        links.push({ key: `${section} > ${entry} > ${key}`, version: value });
    } else if (depth % 2 !== 0 || /(?:link|file):(?!\s|$)|(?:^|\s)[*&!]|<</i.test(line)) {
      flagged();
    }
  }
  return { links, unread };
}

/** Whether `path`, relative to the folder `base` of the tree, stays in the tree: no `~`, no tarball. */
function isTreeFolder(base: string, path: string): boolean {
  return !path.startsWith("~") && !/\.(?:tgz|tar\.gz|tar)$/i.test(path) && isTreePath(joinPath(base, path));
}

/**
 * Whether an importer's `version:` keeps to the registry or the tree: a `link:` to a folder inside
 * it from the importer's folder, a `file:` folder inside it from the lockfile's folder (as pnpm
 * writes it) and from the importer's (as a reader may take it), or no local path at all (a version,
 * an alias, a package key: the `packages` entry it names is checked on its own).
 */
function pnpmVersionInTree(dependency: PnpmDependency): boolean {
  const local = /^(link|file):(.*)$/i.exec(dependency.version);
  if (!local) return true;
  const [, protocol = "", path = ""] = local;
  if (protocol.toLowerCase() === "link") return isTreeFolder(dependency.importer, path);
  return isTreeFolder("", path) && isTreeFolder(dependency.importer, path);
}

/**
 * Whether an importer's `specifier:` (its package.json's spec, which the next install resolves
 * again where the lockfile no longer satisfies it) names the registry or a folder of the tree from
 * the importer's folder: a version, a range, a tag, an alias, a `workspace:` or `catalog:`
 * reference, or a `link:`, `file:`, `workspace:` or bare path that stays in the tree.
 */
function pnpmSpecifierInTree(importer: string, specifier: string): boolean {
  const source = nonRegistrySource(specifier);
  if (source === undefined) return true;
  if (source !== "a local path") return false;
  const value = specifier.trim();
  const path =
    /^(?:link|file|workspace):(.*)$/i.exec(value)?.[1] ??
    (/^[a-z][a-z0-9+.-]*:/i.test(value) ? undefined : value);
  return path !== undefined && isTreeFolder(importer, path);
}

/**
 * A lockfile's lines, broken where YAML and Yarn v1's own parser break them: at a carriage return
 * alone too, which a reader of `\n` lines would take for part of a line (`\rpad@^1.0.0:` starts an
 * entry for Yarn, and nothing here).
 */
function lockLines(text: string): string[] {
  return text.split(/\r\n?|\n/);
}

/** Whether a YAML scalar on `lines[index]` may go on: the next line not blank is indented deeper. */
function continuesOnto(lines: readonly string[], index: number): boolean {
  const indent = (line: string) => /^[ \t]*/.exec(line)?.[0].length ?? 0;
  for (let next = index + 1; next < lines.length; next++) {
    const line = lines[next] as string;
    if (line.trim() !== "") return indent(line) > indent(lines[index] as string);
  }
  return false;
}

/** `path` relative to the folder `base` of the tree, `..` components resolved as far as they go. */
function joinPath(base: string, path: string): string {
  const parts: string[] = [];
  for (const part of `${base}/${path}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts.at(-1) !== "..") parts.pop();
    else parts.push(part);
  }
  return path.startsWith("/") ? `/${parts.join("/")}` : parts.join("/");
}

/** A dependency of a `pnpm-lock.yaml` importer: its key, importer folder, name, specifier and version. */
interface PnpmDependency {
  key: string;
  importer: string;
  name: string;
  specifier: string | undefined;
  version: string;
}

const PNPM_DEPENDENCY_GROUPS = new Set([
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "specifiers",
  // pnpm 10's first document: pnpm itself and the config dependencies (whose pnpmfiles it runs).
  "packageManagerDependencies",
  "configDependencies",
]);

/** A YAML scalar as pnpm writes it: plain, or in single or double quotes. */
function unquoteYaml(value: string): string {
  const text = value.trim();
  return /^(['"]).*\1$/.test(text) ? text.slice(1, -1) : text;
}

/**
 * A YAML scalar in a form pnpm writes (plain, or in single or double quotes without an escape), as
 * YAML reads it; undefined for any other form (a flow mapping or sequence, an anchor, an alias, a
 * tag, a block scalar, a comment after it), which may read as anything.
 */
function pnpmScalar(raw: string): string | undefined {
  if (/^'(?:[^']|'')*'$/.test(raw)) return raw.slice(1, -1).replaceAll("''", "'");
  if (/^"[^"\\]*"$/.test(raw)) return raw.slice(1, -1);
  if (/^[-?:](?:\s|$)|^[#'"{}[\],&*!|>%@`]|\s#|:(?:\s|$)|^<<$/.test(raw)) return undefined;
  return raw;
}

/**
 * The dependencies of each importer of a `pnpm-lock.yaml`, from the lines pnpm writes: under
 * `importers:` (`  <folder>:`, `    dependencies:`, `      <name>:`, `        specifier: ...`,
 * `        version: ...`), or at the top for a lockfile of one project, where version 5 writes
 * `<name>: <version>` on one line and the specifiers in a `specifiers:` map of their own. A line
 * there in any other form (another indentation, a flow mapping, an anchor or alias, a field written
 * twice, a scalar over lines) is `unread`: YAML may read it as a dependency this does not see.
 */
function readPnpmImporters(text: string): { dependencies: PnpmDependency[]; unread: string[] } {
  const found = new Map<string, PnpmDependency>();
  const unread: string[] = [];
  let importer: string | undefined;
  let base = 0;
  let group: string | undefined;
  let name: string | undefined;
  const entry = (dependency: string, field: "specifier" | "version") => {
    let key = `importers > ${importer} > ${dependency}`;
    const first = found.get(key);
    // The same name in another group of the importer (or another document's importer of that
    // folder) is read on its own: neither may hide the other's source.
    if (
      first !== undefined &&
      (field === "specifier" ? first.specifier !== undefined : first.version !== "")
    ) {
      key = `${key} (${group})`;
    }
    let value = found.get(key);
    if (value === undefined) {
      value = {
        key,
        importer: importer === "." ? "" : (importer ?? ""),
        name: dependency,
        specifier: undefined,
        version: "",
      };
      found.set(key, value);
    }
    return value;
  };
  // A field written twice for one dependency is read as neither can be vouched for.
  const seen = new Set<string>();
  const set = (line: string, dependency: string, field: "specifier" | "version", value: string) => {
    const id = `${importer}\0${group}\0${dependency}\0${field}`;
    if (seen.has(id)) unread.push(line.trim());
    seen.add(id);
    entry(dependency, field)[field] = value;
  };
  for (const line of lockLines(text)) {
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const fields = PNPM_KEY_LINE.exec(line);
    const depth = fields?.[1]?.length ?? 0;
    const key = fields === null ? undefined : pnpmScalar(fields[2] ?? "");
    // An empty map, `{}`, is as pnpm writes an importer with no dependencies.
    const rawValue = fields?.[3] === "" || fields?.[3] === "{}" ? undefined : fields?.[3];
    const value = rawValue === undefined ? undefined : pnpmScalar(rawValue);
    if (fields !== null && depth === 0) {
      importer = key !== undefined && PNPM_DEPENDENCY_GROUPS.has(key) ? "." : undefined;
      base = 0;
      group = importer === undefined ? undefined : key;
      name = undefined;
      if (key === "importers") importer = "";
      if (importer !== undefined && rawValue !== undefined) unread.push(line.trim());
      continue;
    }
    if (importer === undefined) continue;
    // In an importer's lines only the forms pnpm writes are read; any other is unread.
    const folder = importer === "" || (base === 4 && depth === 2);
    const expected = folder ? depth === 2 : depth >= base && depth <= base + 4 && depth % 2 === 0;
    if (
      key === undefined ||
      (rawValue !== undefined && value === undefined) ||
      !expected ||
      (depth === base + 4 && name === undefined)
    ) {
      unread.push(line.trim());
      continue;
    }
    if (folder) {
      // Under `importers:`: a folder at two spaces.
      importer = key;
      base = 4;
      group = undefined;
      name = undefined;
    } else if (depth === base) {
      group = PNPM_DEPENDENCY_GROUPS.has(key) ? key : undefined;
      name = undefined;
    } else if (depth === base + 2) {
      // A dependency: its version (or version 5's specifier) on its line, or its fields below it.
      name = group === undefined || value === undefined ? key : undefined;
      if (group !== undefined && value !== undefined) {
        set(line, key, group === "specifiers" ? "specifier" : "version", value);
      }
    } else if (group !== undefined && name !== undefined) {
      const field = key === "specifier" || key === "version" ? key : undefined;
      if (group === "specifiers" || (field !== undefined && value === undefined)) unread.push(line.trim());
      else if (field !== undefined && value !== undefined) set(line, name, field, value);
    }
  }
  const dependencies = [...found.values()].filter((dependency) => dependency.version !== "");
  return { dependencies, unread };
}

/**
 * The package a pnpm package key or dependency version names (`pad@1.0.0`, `/pad@1.0.0`,
 * `/@s/pad@1.0.0(peer@1.0.0)`, version 5's `/pad/1.0.0_peer@1.0.0`), as name and version, or
 * undefined for one that is no registry version (`link:`, a URL, a git host's path).
 */
function pnpmPackage(key: string): { name: string; version: string } | undefined {
  const id = key.replace(/^\//, "").replace(/\(.*$/, "");
  const parts =
    /^(@[^/@]+\/[^/@]+|[^/@]+)@(\d[^/@:]*)$/.exec(id) ??
    /^(@[^/@]+\/[^/@]+|[^/@]+)\/(\d[^/@:_]*)(?:_.*)?$/.exec(id);
  return parts ? { name: parts[1] as string, version: parts[2] as string } : undefined;
}

/** The source of a lockfile line that names a resolution in a form other than the one written. */
const UNREAD = "\0unread";

/** The origin of an https URL without credentials in it, or undefined. */
function plainOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url.replace(/#.*$/, ""));
    if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * The registry of a registry tarball's URL, `<registry>/<name>/-/<file>`: its origin and the path
 * before the package's name (`https://gitlab.com/api/v4/projects/7/packages/npm`), or undefined. A
 * registry is trusted by that prefix, not by its host: on a forge, `/-/` is in every project's
 * archive URL (`https://gitlab.com/<group>/<project>/-/archive/...`), and another group's is anyone's.
 */
function registryOrigin(url: string): string | undefined {
  const origin = plainOrigin(url);
  if (origin === undefined) return undefined;
  const path = new URL(url.replace(/#.*$/, "")).pathname;
  // The file after `/-/` is the package's tarball (`pad-1.0.0.tgz`, `@scope/pad-1.0.0.tgz`), never a
  // folder of something else (a forge's `/-/archive/<ref>/<file>`).
  const tarball = /^(.*?)\/(?:@[^/]+?(?:\/|%2[fF]))?[^/@]+\/-\/(?:@[^/]+\/)?[^/]+\.tgz$/.exec(path);
  return tarball ? `${origin}${tarball[1]}` : undefined;
}

/**
 * The package a registry tarball's URL names, `<registry>/<name>/-/<base>-<version>.tgz` (a scoped
 * name as `@scope/name` or `@scope%2fname`, its file `name-1.0.0.tgz` or `@scope/name-1.0.0.tgz`),
 * as `name@version`; undefined for a URL that is no registry tarball (registryOrigin's to judge).
 */
function tarballPackage(url: string): string | undefined {
  if (registryOrigin(url) === undefined) return undefined;
  const path = new URL(url.replace(/#.*$/, "")).pathname;
  const parts = /(?:(@[^/]+?)(?:\/|%2[fF]))?([^/@]+)\/-\/(?:(@[^/]+)\/)?([^/]+)\.tgz$/.exec(path);
  if (!parts) return undefined;
  const [, scope, base = "", fileScope, file = ""] = parts;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const name = decode(scope === undefined ? base : `${scope}/${base}`);
  // A file of another name, or of another scope, names a package other than the URL's: kept whole.
  const fileBase = decode(file);
  const sameScope = fileScope === undefined || decode(fileScope) === scope;
  if (!sameScope || !fileBase.startsWith(`${decode(base)}-`)) return `${name}@(${fileBase}.tgz)`;
  return `${name}@${fileBase.slice(decode(base).length + 1)}`;
}

/**
 * Whether the registry tarball `url` is the package `name` (at `version`, where the entry says it):
 * an entry whose tarball is another package's installs that package's code under the entry's name.
 */
function tarballIsPackage(url: string, name: string, version: string | undefined): boolean {
  const named = tarballPackage(url);
  if (named === undefined) return true;
  return version === undefined
    ? named.startsWith(`${name}@`) && !named.endsWith(".tgz)")
    : named === `${name}@${version}`;
}

/** The name of the package at an npm lockfile's `node_modules/` path: its last `node_modules/` segment. */
function installedName(path: string): string | undefined {
  const at = path.lastIndexOf("node_modules/");
  return at === -1 ? undefined : path.slice(at + "node_modules/".length);
}

/**
 * Each lockfile entry whose registry tarball (or name and version) names a package other than the
 * entry's own, by a key naming the entry, with what it resolves to.
 */
function swappedPackages(kind: LockKind, text: string | undefined): Map<string, Swap> {
  const swaps = new Map<string, Swap>();
  if (text === undefined) return swaps;
  if (kind === "npm") {
    const document = parseObject(text);
    if (document === undefined) return swaps;
    const check = (key: string, name: string | undefined, version: unknown, resolved: unknown) => {
      if (name === undefined || typeof resolved !== "string") return;
      // A version that is a source of its own (a git URL, a `file:` path) is lockSources' to refuse.
      const pinned = typeof version === "string" && !/[:/]/.test(version) ? version : undefined;
      if (!tarballIsPackage(resolved, name, pinned)) {
        swaps.set(key, { entry: pinned === undefined ? name : `${name}@${pinned}`, source: resolved });
      }
    };
    if (isObject(document.packages)) {
      const aliases = declaredAliases(Object.values(document.packages));
      for (const [key, entry] of Object.entries(document.packages)) {
        if (!isObject(entry)) continue;
        // npm writes an alias's package name (`"foo": "npm:bar@1"` installs bar as foo) in `name`:
        // an alias only where a dependency of the lockfile (the root's, as package.json) declares it.
        const installed = installedName(key);
        const name = typeof entry.name === "string" ? entry.name : installed;
        if (installed !== undefined && name !== installed && !aliases.has(`${installed}\0${name}`)) {
          const version = typeof entry.version === "string" ? `@${entry.version}` : "";
          swaps.set(key, { entry: installed, source: `${name}${version}` });
          continue;
        }
        check(key, name, entry.version, entry.resolved);
      }
    }
    const walk = (prefix: string, dependencies: unknown) => {
      if (!isObject(dependencies)) return;
      for (const [name, entry] of Object.entries(dependencies)) {
        if (!isObject(entry)) continue;
        // Version 1 writes an alias's package in its version: `npm:bar@1.0.0`.
        const alias = typeof entry.version === "string" ? /^npm:(@?[^@]+)@(.+)$/.exec(entry.version) : null;
        check(`${prefix}${name}`, alias?.[1] ?? name, alias?.[2] ?? entry.version, entry.resolved);
        walk(`${prefix}${name} > `, entry.dependencies);
      }
    };
    walk("dependencies > ", document.dependencies);
  }
  if (kind === "yarn") {
    for (const block of yarnBlocks(text)) {
      const targets = block.descriptors.map(descriptorTarget);
      const versions = block.fields.get("version") ?? [];
      // v1: `resolved "<registry>/<name>/-/<base>-<version>.tgz#<sha1>"`, each descriptor's name.
      for (const resolved of block.fields.get("resolved") ?? []) {
        for (const name of targets) {
          for (const version of versions.length === 0 ? [undefined] : versions) {
            if (!tarballIsPackage(resolved, name, version)) {
              swaps.set(block.key, {
                entry: version === undefined ? name : `${name}@${version}`,
                source: resolved,
              });
            }
          }
        }
      }
      // Berry: `resolution: "<name>@npm:<version>"` (or a patch of one) is what it fetches, for
      // every descriptor of the key, whose name (an alias's target) must be that package's.
      for (const resolution of block.fields.get("resolution") ?? []) {
        const protocol = /^@?[^@]+@([a-z]+):/i.exec(resolution)?.[1];
        if (protocol !== "npm" && protocol !== "patch") continue;
        const resolved = descriptorTarget(resolution);
        const npmVersion =
          protocol === "npm" ? resolution.slice(resolution.indexOf("@npm:") + 5).split("::")[0] : undefined;
        const other =
          targets.find((name) => name !== resolved) ??
          (npmVersion === undefined ? undefined : versions.find((version) => version !== npmVersion));
        if (other !== undefined) {
          const entry = targets.includes(other) ? other : `${resolved}@${other}`;
          swaps.set(block.key, { entry, source: resolution });
        }
      }
    }
  }
  if (kind === "pnpm") {
    for (const entry of pnpmPackageEntries(text)) {
      const keyed = pnpmPackage(entry.key);
      const name = entry.fields.get("name") ?? keyed?.name;
      const version = entry.fields.get("version") ?? keyed?.version;
      const tarball = /\btarball: '?([^\s,'"{}]+)/.exec(entry.fields.get("resolution") ?? "")?.[1];
      const named = name === undefined ? undefined : version === undefined ? name : `${name}@${version}`;
      if (keyed !== undefined && named !== undefined && named !== `${keyed.name}@${keyed.version}`) {
        swaps.set(entry.key, { entry: `${keyed.name}@${keyed.version}`, source: named });
      } else if (tarball !== undefined && name !== undefined && !tarballIsPackage(tarball, name, version)) {
        swaps.set(entry.key, { entry: named ?? name, source: tarball });
      }
    }
    // An importer's dependency resolved to another package than its name is an alias only where
    // its specifier says so (`npm:<package>@<range>`).
    for (const dependency of readPnpmImporters(text).dependencies) {
      const resolved = /^\d/.test(dependency.version) ? undefined : pnpmPackage(dependency.version);
      if (resolved === undefined || resolved.name === dependency.name) continue;
      if (dependency.specifier?.startsWith(`npm:${resolved.name}@`)) continue;
      const asked =
        dependency.specifier === undefined ? dependency.name : `${dependency.name}@${dependency.specifier}`;
      swaps.set(dependency.key, { entry: asked, source: dependency.version });
    }
  }
  if (kind === "bun") {
    const document = parseBunLock(text);
    if (typeof document !== "string") bunSwaps(document, swaps);
  }
  return swaps;
}

/**
 * The npm aliases the dependency maps (and `overrides`) of `holders` declare, as `<name>\0<package>`
 * for `"<name>": "npm:<package>@<range>"`.
 */
function declaredAliases(holders: readonly unknown[]): Set<string> {
  const aliases = new Set<string>();
  for (const holder of holders) {
    if (!isObject(holder)) continue;
    for (const field of [...DEPENDENCY_FIELDS, "overrides"]) {
      const map = holder[field];
      if (!isObject(map)) continue;
      for (const [name, spec] of Object.entries(map)) {
        const target = typeof spec === "string" ? /^npm:(@?[^@]+)@/.exec(spec)?.[1] : undefined;
        if (target !== undefined) aliases.add(`${name}\0${target}`);
      }
    }
  }
  return aliases;
}

/**
 * The `bun.lock` entries whose package (`name@version`, the first item) is not the one installed
 * at the key's folder (its last name) unless some dependency declares that alias
 * (`"string-width-cjs": "npm:string-width@^4.2.0"`), or whose registry tarball (the second item,
 * for a registry other than the default) is another package's.
 */
function bunSwaps(document: Json, swaps: Map<string, Swap>): void {
  if (!isObject(document.packages)) return;
  const aliases = declaredAliases([
    document,
    ...(isObject(document.workspaces) ? Object.values(document.workspaces) : []),
    ...Object.values(document.packages).map((entry) => (Array.isArray(entry) ? entry[2] : undefined)),
  ]);
  for (const [key, entry] of Object.entries(document.packages)) {
    const [id, registry] = Array.isArray(entry) ? entry : [];
    if (typeof id !== "string" || bunResolutionKind(id) !== "registry") continue;
    const at = id.indexOf("@", id.startsWith("@") ? 1 : 0);
    const name = id.slice(0, at);
    const segments = key.split("/");
    const installed = segments.at(-2)?.startsWith("@")
      ? segments.slice(-2).join("/")
      : (segments.at(-1) ?? "");
    if (installed !== name && !aliases.has(`${installed}\0${name}`)) {
      swaps.set(key, { entry: installed, source: id });
    } else if (typeof registry === "string" && !tarballIsPackage(registry, name, id.slice(at + 1))) {
      swaps.set(key, { entry: id, source: registry });
    }
  }
}

/** The entries of a `pnpm-lock.yaml`'s `packages:` map: each key, and its one-line fields. */
function pnpmPackageEntries(text: string): { key: string; fields: Map<string, string> }[] {
  const entries: { key: string; fields: Map<string, string> }[] = [];
  let inPackages = false;
  let entry: { key: string; fields: Map<string, string> } | undefined;
  for (const line of lockLines(text)) {
    if (/^\S/.test(line)) {
      inPackages = /^(?:packages|'packages'|"packages")[ \t]*:\s*$/.test(line);
      entry = undefined;
      continue;
    }
    if (!inPackages) continue;
    const key = PNPM_ENTRY_LINE.exec(line)?.[1];
    if (key !== undefined) {
      entry = { key: unquoteYaml(key), fields: new Map() };
      entries.push(entry);
      continue;
    }
    const field = /^ {4}(name|version|resolution)[ \t]*:[ \t]*(.*?)\s*$/.exec(line);
    if (entry !== undefined && field) {
      const [, fieldName = "", value = ""] = field;
      // A field written twice is read as neither can be vouched for: the entry names no package.
      entry.fields.set(fieldName, entry.fields.has(fieldName) ? "\0twice" : unquoteYaml(value));
    }
  }
  return entries;
}

/**
 * A `yarn.lock` entry: its key line, its descriptors, the values of its fields, by name, and the
 * dependencies it installs with it, each with its spec.
 */
interface YarnBlock {
  key: string;
  descriptors: string[];
  fields: Map<string, string[]>;
  dependencies: { name: string; spec: string }[];
}

/**
 * The entries of a `yarn.lock`, v1 or Berry, read from the lines Yarn writes: a key line at the
 * margin (`pad@^1.0.0, "@s/b@^2":`, `"pad@npm:^1.0.0":`), then its fields two spaces in
 * (`version "1.0.0"`, `resolution: "pad@npm:1.0.0"`), every value of a field kept.
 */
function yarnBlocks(text: string): YarnBlock[] {
  const blocks: YarnBlock[] = [];
  let block: YarnBlock | undefined;
  /** The dependency map (`dependencies`, `optionalDependencies`) the lines four spaces in are of. */
  let map: string | undefined;
  for (const line of lockLines(text)) {
    const key = /^([^\s#].*):\s*$/.exec(line)?.[1];
    if (key !== undefined) {
      const descriptors = key
        .split(",")
        .map((part) => part.trim().replace(/^"|"$/g, ""))
        .filter((part) => part !== "");
      block = { key: descriptors.join(", "), descriptors, fields: new Map(), dependencies: [] };
      blocks.push(block);
      map = undefined;
      continue;
    }
    if (/^\S/.test(line)) block = undefined;
    if (block === undefined) continue;
    // v1 `    pad "^1.0.0"`, Berry `    pad: "npm:^1.0.0"`, under `  dependencies:`.
    const dependency = /^ {4}("[^"]*"|[^\s":]+):?\s+"?([^"]*?)"?\s*$/.exec(line);
    if (map !== undefined && dependency) {
      const [, name = "", spec = ""] = dependency;
      block.dependencies.push({ name: name.replace(/^"|"$/g, ""), spec });
      continue;
    }
    // The maps of what the entry installs with it; not `peerDependencies`, its parent's to install.
    const mapLine = /^ {2}(dependencies|optionalDependencies):\s*$/.exec(line)?.[1];
    if (/^ {0,3}\S/.test(line)) map = mapLine;
    const field = /^ {2}([A-Za-z]+):?\s+"?([^"]*?)"?\s*$/.exec(line);
    if (!field) continue;
    const [, name = "", value = ""] = field;
    block.fields.set(name, [...(block.fields.get(name) ?? []), value]);
  }
  return blocks;
}

/**
 * The package a Yarn descriptor or locator installs: its name, or an alias's target
 * (`a@npm:b@^1`: `b`), or the package a patch is of (`a@patch:a@npm%3A^1#...`: `a`).
 */
function descriptorTarget(descriptor: string): string {
  const at = descriptor.indexOf("@", descriptor.startsWith("@") ? 1 : 0);
  if (at === -1) return descriptor;
  const name = descriptor.slice(0, at);
  const range = descriptor.slice(at + 1);
  if (range.startsWith("npm:")) {
    const alias = range.slice(4);
    return alias.indexOf("@", alias.startsWith("@") ? 1 : 0) > 0 ? descriptorTarget(alias) : name;
  }
  if (range.startsWith("patch:")) {
    const patched = range.slice(6).replace(/#.*$/, "");
    try {
      return descriptorTarget(decodeURIComponent(patched));
    } catch {
      return patched;
    }
  }
  return name;
}

/** A dependency a lockfile entry lists: the entry, the dependency's name and its spec. */
interface LockedDependency {
  entry: string;
  name: string;
  spec: string;
}

/**
 * The dependencies each lockfile entry lists: the package manager installs them with the entry from
 * the lockfile's copy, not the registry's manifest, and resolves one the lockfile has no entry for
 * (`yarn install`, `npm install`) from its spec, wherever it says. Yarn's `dependencies` and
 * `optionalDependencies`; npm's `packages` entries' and version 1's `requires`; Bun's entries'
 * (their third item). pnpm's list resolved versions, whose entries are read on their own.
 */
function lockDependencies(kind: LockKind, text: string | undefined): LockedDependency[] {
  const found: LockedDependency[] = [];
  if (text === undefined) return found;
  const add = (entry: string, maps: unknown, fields: readonly string[]) => {
    if (!isObject(maps)) return;
    for (const field of fields) {
      const map = maps[field];
      if (!isObject(map)) continue;
      for (const [name, spec] of Object.entries(map)) {
        if (typeof spec === "string") found.push({ entry, name, spec });
      }
    }
  };
  const installed = ["dependencies", "optionalDependencies"];
  if (kind === "yarn") {
    for (const block of yarnBlocks(text)) {
      for (const { name, spec } of block.dependencies) found.push({ entry: block.key, name, spec });
    }
  } else if (kind === "npm") {
    const document = parseObject(text);
    if (document === undefined) return found;
    if (isObject(document.packages)) {
      for (const [key, entry] of Object.entries(document.packages)) add(key, entry, installed);
    }
    const walk = (prefix: string, dependencies: unknown) => {
      if (!isObject(dependencies)) return;
      for (const [name, entry] of Object.entries(dependencies)) {
        add(`${prefix}${name}`, entry, ["requires"]);
        if (isObject(entry)) walk(`${prefix}${name} > `, entry.dependencies);
      }
    };
    walk("dependencies > ", document.dependencies);
  } else if (kind === "bun") {
    // An entry's third item: `{ "dependencies": {...}, "optionalDependencies": {...} }`.
    const document = parseBunLock(text);
    if (typeof document === "string" || !isObject(document.packages)) return found;
    for (const [key, entry] of Object.entries(document.packages)) {
      add(key, Array.isArray(entry) ? entry[2] : undefined, installed);
    }
  }
  return found;
}

/** A lockfile entry resolved to another package: the entry's `name@version`, and what it resolves to. */
interface Swap {
  entry: string;
  source: string;
}

/**
 * The registry a `bun.lock` entry names: of a tarball's URL, as registryOrigin reads it (its path
 * before the package's name: on a shared host another path is anyone's); of any other URL, its origin.
 */
function bunRegistry(url: string): string | undefined {
  return registryOrigin(url) ?? plainOrigin(url);
}

/** pnpm's `{integrity: ...}`, with `tarball: <url>` (quoted or not) before or after it, and nothing else. */
const PNPM_REGISTRY_RESOLUTION =
  /^\{(?:tarball: '?([^\s,'"{}\\]+)'?, )?integrity: [A-Za-z0-9+/=-]+(?:, tarball: '?([^\s,'"{}\\]+)'?)?\}$/;

/** Yarn's built-in compatibility patch of a registry package, as Berry writes its resolution. */
const BUILTIN_PATCH =
  /^@?[^@]+@patch:@?[^@]+@npm%3A[^#%:]*#(?:optional!)?builtin<[^>]*>(?:::version=[^&\s"]+&hash=[0-9a-f]+)?$/;

/** Whether `source` (one value of lockSources) is fetched from one of `registries`. */
function fromRegistry(kind: LockKind, source: string, registries: ReadonlySet<string>): boolean {
  if (kind === "pnpm") {
    // Only the forms pnpm writes for a registry package: its integrity, and its tarball where the
    // registry's URL is not the default one. Any other (a git `repo`, a `directory`, a key quoted or
    // spaced so that a looser reading would miss it: `{"tarball": ...}`) is not vouched for.
    const fields = PNPM_REGISTRY_RESOLUTION.exec(source);
    if (!fields) return false;
    const tarball = fields[1] ?? fields[2];
    return tarball === undefined || registries.has(registryOrigin(tarball) ?? "");
  }
  if (kind === "bun" && !/^https?:/i.test(source)) return bunResolutionKind(source) !== "elsewhere";
  if (kind === "bun") return registries.has(bunRegistry(source) ?? "");
  if (kind === "yarn" && !/^https?:/i.test(source)) {
    // Berry: `name@npm:1.0.0`, `name@workspace:path`, and the built-in compatibility patches of npm
    // packages (`name@patch:name@npm%3A1.0.0#optional!builtin<compat/name>`, with the version and
    // hash Yarn 4 adds: `::version=1.0.0&hash=c3c19d`). An `npm:` reference with parameters is no
    // registry package: Berry fetches one with `::__archiveUrl=<url>` from that URL, so neither it
    // nor a patch of it (`npm%3A1.0.0%3A%3A__archiveUrl...`, encoded) passes.
    const protocol = /^@?[^@]+@([a-z]+):/i.exec(source)?.[1];
    if (protocol === "npm") return !source.includes("::");
    if (protocol === "workspace") return !/\.\.|^.*@workspace:\//.test(source);
    return protocol === "patch" && BUILTIN_PATCH.test(source);
  }
  return registries.has(registryOrigin(source) ?? "");
}

/**
 * The lockfile entries the change from `oldText` (undefined: the file is new) to `newText` adds or
 * changes to fetch from somewhere other than the public registries or one the lockfile already
 * fetched registry tarballs from (a private registry); entries left as they were are fine.
 */
export function changedLockfileSources(
  kind: LockKind,
  oldText: string | undefined,
  newText: string,
): string[] {
  const before = lockSources(kind, oldText);
  const registries = new Set(PUBLIC_REGISTRIES);
  for (const source of before.values()) {
    const tarball = kind === "pnpm" ? /\btarball:\s*['"]?([^,'"}\s]+)/.exec(source)?.[1] : source;
    // Bun names the registry an entry came from, not always its tarball.
    const origin =
      tarball === undefined ? undefined : kind === "bun" ? bunRegistry(tarball) : registryOrigin(tarball);
    if (origin !== undefined) registries.add(origin);
  }
  const problems: string[] = [];
  if (kind === "bun") {
    const read = parseBunLock(newText);
    if (typeof read === "string") return [`is not a bun.lock this check can read: ${read}`];
  }
  for (const [key, source] of lockSources(kind, newText)) {
    const old = before.get(key);
    if (old === source) continue;
    if (source === UNREAD) {
      problems.push(`adds the line ${quoteForDisplay(key)} (${UNREAD_LINE})`);
      continue;
    }
    if (fromRegistry(kind, source, registries)) continue;
    const entry = key === source ? "" : ` for ${quoteForDisplay(key)}`;
    problems.push(
      `${old === undefined ? "adds" : "changes"} the source ${quoteForDisplay(source)}${entry} (${RESOLVES_OFF_REGISTRY})`,
    );
  }
  // A dependency's spec the lockfile already had, for an entry of any key (Yarn's keys change as
  // ranges are added), may stay.
  const dependenciesBefore = new Set(
    lockDependencies(kind, oldText).map(({ name, spec }) => `${name}\0${spec}`),
  );
  for (const { entry, name, spec } of lockDependencies(kind, newText)) {
    if (dependenciesBefore.has(`${name}\0${spec}`)) continue;
    const source = nonRegistrySource(spec);
    if (source === undefined) continue;
    problems.push(
      `adds the dependency ${quoteForDisplay(name)} of the entry ${quoteForDisplay(entry)} on ${quoteForDisplay(spec)} (${source}: ${LOCKED_DEPENDENCY})`,
    );
  }
  const swappedBefore = swappedPackages(kind, oldText);
  for (const [key, swap] of swappedPackages(kind, newText)) {
    const old = swappedBefore.get(key);
    if (old?.entry === swap.entry && old.source === swap.source) continue;
    problems.push(
      `resolves the entry ${quoteForDisplay(key)} (${quoteForDisplay(swap.entry)}) to ${quoteForDisplay(swap.source)} (${ANOTHER_PACKAGE})`,
    );
  }
  return capped(problems);
}

/** pnpm's other names for a project's manifest, which it reads where no `package.json` is beside one. */
function manifestFormName(path: string): string | undefined {
  const name = foldedName(path);
  return name === "package.yaml" || name === "package.json5" ? name : undefined;
}

/** Whether pnpmManifestProblem judges `path`: a `package.yaml` or `package.json5`, at any depth. */
export function isPnpmManifestPath(path: string): boolean {
  return manifestFormName(path) !== undefined;
}

/**
 * Why a `package.yaml` or `package.json5` added or changed at `path` is refused, or undefined: pnpm
 * reads a project's manifest from either where no `package.json` is beside it (a new workspace
 * folder's too), with the same scripts and fields, in a form the checks here do not read. A
 * `package.json5` only pnpm reads; a `package.yaml` is Haskell's hpack manifest as well, refused only
 * in a tree pnpm installs (`pnpmTree`: see isPnpmTree).
 */
export function pnpmManifestProblem(path: string, pnpmTree: boolean): string | undefined {
  const name = manifestFormName(path);
  if (name === undefined || (name === "package.yaml" && !pnpmTree)) return undefined;
  return "is a project manifest pnpm reads where no package.json is beside it, in a form this check does not read (its scripts run on the next install)";
}

/** Whether pnpm installs the tree whose paths are `paths`: a `pnpm-lock.yaml` or `pnpm-workspace.yaml` at any depth. */
export function isPnpmTree(paths: Iterable<string>): boolean {
  for (const path of paths) {
    const name = foldedName(path);
    if (name === "pnpm-lock.yaml" || name === "pnpm-workspace.yaml") return true;
  }
  return false;
}

/**
 * Whether the root `package.json` text `json` names pnpm as the project's package manager, in its
 * `packageManager` (`pnpm@10.0.0`, as Corepack reads it) or `devEngines.packageManager` (one or a
 * list): a project that commits no lockfile is pnpm's still.
 */
export function declaresPnpm(json: string | undefined): boolean {
  const document = parseObject(json);
  if (document === undefined) return false;
  const named = (value: unknown) => typeof value === "string" && /^\s*pnpm\s*(?:@|$)/i.test(value);
  if (named(document.packageManager)) return true;
  const engines = isObject(document.devEngines) ? document.devEngines.packageManager : undefined;
  return (Array.isArray(engines) ? engines : [engines]).some(
    (engine) => isObject(engine) && named(engine.name),
  );
}

/**
 * Why removing the `package.json` at `removed` (deleted, or renamed away) is refused, or undefined:
 * where a `package.yaml` or a `package.json5` is beside it in the tree after the change
 * (`treePaths`), pnpm reads that one as the project's manifest from then on, scripts included, in a
 * form the checks here do not read. A `package.yaml` counts in any tree, not only one that looks
 * like pnpm's (isPnpmTree): the same proposal may delete the `pnpm-lock.yaml` that tells, and the
 * cost is a package.json kept beside a Haskell project's hpack file. Only a file named exactly
 * `package.json` left in that folder is one pnpm still reads first.
 */
export function exposedManifestProblem(removed: string, treePaths: readonly string[]): string | undefined {
  if (!isPackageJsonPath(removed)) return undefined;
  const folder = removed.slice(0, removed.lastIndexOf("/") + 1);
  const beside = treePaths.filter(
    (path) => path.startsWith(folder) && !path.slice(folder.length).includes("/"),
  );
  if (beside.includes(`${folder}package.json`)) return undefined;
  const exposed = beside.find((path) => manifestFormName(path) !== undefined);
  if (exposed === undefined) return undefined;
  return `is removed beside ${quoteForDisplay(exposed)}, which pnpm then reads as the project's manifest, in a form this check does not read (its scripts run on the next install)`;
}

/** Whether packageFileProblems reads `path`'s content: a package.json or a lockfile, at any depth. */
export function isPackageFile(path: string): boolean {
  return isPackageJsonPath(path) || lockfileKind(path) !== undefined;
}

/**
 * What the change of the package.json or lockfile at `path` from `before` (undefined: it is new) to
 * `after` adds or changes that the next install would run or fetch (design §9): lifecycle scripts,
 * guarded fields and dependencies from outside the registry, or lockfile entries resolved there.
 * The client refuses a proposal for any of them; this package's worker leaves the file out instead.
 */
export function packageFileProblems(path: string, before: string | undefined, after: string): string[] {
  const lockfile = lockfileKind(path);
  if (lockfile !== undefined) return changedLockfileSources(lockfile, before, after);
  if (!isPackageJsonPath(path)) return [];
  return [
    ...changedLifecycleScripts(before, after),
    ...changedGuardedFields(before, after),
    ...changedDependencySources(before, after),
  ];
}
