// Validates an untrusted bundle (design §8): the whole listing is read with our strict tar parser, and
// any entry that could write outside the tree, mean different things to different extractors, or
// exhaust the machine refuses the whole bundle. An entry reaches the sink (the unpacked tree) only
// once it passed every check that needs only what came before it.
import { BlobHasher, ObjectType, objectId } from "../git/write/objects.js";
import {
  checkComponent,
  checkEntryText,
  checkLinkTarget,
  checkSymlink,
  collision,
  type RuleViolation,
} from "../paths/bundle.js";
import { collisionKey } from "../paths/fold.js";
import { quoteForMessage } from "../protocol/quote.js";
import { plural } from "../report/plural.js";
import { type TarEntry, TarFormatError, TarReader, TarType } from "../tar/reader.js";
import { type BundleLimits, DEFAULT_BUNDLE_LIMITS } from "./bundle-limits.js";
import { GzipError, gunzipFile } from "./gunzip.js";
import { ListedNodes, type NodeKind, TOP } from "./listed-nodes.js";

/** What the bundle holds once validated: the exact expected state of the extracted tree. */
export interface BundleListing {
  nodes: ListedNodes;
  /** Regular files and symlinks (the request's bundle.files). */
  files: number;
  expandedBytes: number;
  /**
   * Whether every file and symlink carries its blob id. Without them (verifyBundle's `blobIds`
   * false) an id is only there for what a built-in reviewer kept before rewriting it, until
   * `addBlobIds` reads the bundle again.
   */
  blobIds: boolean;
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
  index: number;
  hash: BlobHasher | undefined;
  out: FileSink | undefined;
}

/** Where one file's content goes as it streams by. */
export interface FileSink {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * Receives each entry as soon as it has passed every check that needs only what came before it,
 * parents first: the unpacked tree written in the same pass. Checks of the whole listing (where
 * symlinks lead, empty directories, the file count) come after the last entry, so a sink must be
 * undone when the listing is refused. `mtime` is the header's, -1 when unknown.
 */
export interface EntrySink {
  directory(path: string): void;
  symlink(path: string, target: string, mtime: number): void;
  file(path: string, mode: number, mtime: number): FileSink;
}

type Refuse = (v: RuleViolation) => never;

const SLASH = 0x2f;

/** True when `path` starts with `prefix` and `prefix` is `end` characters long. */
function isPrefixAt(path: string, prefix: string, end: number): boolean {
  return prefix.length === end && path.startsWith(prefix);
}

/** Checks the components of `path` from offset `from` on (those above were checked when listed). */
function checkNewComponents(path: string, from: number, refuse: Refuse): void {
  for (let start = from; ; ) {
    const slash = path.indexOf("/", start);
    const bad = checkComponent(slash === -1 ? path.slice(start) : path.slice(start, slash));
    if (bad) refuse(bad);
    if (slash === -1) return;
    start = slash + 1;
  }
}

class ListingBuilder {
  readonly nodes = new ListedNodes();
  /** The directories from the top down to the last one placed: where the next entry most likely goes. */
  private readonly openDirectories: number[] = [];
  private entries = 0;
  private open: OpenBlob | undefined;
  /** By index: directories with a file or symlink somewhere below them. */
  private readonly filled: boolean[] = [];
  files = 0;
  expandedBytes = 0;

  constructor(
    private readonly expectedFiles: number,
    private readonly limits: BundleLimits,
    private readonly sink: EntrySink | undefined,
    private readonly blobIds: boolean,
  ) {}

