// The baseline's trees and index entries, from the validated listing and the blob ids computed while
// it streamed by: the tree git would write for the unpacked directory, with no git run over it.
// One pass over the files in index order builds every tree: a directory is complete when the next
// file is outside it, and its entries arrive in git's tree order (which index order is).
import { type CacheTreeNode, IndexFileWriter } from "../git/write/index-file.js";
import { encodeTree, ObjectType, objectId, type TreeItem, treeItemBytes } from "../git/write/objects.js";
import type { BundleListing } from "./verify-bundle.js";

export interface BaselineTrees {
  /** The index file: every file and symlink, with the cache-tree of every directory. */
  index: Buffer;
  /** The root tree's id. */
  root: Buffer;
}

const MODES = {
  file: { tree: "100644", index: 0o100644 },
  executable: { tree: "100755", index: 0o100755 },
  symlink: { tree: "120000", index: 0o120000 },
  directory: { tree: "40000" },
} as const;

interface OpenDirectory {
  path: string;
  items: TreeItem[];
  /** Bytes of the tree body so far. */
  bytes: number;
  node: CacheTreeNode;
}

/**
 * UTF-8 byte order (git's memcmp) of two strings: UTF-16 code units compare the same way, except
 * that a surrogate (a code point above U+FFFF) must sort after U+E000-U+FFFF.
 */
function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

function isSorted(paths: readonly string[]): boolean {
  for (let i = 1; i < paths.length; i++)
    if (compareUtf8(paths[i - 1] as string, paths[i] as string) >= 0) return false;
  return true;
}

function open(path: string): OpenDirectory {
  const name = Buffer.from(path.slice(path.lastIndexOf("/") + 1), "utf8");
  return { path, items: [], bytes: 0, node: { name, oid: Buffer.alloc(0), entries: 0, children: [] } };
}

function addItem(dir: OpenDirectory, name: string, mode: string, oid: Buffer): void {
  const item = { name, mode, oid };
  dir.items.push(item);
  dir.bytes += treeItemBytes(item);
}

/**
 * The trees of the listing, each handed to `onTree` as soon as it is complete (subtrees first, the
 * root last), and the index.
 */
export function buildBaselineTrees(
  listing: BundleListing,
  onTree: (oid: Buffer, body: Buffer) => void,
): BaselineTrees {
  const { nodes } = listing;
  const paths: string[] = [];
  const indexes: number[] = [];
  for (let index = 0; index < nodes.size; index++) {
    if (nodes.kindAt(index) === "directory") continue;
    paths.push(nodes.pathAt(index));
    indexes.push(index);
  }
  // git archive lists files in index order already; any other order is sorted.
  let order: number[] | undefined;
  if (!isSorted(paths)) {
    order = paths.map((_, i) => i).sort((i, j) => compareUtf8(paths[i] as string, paths[j] as string));
  }
  const index = new IndexFileWriter(paths);
  const stack: OpenDirectory[] = [open("")];
  const close = () => {
    const dir = stack.pop() as OpenDirectory;
    const body = encodeTree(dir.items, dir.bytes);
    dir.node.oid = objectId(ObjectType.tree, body);
    onTree(dir.node.oid, body);
    const parent = stack[stack.length - 1];
    if (!parent) return dir;
    addItem(parent, dir.path.slice(dir.path.lastIndexOf("/") + 1), MODES.directory.tree, dir.node.oid);
    parent.node.children.push(dir.node);
    parent.node.entries += dir.node.entries;
    return dir;
  };
  for (let k = 0; k < paths.length; k++) {
    const i = order ? (order[k] as number) : k;
    const path = paths[i] as string;
    const at = indexes[i] as number;
    const oid = nodes.oidAt(at);
    if (!oid) throw new Error(`baseline: no blob id for ${path}`);
    const kind = nodes.kindAt(at);
    const slash = path.lastIndexOf("/");
    const parent = slash === -1 ? "" : path.slice(0, slash);
    // Close what the file is not in, then open what it is in, down from the deepest still open.
    let top = stack[stack.length - 1] as OpenDirectory;
    while (top.path !== "" && !(parent === top.path || parent.startsWith(`${top.path}/`))) {
      close();
      top = stack[stack.length - 1] as OpenDirectory;
    }
    for (let at = top.path === "" ? 0 : top.path.length + 1; at < parent.length; ) {
      const next = parent.indexOf("/", at);
      const end = next === -1 ? parent.length : next;
      stack.push(open(parent.slice(0, end)));
      at = end + 1;
    }
    top = stack[stack.length - 1] as OpenDirectory;
    const mode =
      kind === "symlink" ? MODES.symlink : nodes.modeAt(at) & 0o100 ? MODES.executable : MODES.file;
    addItem(top, path.slice(slash + 1), mode.tree, oid);
    top.node.entries++;
    // A symlink's size on disk is its target's length.
    const size = kind === "symlink" ? Buffer.byteLength(nodes.linkpathAt(at), "utf8") : nodes.sizeAt(at);
    index.add(path, mode.index, oid, size, Math.max(0, nodes.mtimeAt(at)));
  }
  let root: OpenDirectory;
  do root = close();
  while (stack.length > 0);
  return { index: index.finish(root.node), root: root.node.oid };
}
