// The validated listing's entries in a few flat arrays: tens of thousands of paths cost a string and
// a few numbers each, and their blob ids share one buffer, instead of an object and a Buffer per
// entry that the garbage collector copies again and again while the bundle streams by. A directory
// keeps its names by their collision key: one lookup by a short name answers both "is it there?" and
// "does it fold onto something there?", where a table of whole paths would hash every path and
// every one of its prefixes.

import { collisionKey } from "../paths/fold.js";

export type NodeKind = "file" | "directory" | "symlink";

/** One entry, as read from the listing (a fresh view each time; changing it changes nothing). */
export interface ListedNode {
  kind: NodeKind;
  /** False for a directory that only appears as the parent of an entry. */
  explicit: boolean;
  size: number;
  /** Permission bits as stored (files: only the executable bit matters to git). */
  mode: number;
  linkpath: string;
  /** Whole seconds, as the file's mtime is set when unpacked; -1 when unknown. */
  mtime: number;
  /** Files and symlinks: the git blob id of the content (or target), computed as it streamed by. */
  oid?: Buffer;
}

/** The index standing for the top of the tree, the parent of top-level entries. */
export const TOP = -1;

const KINDS: readonly NodeKind[] = ["directory", "file", "symlink"];
const KIND_MASK = 0b11;
const EXPLICIT = 0b100;
const HAS_OID = 0b1000;
const OID_BYTES = 20;

/** The entries in the order they were added (a directory before what it holds), found by path. */
export class ListedNodes {
  private readonly paths: string[] = [];
  /** Kind, EXPLICIT and HAS_OID bits. */
  private readonly flags: number[] = [];
  /** The index of the directory holding each entry (TOP for the top level). */
  private readonly parents: number[] = [];
  private readonly sizes: number[] = [];
  private readonly modes: number[] = [];
  private readonly mtimes: number[] = [];
  private readonly links = new Map<number, string>();
  /** Each directory's entries by the collisionKey of their name (directories only, by index). */
  private readonly children: (Map<string, number> | undefined)[] = [];
  private readonly top = new Map<string, number>();
  private oids = Buffer.alloc(OID_BYTES * 1024);

  get size(): number {
    return this.paths.length;
  }

  get(path: string): ListedNode | undefined {
    const index = this.indexOf(path);
    return index === undefined ? undefined : this.at(index);
  }

  keys(): IterableIterator<string> {
    return this.paths.values();
  }

  /** The entry at `index` (0 to size - 1) as a view. */
  at(index: number): ListedNode {
    const flags = this.flags[index] as number;
    const node: ListedNode = {
      kind: this.kindAt(index),
      explicit: (flags & EXPLICIT) !== 0,
      size: this.sizes[index] as number,
      mode: this.modes[index] as number,
      linkpath: this.links.get(index) ?? "",
      mtime: this.mtimes[index] as number,
    };
    const oid = this.oidAt(index);
    if (oid) node.oid = oid;
    return node;
  }

  /** The index of `path`, walking down from the top one name at a time. */
  indexOf(path: string): number | undefined {
    let at = TOP;
    for (let start = 0; ; ) {
      const slash = path.indexOf("/", start);
      const end = slash === -1 ? path.length : slash;
      const child = this.childOf(at, collisionKey(path.slice(start, end)));
      if (child === undefined) return undefined;
      if (slash === -1) return this.paths[child] === path ? child : undefined;
      at = child;
      start = slash + 1;
    }
  }

  /** The entry in directory `parent` (an index or TOP) whose name has collision key `key`. */
  childOf(parent: number, key: string): number | undefined {
    return (parent === TOP ? this.top : this.children[parent])?.get(key);
  }

  pathAt(index: number): string {
    return this.paths[index] as string;
  }

  /** The directory holding the entry at `index`, or TOP. */
  parentAt(index: number): number {
    return this.parents[index] as number;
  }

  kindAt(index: number): NodeKind {
    return KINDS[(this.flags[index] as number) & KIND_MASK] as NodeKind;
  }

  isDirectoryAt(index: number): boolean {
    return ((this.flags[index] as number) & KIND_MASK) === 0;
  }

  sizeAt(index: number): number {
    return this.sizes[index] as number;
  }

  modeAt(index: number): number {
    return this.modes[index] as number;
  }

  mtimeAt(index: number): number {
    return this.mtimes[index] as number;
  }

  linkpathAt(index: number): string {
    return this.links.get(index) ?? "";
  }

  /** The blob id (a view of the shared buffer), once known. */
  oidAt(index: number): Buffer | undefined {
    if (!((this.flags[index] as number) & HAS_OID)) return undefined;
    return this.oids.subarray(index * OID_BYTES, (index + 1) * OID_BYTES);
  }

  /**
   * Adds `path` to directory `parent` (an index or TOP) under `key`, its name's collisionKey, which
   * no entry of that directory may have yet; its index.
   */
  add(parent: number, key: string, path: string, node: Omit<ListedNode, "oid">): number {
    const index = this.paths.length;
    const siblings = parent === TOP ? this.top : (this.children[parent] as Map<string, number>);
    siblings.set(key, index);
    this.paths.push(path);
    this.parents.push(parent);
    const kind = KINDS.indexOf(node.kind);
    this.flags.push(kind | (node.explicit ? EXPLICIT : 0));
    this.children.push(kind === 0 ? new Map() : undefined);
    this.sizes.push(node.size);
    this.modes.push(node.mode);
    this.mtimes.push(node.mtime);
    if (node.linkpath !== "") this.links.set(index, node.linkpath);
    return index;
  }

  /** An implicit directory listed again as an entry of its own. */
  makeExplicit(index: number, mode: number, mtime: number): void {
    this.flags[index] = (this.flags[index] as number) | EXPLICIT;
    this.modes[index] = mode;
    this.mtimes[index] = mtime;
  }

  setOid(index: number, oid: Uint8Array): void {
    const end = (index + 1) * OID_BYTES;
    if (end > this.oids.length) {
      const grown = Buffer.alloc(Math.max(end, this.oids.length * 2));
      this.oids.copy(grown);
      this.oids = grown;
    }
    this.oids.set(oid, index * OID_BYTES);
    this.flags[index] = (this.flags[index] as number) | HAS_OID;
  }
}