  /** Validates `entry` and places it; for a file, returns the consumer of its content. */
  add(entry: TarEntry): ((chunk: Buffer) => void) | undefined {
    const refuse: Refuse = (v) => {
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
    if (entry.size !== entry.headerSize) {
      // A reader that ignores the pax record reads the content as headers of other entries.
      refuse({
        rule: "pax-size",
        reason: `a pax size of ${entry.size} over a header size of ${entry.headerSize} (readers that ignore pax see other entries)`,
      });
    }
    if (entry.size > this.limits.maxExpandedBytes - this.expandedBytes) {
      refuse({
        rule: "expanded-size",
        reason: `declares ${entry.size} bytes, more than the bundle may expand to (${this.limits.maxExpandedBytes})`,
      });
    }
    if (entry.mode & SPECIAL_MODE_BITS)
      refuse({ rule: "special-mode", reason: "setuid, setgid or sticky mode bits" });
    const path = checkEntryText(entry.path, kind === "directory");
    if (typeof path !== "string") return refuse(path);
    const slash = path.lastIndexOf("/");
    const listed = this.deepestListed(path, slash);
    checkNewComponents(path, listed === TOP ? 0 : this.nodes.pathAt(listed).length + 1, refuse);
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
    const parent = this.placeParents(path, slash, listed, refuse);
    const index = this.place(path, slash, parent, kind, entry, refuse);
    return this.hashContent(path, index, kind, entry);
  }

  /**
   * The deepest directory above `path` already listed (or TOP), or the file or symlink listed where
   * one of them should be: the open directories answer in the bundle's order (git archive lists a
   * directory, then what it holds), the listing's own names below the deepest of them.
   */
  private deepestListed(path: string, slash: number): number {
    const open = this.openDirectories;
    while (open.length > 0) {
      const above = this.nodes.pathAt(open[open.length - 1] as number);
      if (above.length <= slash && path.charCodeAt(above.length) === SLASH && path.startsWith(above)) break;
      open.pop();
    }
    let at = open.length > 0 ? (open[open.length - 1] as number) : TOP;
    for (let start = at === TOP ? 0 : this.nodes.pathAt(at).length + 1; start < slash; ) {
      const end = path.indexOf("/", start);
      const child = this.nodes.childOf(at, collisionKey(path.slice(start, end)));
      if (child === undefined || !isPrefixAt(path, this.nodes.pathAt(child), end)) break;
      at = child;
      // Nothing is listed below a file or a symlink.
      if (!this.nodes.isDirectoryAt(at)) break;
      open.push(at);
      start = end + 1;
    }
    return at;
  }

  /** A symlink's blob is its target; a file's is hashed (and written) as its content streams by. */
  private hashContent(
    path: string,
    index: number,
    kind: NodeKind,
    entry: TarEntry,
  ): ((chunk: Buffer) => void) | undefined {
    if (kind === "symlink") {
      if (this.blobIds)
        this.nodes.setOid(index, objectId(ObjectType.blob, Buffer.from(entry.linkpath, "utf8")));
      return undefined;
    }
    if (kind !== "file") return undefined;
    const open: OpenBlob = {
      index,
      hash: this.blobIds ? new BlobHasher(entry.size) : undefined,
      out: this.sink?.file(path, entry.mode, entry.mtime),
    };
    this.open = open;
    return (chunk) => {
      open.hash?.update(chunk);
      open.out?.write(chunk);
    };
  }

  /** The end of an entry's content: a file's blob id is complete. */
  endEntry(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.hash) this.nodes.setOid(open.index, open.hash.digest());
    open.out?.end();
  }

  /** Places `path` in directory `parent`: a new entry, or an implicit directory made explicit. */
  private place(
    path: string,
    slash: number,
    parent: number,
    kind: NodeKind,
    entry: TarEntry,
    refuse: Refuse,
  ): number {
    if (kind !== "directory") this.fill(parent);
    const mode = entry.mode & 0o777;
    const key = collisionKey(slash === -1 ? path : path.slice(slash + 1));
    const existing = this.nodes.childOf(parent, key);
    if (existing === undefined) {
      const node = {
        kind,
        explicit: true,
        size: entry.size,
        mode,
        linkpath: entry.linkpath,
        mtime: entry.mtime,
      };
      return this.record(parent, key, path, node);
    }
    const other = this.nodes.pathAt(existing);
    if (other !== path) refuse(collision(other));
    const existingKind = this.nodes.kindAt(existing);
    if (existingKind === "directory" && kind === "directory" && !this.nodes.at(existing).explicit) {
      this.nodes.makeExplicit(existing, mode, entry.mtime);
      this.openDirectories.push(existing);
      return existing;
    }
    if (existingKind === "directory" && kind !== "directory") {
      refuse({ rule: "replaces-directory", reason: `a ${kind} replacing a directory of the same name` });
    }
    return refuse({ rule: "duplicate", reason: "the same name appears twice" });
  }

