// The bundle boundary (design §1, property 1): the names and symlinks a bundle may hold, on Linux,
// Windows or macOS checkouts. The export keeps back every entry that breaks a rule (and says which),
// and the worker refuses a whole bundle that holds one: one rule set, so the worker never refuses
// what our own export sent.
import { quoteForMessage } from "../protocol/quote.js";
import { collisionKey, isDotGitLike, MAX_COMPONENT_BYTES, MAX_PATH_BYTES } from "./fold.js";
import { resolveLink } from "./symlink.js";

/** A refusal: the rule id (stable, for tests and users) and a short explanation. */
export interface RuleViolation {
  rule: string;
  reason: string;
  /**
   * A name the reason quotes (the path a name collides with, a link's target): `text` as it is, `as`
   * the reason's spelling of it, for a report that prints names its own way (`export --list`).
   */
  quoted?: { text: string; as: string };
}

const violation = (rule: string, reason: string): RuleViolation => ({ rule, reason });

/** More than `limit` bytes in UTF-8; a UTF-16 code unit is at most 3 of them. */
function exceedsBytes(text: string, limit: number): boolean {
  return text.length * 3 > limit && Buffer.byteLength(text, "utf8") > limit;
}

function checkCharacters(text: string, what: string): RuleViolation | undefined {
  if (text.includes("\0")) return violation("nul-in-path", `NUL byte in the ${what}`);
  if (text.includes("\uFFFD")) return violation("invalid-utf8", `the ${what} is not valid UTF-8`);
  if (text.includes("\\")) return violation("backslash", `backslash in the ${what} (a separator on Windows)`);
  if (text.startsWith("/")) return violation("absolute-path", `the ${what} is absolute`);
  if (/^[A-Za-z]:/.test(text)) return violation("drive-path", `the ${what} starts with a drive letter`);
  if (exceedsBytes(text, MAX_PATH_BYTES)) {
    return violation("path-too-long", `the ${what} is over ${MAX_PATH_BYTES} bytes`);
  }
  return undefined;
}

/**
 * Checks an entry name as a whole (characters, length, a trailing "/" only on a directory) and returns
 * it without that "/"; its components are checkComponent's.
 */
export function checkEntryText(raw: string, isDirectory: boolean): RuleViolation | string {
  if (raw === "") return violation("empty-path", "empty name");
  const bad = checkCharacters(raw, "name");
  if (bad) return bad;
  if (!raw.endsWith("/")) return raw;
  if (!isDirectory) return violation("trailing-slash", "a name ending in / that is not a directory");
  return raw.slice(0, -1);
}

/** One component of an entry name: not empty, `.`, `..`, a `.git` look-alike or too long. */
export function checkComponent(component: string): RuleViolation | undefined {
  if (component === "..") return violation("dotdot", '".." path component');
  if (component === "" || component === ".")
    return violation("non-canonical-path", "empty or '.' path component");
  if (isDotGitLike(component))
    return violation("dotgit", `".git" look-alike component ${JSON.stringify(component)}`);
  if (exceedsBytes(component, MAX_COMPONENT_BYTES)) {
    return violation("path-too-long", `a path component is over ${MAX_COMPONENT_BYTES} bytes`);
  }
  return undefined;
}

/**
 * Checks an entry name and returns its components. Directories may end with one "/" (git archive
 * writes `dir/`); anything else that is not canonical (`a//b`, `./a`, `a/.`) is refused, because GNU tar
 * and our listing could disagree on what it names.
 */
export function checkEntryPath(raw: string, isDirectory: boolean): RuleViolation | string[] {
  const path = checkEntryText(raw, isDirectory);
  if (typeof path !== "string") return path;
  const components = path.split("/");
  for (const component of components) {
    const bad = checkComponent(component);
    if (bad) return bad;
  }
  return components;
}

/** Static checks of a symlink target; where it resolves is checked once the whole listing is known. */
export function checkLinkTarget(target: string): RuleViolation | undefined {
  if (target === "") return violation("symlink-empty-target", "symlink with an empty target");
  const bad = checkCharacters(target, "symlink target");
  if (bad) return { rule: `symlink-${bad.rule}`, reason: bad.reason };
  for (const component of target.split("/")) {
    if (isDotGitLike(component)) {
      return violation(
        "symlink-dotgit",
        `symlink target goes through a ".git" look-alike ${JSON.stringify(component)}`,
      );
    }
  }
  return undefined;
}

