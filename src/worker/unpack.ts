// Unpacks a bundle in the same pass that validates it (design §8): each entry is written by us, as
// soon as it has passed every check that needs only what came before it, and a refused bundle's
// partial tree is removed before the refusal is reported. What lands on disk is the validated listing
// by construction: directories made from it, files and symlinks created where nothing was
// (O_EXCL, O_NOFOLLOW), below directories we made ourselves.

import {
  closeSync,
  constants,
  futimesSync,
  lutimesSync,
  mkdirSync,
  openSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import {
  type BundleListing,
  BundleRefusedError,
  type EntrySink,
  type FileSink,
  verifyBundle,
} from "./verify-bundle.js";
import { removeTree } from "./workspace.js";

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** What git checks out: only the executable bit of a file's mode is the bundle's. */
const FILE_MODE = 0o644;
const EXECUTABLE_MODE = 0o755;
const DIRECTORY_MODE = 0o755;

/**
 * The tar header's mtime on each file and symlink, as the baseline's index records it: git then
 * takes the tree as clean without reading it back (and the time is in the past, so not "racy").
 */
function mtimeOf(mtime: number): number {
  return Math.max(0, mtime);
}

function failed(path: string, error: unknown): BundleRefusedError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new BundleRefusedError("extract-failed", `could not be written (${why})`, path);
}

/** Writes the validated entries under `root`, which this process made and nothing else writes to. */
class TreeWriter implements EntrySink {
  /** The file being written, closed by `abort` when the bundle is refused halfway through it. */
  private fd: number | undefined;

  constructor(private readonly root: string) {}

  directory(path: string): void {
    try {
      mkdirSync(`${this.root}/${path}`, DIRECTORY_MODE);
    } catch (error) {
      throw failed(path, error);
    }
  }

  symlink(path: string, target: string, mtime: number): void {
    const full = `${this.root}/${path}`;
    try {
      symlinkSync(target, full);
      lutimesSync(full, mtimeOf(mtime), mtimeOf(mtime));
    } catch (error) {
      throw failed(path, error);
    }
  }

  file(path: string, mode: number, mtime: number): FileSink {
    let fd: number;
    try {
      fd = openSync(`${this.root}/${path}`, CREATE, mode & 0o100 ? EXECUTABLE_MODE : FILE_MODE);
    } catch (error) {
      throw failed(path, error);
    }
    this.fd = fd;
    return {
      write: (chunk) => {
        try {
          for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
        } catch (error) {
          throw failed(path, error);
        }
      },
      end: () => {
        this.fd = undefined;
        try {
          futimesSync(fd, mtimeOf(mtime), mtimeOf(mtime));
        } catch (error) {
          throw failed(path, error);
        } finally {
          closeSync(fd);
        }
      },
    };
  }

  abort(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Validates the whole listing and unpacks it into `tree` (which must not exist), from one gunzip
 * pass; a refused bundle leaves nothing behind. `signal` (the request's deadline) stops it.
 */
export async function verifyAndUnpack(
  bundle: string,
  size: number,
  expectedFiles: number,
  tree: string,
  signal?: AbortSignal,
): Promise<BundleListing> {
  mkdirSync(tree, { mode: 0o700 });
  const writer = new TreeWriter(tree);
  try {
    return await verifyBundle(bundle, size, expectedFiles, {
      sink: writer,
      check: () => signal?.throwIfAborted(),
    });
  } catch (error) {
    writer.abort();
    removeTree(tree);
    throw error;
  }
}
