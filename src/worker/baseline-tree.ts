// The baseline's trees and index entries, from the validated listing and the blob ids computed while
// it streamed by: the tree git would write for the unpacked directory, with no git run over it.
import { type CacheTreeNode, type IndexEntry, sortIndexEntries } from "../git/write/index-file.js";
import { encodeTree, ObjectType, objectId, type TreeItem } from "../git/write/objects.js";
import type { BundleListing } from "./verify-bundle.js";

export interface BaselineTrees {
  /** Every file and symlink, in index order. */
  entries: IndexEntry[];
  /** Every tree object, the root last. */
  trees: { oid: Buffer; body: Buffer }[];
  /** The cache-tree of the index: the root and, below it, every directory. */
  root: CacheTreeNode;
}

interface Directory {
  items: TreeItem[];
  node: CacheTreeNode;
}

const MODES = {
  file: { tree: "100644", index: 0o100644 },
  executable: { tree: "100755", index: 0o100755 },
  symlink: { tree: "120000", index: 0o120000 },
} as const;

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

function baseName(path: string): Buffer {
  return Buffer.from(path.slice(path.lastIndexOf("/") + 1), "utf8");
}

function directory(directories: Map<string, Directory>, path: string): Directory {
  let dir = directories.get(path);
  if (!dir) {
    dir = { items: [], node: { name: baseName(path), oid: Buffer.alloc(0), entries: 0, children: [] } };
    directories.set(path, dir);
  }
  return dir;
}

export function buildBaselineTrees(listing: BundleListing): BaselineTrees {
  const directories = new Map<string, Directory>();
  directory(directories, "");
  const entries: IndexEntry[] = [];
  for (const [path, node] of listing.nodes) {
    if (node.kind === "directory") {
      directory(directories, path);
      continue;
    }
    if (!node.oid) throw new Error(`baseline: no blob id for ${path}`);
    const mode = node.kind === "symlink" ? MODES.symlink : node.mode & 0o100 ? MODES.executable : MODES.file;
    directory(directories, parentOf(path)).items.push({
      name: baseName(path),
      mode: mode.tree,
      oid: node.oid,
    });
    // A symlink's size on disk is its target's length.
    const size = node.kind === "symlink" ? Buffer.byteLength(node.linkpath, "utf8") : node.size;
    const mtime = Math.max(0, node.mtime);
    entries.push({ path: Buffer.from(path, "utf8"), mode: mode.index, oid: node.oid, size, mtime });
  }
  // Deepest first, so that each directory's subtrees are written before it.
  const depth = new Map(
    [...directories.keys()].map((path) => [path, path === "" ? 0 : path.split("/").length]),
  );
  const order = [...directories.keys()].sort((a, b) => (depth.get(b) ?? 0) - (depth.get(a) ?? 0));
  const trees: BaselineTrees["trees"] = [];
  for (const path of order) {
    const dir = directories.get(path) as Directory;
    const body = encodeTree(dir.items);
    dir.node.oid = objectId(ObjectType.tree, body);
    dir.node.entries += dir.items.filter((item) => item.mode !== "40000").length;
    trees.push({ oid: dir.node.oid, body });
    if (path === "") continue;
    const parent = directory(directories, parentOf(path));
    parent.items.push({ name: dir.node.name, mode: "40000", oid: dir.node.oid });
    parent.node.children.push(dir.node);
    parent.node.entries += dir.node.entries;
  }
  const root = (directories.get("") as Directory).node;
  return { entries: sortIndexEntries(entries), trees, root };
}