/**
 * A symlink's target checked in full: its text, then where it leads through the other `links`
 * (path → target) once on disk. `path` is the link's own path.
 */
export function checkSymlink(
  path: string,
  target: string,
  links: ReadonlyMap<string, string>,
): RuleViolation | undefined {
  const bad = checkLinkTarget(target);
  if (bad) return bad;
  const resolved = resolveLink(path.split("/").slice(0, -1), target, links);
  if (resolved.ok) return undefined;
  const as = quoteForMessage(target, 200);
  return { rule: resolved.rule, reason: `${resolved.reason} (-> ${as})`, quoted: { text: target, as } };
}

/**
 * A directory claimed by FoldedTree: each name in it by its collisionKey, a file as its path and a
 * directory with what is below it.
 */
type FoldedDirectory = Map<string, string | ClaimedDirectory>;
interface ClaimedDirectory {
  path: string;
  children: FoldedDirectory;
}

const claimedPath = (claimed: string | ClaimedDirectory): string =>
  typeof claimed === "string" ? claimed : claimed.path;

/**
 * Names that fold onto one another (`README` and `readme`, NFC and NFD) would be one file on a
 * case-insensitive or normalising file system: the second one is refused. For a listing of paths
 * without their directories (a tree's blobs, in tree order): each path is claimed with every
 * directory above it, all or none. Each directory keeps its names by their collisionKey, so that a
 * path costs a lookup by name for each of its directories and one folding of its last part.
 */
export class FoldedTree {
  private readonly root: FoldedDirectory = new Map();
  /** The directory of the last path claimed (in tree order, most paths share the one before). */
  private lastPrefix: string | undefined;
  private lastDirectory = this.root;

  /** Claims `path` and its directories, all or none; returns the first collision. */
  claimWithParents(path: string): RuleViolation | undefined {
    const slash = path.lastIndexOf("/");
    const prefix = this.lastPrefix;
    const sameDirectory = prefix !== undefined && slash === prefix.length && path.startsWith(prefix);
    const directory = sameDirectory ? this.lastDirectory : this.directoryOf(path, slash);
    if (!(directory instanceof Map)) return directory;
    const key = collisionKey(path.slice(slash + 1));
    const claimed = directory.get(key);
    const other = claimed === undefined ? undefined : claimedPath(claimed);
    if (other !== undefined && other !== path) return collision(other);
    if (other === undefined) directory.set(key, path);
    if (!sameDirectory) {
      this.lastPrefix = slash === -1 ? undefined : path.slice(0, slash);
      this.lastDirectory = directory;
    }
    return undefined;
  }

  /**
   * The directory `path.slice(0, slash)`, claimed with the directories above it, or the collision
   * that keeps it out. A collision is only found before the first new directory (a new one is
   * empty), so then nothing was claimed.
   */
  private directoryOf(path: string, slash: number): FoldedDirectory | RuleViolation {
    let directory = this.root;
    let fresh = false;
    for (let start = 0; start <= slash; ) {
      const end = path.indexOf("/", start);
      const key = collisionKey(path.slice(start, end));
      const claimed: string | ClaimedDirectory | undefined = fresh ? undefined : directory.get(key);
      let next: ClaimedDirectory;
      if (claimed === undefined || typeof claimed === "string") {
        const name = claimed ?? path.slice(0, end);
        if (name.length !== end || !path.startsWith(name)) return collision(name);
        // New, or the same name claimed as a file before (a tree does not list both).
        next = { path: name, children: new Map() };
        directory.set(key, next);
        fresh ||= claimed === undefined;
      } else if (claimed.path.length !== end || !path.startsWith(claimed.path)) {
        return collision(claimed.path);
      } else {
        next = claimed;
      }
      directory = next.children;
      start = end + 1;
    }
    return directory;
  }
}

export function collision(other: string): RuleViolation {
  const as = quoteForMessage(other);
  return {
    rule: "case-collision",
    reason: `collides with ${as} on case-insensitive or normalizing filesystems`,
    quoted: { text: other, as },
  };
}