  /**
   * Lists the directories above `path` below `listed` (its deepest listed one, deepestListed) as
   * implicit ones, top first, and refuses a parent that is a symlink or a file, or a new one whose
   * name folds onto one already there. A listed directory's own parents were placed with it, and
   * none of them can become anything else later (that is a duplicate). The directory holding `path`.
   */
  private placeParents(path: string, slash: number, listed: number, refuse: Refuse): number {
    if (listed !== TOP && !this.nodes.isDirectoryAt(listed)) {
      const parent = quoteForMessage(this.nodes.pathAt(listed));
      if (this.nodes.kindAt(listed) === "symlink")
        refuse({ rule: "through-symlink", reason: `written through the symlink ${parent}` });
      refuse({ rule: "under-file", reason: `its parent ${parent} is a file` });
    }
    let at = listed;
    // Below the first new directory, every name is new.
    let fresh = false;
    for (let start = at === TOP ? 0 : this.nodes.pathAt(at).length + 1; start < slash; ) {
      const end = path.indexOf("/", start);
      const key = collisionKey(path.slice(start, end));
      const other = fresh ? undefined : this.nodes.childOf(at, key);
      if (other !== undefined) refuse(collision(this.nodes.pathAt(other)));
      const node = {
        kind: "directory",
        explicit: false,
        size: 0,
        mode: 0o755,
        linkpath: "",
        mtime: -1,
      } as const;
      at = this.record(at, key, path.slice(0, end), node);
      fresh = true;
      start = end + 1;
    }
    return at;
  }

  /** Marks `directory` and those above it as holding a file or symlink, up to the first already marked. */
  private fill(directory: number): void {
    for (let at = directory; at !== TOP && !this.filled[at]; at = this.nodes.parentAt(at))
      this.filled[at] = true;
  }

  private record(
    parent: number,
    key: string,
    path: string,
    node: { kind: NodeKind; explicit: boolean; size: number; mode: number; linkpath: string; mtime: number },
  ): number {
    const index = this.nodes.add(parent, key, path, node);
    if (node.kind === "directory") {
      this.openDirectories.push(index);
      this.sink?.directory(path);
    } else if (node.kind === "symlink") this.sink?.symlink(path, node.linkpath, node.mtime);
    return index;
  }

  /**
   * git archive writes a directory only on the way to a file: a directory with nothing below it is
   * no part of a snapshot (and would let a bundle hold any number of entries for free).
   */
  private verifyNoEmptyDirectories(): void {
    for (let index = 0; index < this.nodes.size; index++) {
      if (this.nodes.kindAt(index) === "directory" && !this.filled[index]) {
        const path = this.nodes.pathAt(index);
        throw new BundleRefusedError("empty-directory", "a directory with no file below it", path);
      }
    }
  }

  /** Checks that need the whole listing: where each symlink really points. */
  finish(): BundleListing {
    const links = new Map<string, string>();
    for (let index = 0; index < this.nodes.size; index++) {
      if (this.nodes.kindAt(index) === "symlink")
        links.set(this.nodes.pathAt(index), this.nodes.linkpathAt(index));
    }
    for (const [path, target] of links) {
      const bad = checkSymlink(path, target, links);
      if (bad) throw new BundleRefusedError(bad.rule, bad.reason, path);
    }
    this.verifyNoEmptyDirectories();
    if (this.files !== this.expectedFiles) {
      throw new BundleRefusedError(
        "file-count",
        `the bundle holds ${plural(this.files, "file or symlink", "files and symlinks")}, the request's bundle.files says ${this.expectedFiles}`,
      );
    }
    return { nodes: this.nodes, files: this.files, expandedBytes: this.expandedBytes, blobIds: this.blobIds };
  }
}

export interface VerifyOptions {
  limits?: BundleLimits;
  /** Receives each entry once it passed the checks that need only what came before it. */
  sink?: EntrySink;
  /**
   * Called after each decompressed chunk went through: throwing stops the reading (a deadline, a
   * sink's failure), a promise holds it until it settles (a sink's flow control).
   */
  afterChunk?: () => void | Promise<void>;
  /**
   * Compute each file's and symlink's blob id (the default): a baseline names every blob by it.
   * A worker whose built-in reviewer most often builds no baseline leaves them for later.
   */
  blobIds?: boolean;
}

/**
 * Reads the whole bundle (gzip → tar listing) and returns the validated listing, with each file's
 * blob id unless told not to, or throws BundleRefusedError naming the entry and the rule. Nothing is written but what
 * `sink` writes.
 */
export async function verifyBundle(
  file: string,
  size: number,
  expectedFiles: number,
  { limits = DEFAULT_BUNDLE_LIMITS, sink, afterChunk, blobIds = true }: VerifyOptions = {},
): Promise<BundleListing> {
  const listing = new ListingBuilder(expectedFiles, limits, sink, blobIds);
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
      return afterChunk?.();
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
