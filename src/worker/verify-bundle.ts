// Validates an untrusted bundle before a single byte of it reaches the disk as a file (design §8): the
// whole listing is read with our strict tar parser, and any entry that could write outside the tree,
// mean different things to different extractors, or exhaust the machine refuses the whole bundle.

import type { Hash } from "node:crypto";
import { ObjectType, objectHasher, objectId } from "../git/write/objects.js";
import {
  checkEntryPath,
  checkLinkTarget,
  checkSymlink,
  collision,
  FoldedNames,
  type RuleViolation,
} from "../paths/bundle.js";
import { quoteForMessage } from "../protocol/quote.js";
import { type TarEntry, TarFormatError, TarReader, TarType } from "../tar/reader.js";
import { GzipError, gunzipFile } from "./gunzip.js";

export interface BundleLimits {
  maxEntries: number;
  /** Bytes of the uncompressed tar stream. */
  maxExpandedBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxEntries: 200_000,
  maxExpandedBytes: 2 * 1024 ** 3,
  maxRatio: 200,
  ratioFloorBytes: 4 * 1024 * 1024,
});

type NodeKind = "file" | "directory" | "symlink";

export interface ListedNode {
  kind: NodeKind;
  /** False for a directory that only appears as the parent of an entry. */
  explicit: boolean;
  size: number;
  /** Permission bits as stored (files: only the executable bit matters to git). */
  mode: number;
  linkpath: string;
  /** Whole seconds, as GNU tar sets it on the extracted file; -1 when unknown. */
  mtime: number;
  /** Files and symlinks: the git blob id of the content (or target), computed as it streamed by. */
  oid?: Buffer;
}

/** What the bundle holds once validated: the exact expected state of the extracted tree. */
export interface BundleListing {
  nodes: Map<string, ListedNode>;
  /** Regular files and symlinks (the request's bundle.files). */
  files: number;
  expandedBytes: number;
}

/** The bundle is refused; `rule` names the check, `entry` the offending name when there is one. */
export class BundleRefusedError extends Error {
  constructor(
    readonly rule: string,
    readonly reason: string,
    readonly entry?: string,
  ) {
    super(
      entry === undefined
        ? `bundle refused: ${reason} (rule: ${rule})`
        : `bundle refused: entry ${quoteForMessage(entry, 200)}: ${reason} (rule: ${rule})`,
    );
  }
}

const SPECIAL_MODE_BITS = 0o7000;
const ALLOWED_GLOBAL_KEYS = new Set(["comment"]);

const TYPE_RULES: Partial<Record<TarType, RuleViolation>> = {
  [TarType.hardlink]: { rule: "hardlink", reason: "hard links are not allowed" },
  [TarType.characterDevice]: { rule: "device", reason: "device files are not allowed" },
  [TarType.blockDevice]: { rule: "device", reason: "device files are not allowed" },
  [TarType.fifo]: { rule: "fifo", reason: "FIFOs are not allowed" },
};

/** A file whose content is streaming by, its blob id being computed. */
interface OpenBlob {
  node: ListedNode;
  hash: Hash;
}

class ListingBuilder {
  readonly nodes = new Map<string, ListedNode>();
  private readonly folded = new FoldedNames();
  private entries = 0;
  private open: OpenBlob | undefined;
  /** Directories with a file or symlink somewhere below them. */
  private readonly filled = new Set<string>();
  files = 0;
  expandedBytes = 0;

  constructor(
    private readonly expectedFiles: number,
    private readonly limits: BundleLimits,
  ) {}

  /** Validates `entry` and places it; for a file, returns the consumer of its content. */
  add(entry: TarEntry): ((chunk: Buffer) => void) | undefined {
    const refuse = (v: RuleViolation): never => {
      throw new BundleRefusedError(v.rule, v.reason, entry.path);
    };
    if (++this.entries > this.limits.maxEntries)
      refuse({ rule: "entry-count", reason: `over ${this.limits.maxEntries} entries` });
    const typeRule = TYPE_RULES[entry.type];
    if (typeRule) refuse(typeRule);
    if (entry.type === TarType.other)
      refuse({ rule: "entry-type", reason: `unsupported entry type ${JSON.stringify(entry.typeflag)}` });
    const kind = entry.type as NodeKind;
    if (kind !== "file" && entry.size !== 0) {
      refuse({
        rule: "size-on-non-file",
        reason: `a ${kind} entry with a size of ${entry.size} (extractors disagree on it)`,
      });
    }
    if (entry.mode & SPECIAL_MODE_BITS)
      refuse({ rule: "special-mode", reason: "setuid, setgid or sticky mode bits" });
    const components = checkEntryPath(entry.path, kind === "directory");
    if (!Array.isArray(components)) {
      refuse(components);
      return;
    }
    if (kind === "symlink") {
      const bad = checkLinkTarget(entry.linkpath);
      if (bad) refuse(bad);
    }
    if (kind !== "directory" && ++this.files > this.expectedFiles) {
      refuse({
        rule: "file-count",
        reason: `more files than the request's bundle.files (${this.expectedFiles})`,
      });
    }
    this.expandedBytes += entry.size;
    const node = this.place(components, kind, entry, refuse);
    return this.hashContent(node, entry);
  }

  /** A symlink's blob is its target; a file's is hashed as its content streams by. */
  private hashContent(node: ListedNode, entry: TarEntry): ((chunk: Buffer) => void) | undefined {
    if (node.kind === "symlink") {
      node.oid = objectId(ObjectType.blob, Buffer.from(node.linkpath, "utf8"));
      return undefined;
    }
    if (node.kind !== "file") return undefined;
    const open: OpenBlob = { node, hash: objectHasher(ObjectType.blob, entry.size) };
    this.open = open;
    return (chunk) => {
      open.hash.update(chunk);
    };
  }

