// The fold check as the worker first made it, over whole paths: each name's key is its directory's
// key, "/", and its own part's, in one table. The reference the per-directory checks (FoldedTree on
// the export side, the worker's listing) are tested against.
import { collisionKey } from "../../src/paths/fold.js";

/**
 * Names in bundle order, each with every directory above it: a name that folds onto one already
 * there (`README` and `readme`, NFC and NFD) would be one file on a case-insensitive or normalising
 * file system, so the second one is refused.
 */
export class FoldedNames {
  private readonly names = new Map<string, string>();
  /** The key of every name claimed: a name's key is its directory's key, "/", and its own part's. */
  private readonly keys = new Map<string, string>();

  /** collisionKey(path), from the key of its directory when that was claimed (NFC stops at "/"). */
  private keyOf(path: string): string {
    const known = this.keys.get(path);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf("/");
    const parent = slash === -1 ? undefined : this.keys.get(path.slice(0, slash));
    return parent === undefined ? collisionKey(path) : `${parent}/${collisionKey(path.slice(slash + 1))}`;
  }

  /** The name `path` collides with, or undefined (and then `path` is registered). */
  claim(path: string): string | undefined {
    if (this.keys.has(path)) return undefined;
    const key = this.keyOf(path);
    const other = this.names.get(key);
    if (other !== undefined && other !== path) return other;
    this.names.set(key, path);
    this.keys.set(path, key);
    return undefined;
  }
}