  /** The end of an entry's content: a file's blob id is complete. */
  endEntry(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    open.node.oid = open.hash.digest();
  }

  private place(
    components: string[],
    kind: NodeKind,
    entry: TarEntry,
    refuse: (v: RuleViolation) => never,
  ): ListedNode {
    let parent = "";
    for (let depth = 1; depth < components.length; depth++) {
      parent = depth === 1 ? (components[0] as string) : `${parent}/${components[depth - 1]}`;
      if (kind !== "directory") this.filled.add(parent);
      const existing = this.nodes.get(parent);
      if (existing === undefined)
        this.record(
          parent,
          { kind: "directory", explicit: false, size: 0, mode: 0o755, linkpath: "", mtime: -1 },
          refuse,
        );
      else if (existing.kind === "symlink")
        refuse({ rule: "through-symlink", reason: `written through the symlink ${quoteForMessage(parent)}` });
      else if (existing.kind === "file")
        refuse({ rule: "under-file", reason: `its parent ${quoteForMessage(parent)} is a file` });
    }
    const path = components.join("/");
    const node: ListedNode = {
      kind,
      explicit: true,
      size: entry.size,
      mode: entry.mode & 0o777,
      linkpath: entry.linkpath,
      mtime: entry.mtime,
    };
    const existing = this.nodes.get(path);
    if (existing === undefined) {
      this.record(path, node, refuse);
      return node;
    }
    if (existing.kind === "directory" && kind === "directory" && !existing.explicit) {
      this.nodes.set(path, node);
      return node;
    }
    if (existing.kind === "directory" && kind !== "directory") {
      refuse({ rule: "replaces-directory", reason: `a ${kind} replacing a directory of the same name` });
    }
    return refuse({ rule: "duplicate", reason: "the same name appears twice" });
  }

  private record(path: string, node: ListedNode, refuse: (v: RuleViolation) => never): void {
    const other = this.folded.claim(path);
    if (other !== undefined) refuse(collision(other));
    this.nodes.set(path, node);
  }

  /**
   * git archive writes a directory only on the way to a file: a directory with nothing below it is
   * no part of a snapshot (and would let a bundle hold any number of entries for free).
   */
  private verifyNoEmptyDirectories(): void {
    for (const [path, node] of this.nodes) {
      if (node.kind === "directory" && !this.filled.has(path)) {
        throw new BundleRefusedError("empty-directory", "a directory with no file below it", path);
      }
    }
  }

  /** Checks that need the whole listing: where each symlink really points. */
  finish(): BundleListing {
    const links = new Map<string, string>();
    for (const [path, node] of this.nodes) if (node.kind === "symlink") links.set(path, node.linkpath);
    for (const [path, target] of links) {
      const bad = checkSymlink(path, target, links);
      if (bad) throw new BundleRefusedError(bad.rule, bad.reason, path);
    }
    this.verifyNoEmptyDirectories();
    if (this.files !== this.expectedFiles) {
      throw new BundleRefusedError(
        "file-count",
        `the bundle holds ${this.files} files and symlinks, the request's bundle.files says ${this.expectedFiles}`,
      );
    }
    return { nodes: this.nodes, files: this.files, expandedBytes: this.expandedBytes };
  }
}

/**
 * Reads the whole bundle (gzip → tar listing) without writing anything and returns the validated
 * listing, with each file's blob id, or throws BundleRefusedError naming the entry and the rule.
 */
export async function verifyBundle(
  file: string,
  size: number,
  expectedFiles: number,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
  /** Also receives every decompressed tar chunk, after the reader took it (one gunzip pass for both). */
  tee?: (chunk: Buffer) => void | Promise<void>,
): Promise<BundleListing> {
  const listing = new ListingBuilder(expectedFiles, limits);
  let last: string | undefined;
  const reader = new TarReader({
    entry(entry) {
      last = entry.path;
      return listing.add(entry);
    },
    entryEnd() {
      listing.endEntry();
    },
    globalHeader(records) {
      for (const key of records.keys()) {
        if (!ALLOWED_GLOBAL_KEYS.has(key)) {
          throw new BundleRefusedError(
            "pax-global-header",
            `a pax global header sets ${quoteForMessage(key)} (only "comment" is allowed)`,
          );
        }
      }
    },
  });
  const at = () =>
    last === undefined ? "at the first entry" : `at or after entry ${quoteForMessage(last, 200)}`;
  try {
    await gunzipFile(file, size, { ...limits, maxOutputBytes: limits.maxExpandedBytes }, (chunk) => {
      reader.write(chunk);
      return tee?.(chunk);
    });
    reader.end();
  } catch (error) {
    if (error instanceof BundleRefusedError) throw error;
    if (error instanceof GzipError) throw new BundleRefusedError(error.rule, `${error.message} (${at()})`);
    if (error instanceof TarFormatError)
      throw new BundleRefusedError("tar-format", `${error.message} (${at()})`);
    if ((error as { code?: string }).code?.startsWith("Z_")) {
      throw new BundleRefusedError("gzip-format", `corrupt gzip data: ${(error as Error).message}`);
    }
    throw error;
  }
  if (!reader.ended)
    throw new BundleRefusedError("tar-format", "the tar archive has no end-of-archive blocks");
  if (reader.trailingNonZero > 0) {
    throw new BundleRefusedError(
      "tar-trailing-data",
      `${reader.trailingNonZero} non-zero bytes after the end of the tar archive`,
    );
  }
  return listing.finish();
}
