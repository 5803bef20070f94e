// Unpacks a bundle in the same pass that validates it (design §8): each entry is written by us, as
// soon as it has passed every check that needs only what came before it, and a refused bundle's
// partial tree is removed before the refusal is reported. What lands on disk is the validated listing
// by construction: directories made from it, files and symlinks created where nothing was
// (O_EXCL, O_NOFOLLOW), below directories we made ourselves.
//
// The system calls (some 100k of them for 27k files, a third of the unpack's time) run on a thread
// of their own while this one inflates, parses, checks and hashes: the validated entries go to it
// in batches of records, in order, with flow control. A small bundle's records are run here, by the
// same code, as each batch fills: the thread would cost more to start than it saves.

import * as fs from "node:fs";
import { Worker } from "node:worker_threads";
import {
  type BundleListing,
  BundleRefusedError,
  type EntrySink,
  type FileSink,
  verifyBundle,
} from "./verify-bundle.js";
import { removeTree } from "./workspace.js";

const DIRECTORY = 0x44; // D <path>
const SYMLINK = 0x53; // S <path> <target> <mtime>
const FILE = 0x46; // F <path> <executable> <mtime>: the file later records write to
const WRITE = 0x57; // W <u32 length> <bytes>
const END = 0x45; // E: the file is complete

/** Bytes of records sent at once; a batch is written while the next one fills. */
const BATCH_BYTES = 512 * 1024;
/**
 * Batches sent and not yet written before the validating pass waits. Each one comes back once
 * written and is filled again: memory stays at (MAX_IN_FLIGHT + 1) batches, whatever the bundle.
 */
const MAX_IN_FLIGHT = 4;
/** Room for one record's header: two names of at most MAX_PATH_BYTES (4096), lengths and a time. */
const RECORD_ROOM = 2 * 4096 + 32;

/**
 * What runs the records (CommonJS, evaluated as is: on the writing thread, or on this thread for a
 * small bundle, the same source either way). Files get git's modes (644, or 755 with the executable
 * bit), directories 755, files and symlinks the header's mtime as the baseline's index records it
 * (never negative; in the past, so git does not take them as "racy"). `path` is the last one named,
 * for a failure; `abort` closes what it holds open.
 */
const RECORDS = `
function recordWriter(fs, root) {
  const CREATE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
  let fd = -1;
  let mtime = 0;
  let path = "";
  function text(batch, at) {
    const length = batch.readUInt16LE(at);
    return [batch.toString("utf8", at + 2, at + 2 + length), at + 2 + length];
  }
  function run(batch) {
    let at = 0;
    while (at < batch.length) {
      const type = batch[at++];
      if (type === ${WRITE}) {
        const length = batch.readUInt32LE(at);
        at += 4;
        for (let done = 0; done < length; ) done += fs.writeSync(fd, batch, at + done, length - done);
        at += length;
      } else if (type === ${END}) {
        const open = fd;
        fd = -1;
        try { fs.futimesSync(open, mtime, mtime); } finally { fs.closeSync(open); }
      } else if (type === ${FILE}) {
        [path, at] = text(batch, at);
        const executable = batch[at++] === 1;
        mtime = Math.max(0, batch.readDoubleLE(at));
        at += 8;
        fd = fs.openSync(root + "/" + path, CREATE, executable ? 0o755 : 0o644);
      } else if (type === ${DIRECTORY}) {
        [path, at] = text(batch, at);
        fs.mkdirSync(root + "/" + path, 0o755);
      } else if (type === ${SYMLINK}) {
        let target;
        [path, at] = text(batch, at);
        [target, at] = text(batch, at);
        const time = Math.max(0, batch.readDoubleLE(at));
        at += 8;
        fs.symlinkSync(target, root + "/" + path);
        fs.lutimesSync(root + "/" + path, time, time);
      } else {
        throw new Error("unknown record " + type);
      }
    }
  }
  function abort() {
    if (fd !== -1) fs.closeSync(fd);
    fd = -1;
  }
  return { run, abort, path: () => path };
}
`;

/** The writing thread: runs each batch it is sent. After a failure it writes nothing more and reports the path. */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
${RECORDS}
const writer = recordWriter(require("node:fs"), workerData.root);
let failed = false;
parentPort.on("message", (message) => {
  if (message === "end") return parentPort.postMessage(failed ? "failed" : "done");
  if (message === "abort") {
    writer.abort();
    return parentPort.postMessage("aborted");
  }
  if (!failed) {
    try {
      writer.run(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
    } catch (error) {
      failed = true;
      parentPort.postMessage({ path: writer.path(), why: error.code || error.message });
    }
  }
  // The batch goes back, to be filled again.
  parentPort.postMessage(message, [message.buffer]);
});
`;

interface RecordWriter {
  run(batch: Buffer): void;
  abort(): void;
  path(): string;
}

/** The records' runner on this thread: RECORDS itself, so that both ways write the same tree. */
function inlineWriter(root: string): RecordWriter {
  const make = new Function(`${RECORDS}\nreturn recordWriter;`)() as (
    filesystem: typeof fs,
    root: string,
  ) => RecordWriter;
  return make(fs, root);
}

/**
 * Up to this many files, the tree is written on the unpacking thread itself: a writing thread costs
 * some 22 ms of CPU to start (an isolate, node's bootstrap), more than it saves on the system calls
 * of a small tree, and a local review's worker starts while its client exports, on the same cores.
 * Measured on tmpfs, 2 busy cores, the thread started and online before the clock: inline vs thread
 * 12 vs 11 ms wall (10 vs 32 ms CPU) for 200 files, 30 vs 27 (33 vs 57) for 1000, 47-59 vs 52-62
 * (51-59 vs 89-91) for 2000; at 5000 files either way (108-153 vs 113-145 ms), at 20000 the thread
 * wins when a core is free (446 vs 591 ms).
 */
const INLINE_MAX_FILES = 2000;

/** Whether a bundle of `files` files is unpacked with a writing thread (else on the unpacking thread). */
export function wantsWritingThread(files: number): boolean {
  return files > INLINE_MAX_FILES;
}

/**
 * The writing thread for a tree at `root`, started before there is anything to write: a thread takes
 * some 20 ms to start, which a worker spends reading the bundle anyway. Unreferenced until a
 * TreeWriter takes it; whoever started it terminates it if none does.
 */
export function startWritingThread(root: string): Worker {
  const thread = new Worker(THREAD, { eval: true, workerData: { root } });
  thread.unref();
  return thread;
}

/**
 * The validated entries as records, in batches of BATCH_BYTES, each handed to `send` when full. A
 * TreeWriter has them written on its thread, an InlineWriter here.
 */
abstract class RecordBatcher implements EntrySink {
  protected batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  protected used = 0;
  protected failure: BundleRefusedError | undefined;

  constructor(protected readonly signal: AbortSignal | undefined) {}

  /** Hands the batch on; it is empty (`used` 0) after. */
  protected abstract send(): void;
  /** After each chunk: a write failure refuses the bundle; a writer far behind holds the pass. */
  abstract pace(): Promise<void> | undefined;
  /** Sends the rest and waits until all of it is written. */
  abstract finish(): Promise<void>;
  /** Stops, with nothing of the tree left open. */
  abstract abort(): Promise<void>;

  directory(path: string): void {
    this.room(RECORD_ROOM);
    this.batch[this.used++] = DIRECTORY;
    this.text(path);
  }

  symlink(path: string, target: string, mtime: number): void {
    this.room(RECORD_ROOM);
    this.batch[this.used++] = SYMLINK;
    this.text(path);
    this.text(target);
    this.used = this.batch.writeDoubleLE(mtime, this.used);
  }

  file(path: string, mode: number, mtime: number): FileSink {
    this.room(RECORD_ROOM);
    this.batch[this.used++] = FILE;
    this.text(path);
    this.batch[this.used++] = mode & 0o100 ? 1 : 0;
    this.used = this.batch.writeDoubleLE(mtime, this.used);
    return {
      write: (chunk) => {
        for (let at = 0; at < chunk.length; ) {
          this.room(5 + 1);
          const length = Math.min(chunk.length - at, BATCH_BYTES - this.used - 5);
          this.batch[this.used] = WRITE;
          this.batch.writeUInt32LE(length, this.used + 1);
          this.used += 5 + chunk.copy(this.batch, this.used + 5, at, at + length);
          at += length;
        }
      },
      end: () => {
        this.room(1);
        this.batch[this.used++] = END;
      },
    };
  }

  private text(value: string): void {
    const length = this.batch.write(value, this.used + 2, "utf8");
    this.batch.writeUInt16LE(length, this.used);
    this.used += 2 + length;
  }

  /** Sends the batch when `bytes` more would not fit. */
  private room(bytes: number): void {
    if (this.used + bytes > BATCH_BYTES) this.send();
  }
}

function writeFailure(path: string, why: string): BundleRefusedError {
  return new BundleRefusedError("extract-failed", `could not be written (${why})`, path);
}

/**
 * Writes each batch on this thread as it fills (a small bundle: see INLINE_MAX_FILES), with the
 * writing thread's own code (RECORDS), so the tree is the same either way.
 */
class InlineWriter extends RecordBatcher {
  private readonly writer: RecordWriter;

  constructor(root: string, signal: AbortSignal | undefined) {
    super(signal);
    this.writer = inlineWriter(root);
  }

  protected send(): void {
    if (this.used === 0) return;
    const full = this.batch.subarray(0, this.used);
    this.used = 0;
    // After a failure nothing more is written; the pass stops at its next chunk.
    if (this.failure) return;
    try {
      this.writer.run(full);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      this.failure = writeFailure(this.writer.path(), code || message);
    }
  }

  pace(): undefined {
    this.signal?.throwIfAborted();
    if (this.failure) throw this.failure;
    return undefined;
  }

  async finish(): Promise<void> {
    this.send();
    this.pace();
  }

  async abort(): Promise<void> {
    this.writer.abort();
  }
}

/** Sends the validated entries to the writing thread, which writes them under `root`. */
class TreeWriter extends RecordBatcher {
  private readonly thread: Worker;
  /** Batches back from the thread, written. */
  private readonly spare: Buffer<ArrayBuffer>[] = [];
  private inFlight = 0;
  /** Wakes the validating pass: a batch was written, the thread answered, failed or exited. */
  private wake: (() => void) | undefined;
  private readonly replies: string[] = [];

  /** `signal` (the request's deadline) ends every wait for the thread; `thread`: one already started. */
  constructor(root: string, signal: AbortSignal | undefined, thread?: Worker) {
    super(signal);
    signal?.addEventListener("abort", () => this.wakeUp(), { once: true });
    this.thread = thread ?? startWritingThread(root);
    this.thread.ref();
    if (this.thread.threadId === -1)
      this.failure = new BundleRefusedError("extract-failed", "the writing thread stopped");
    this.thread.on("message", (message: Uint8Array | string | { path: string; why: string }) => {
      if (message instanceof Uint8Array) {
        this.inFlight--;
        this.spare.push(Buffer.from(message.buffer as ArrayBuffer, 0, BATCH_BYTES));
      } else if (typeof message === "string") this.replies.push(message);
      else this.failure = writeFailure(message.path, message.why);
      this.wakeUp();
    });
    const stopped = (error?: Error) => {
      this.failure ??= new BundleRefusedError(
        "extract-failed",
        `the writing thread stopped${error ? `: ${error.message}` : ""}`,
      );
      this.wakeUp();
    };
    this.thread.on("error", stopped);
    this.thread.on("exit", () => stopped());
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private next(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  protected send(): void {
    if (this.used === 0) return;
    const full = this.batch.subarray(0, this.used);
    this.thread.postMessage(full, [full.buffer as ArrayBuffer]);
    this.inFlight++;
    this.batch = this.spare.pop() ?? Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.used = 0;
  }

  /** Waits while `busy` holds, the thread has not failed and the deadline has not passed. */
  private async waitWhile(busy: () => boolean): Promise<void> {
    while (!this.failure && !this.signal?.aborted && busy()) await this.next();
    this.signal?.throwIfAborted();
    if (this.failure) throw this.failure;
  }

  pace(): Promise<void> | undefined {
    this.signal?.throwIfAborted();
    if (this.failure) throw this.failure;
    return this.inFlight < MAX_IN_FLIGHT ? undefined : this.waitWhile(() => this.inFlight >= MAX_IN_FLIGHT);
  }

  async finish(): Promise<void> {
    this.send();
    this.thread.postMessage("end");
    await this.waitWhile(() => this.replies.length === 0);
    // All is written: nothing waits for the thread to stop.
    void this.thread.terminate();
  }

  /** Past the deadline: at once. */
  async abort(): Promise<void> {
    if (!this.failure && !this.signal?.aborted) {
      this.thread.postMessage("abort");
      await this.waitWhile(() => !this.replies.includes("aborted")).catch(() => undefined);
    }
    await this.thread.terminate();
  }
}

export interface UnpackOptions {
  /** The request's deadline: stops the unpack. */
  signal?: AbortSignal;
  /** A writing thread already started (startWritingThread) for `tree`. */
  thread?: Worker;
  /**
   * Where the tree is written: on a writing thread, or here. By default the bundle's size decides
   * (wantsWritingThread); a thread given is used.
   */
  writing?: "thread" | "inline";
  /** Compute the blob ids as the bundle streams by (verifyBundle's option; by default, yes). */
  blobIds?: boolean;
  /** Also shown each file's content as it is written (a file it gives no sink for, none). */
  observe?: (path: string) => FileSink | undefined;
}

/** `writer`'s entries, each file's content shown to `observe` too. */
function teeSink(writer: EntrySink, observe: (path: string) => FileSink | undefined): EntrySink {
  return {
    directory: (path) => writer.directory(path),
    symlink: (path, target, mtime) => writer.symlink(path, target, mtime),
    file(path, mode, mtime) {
      const out = writer.file(path, mode, mtime);
      const seen = observe(path);
      if (!seen) return out;
      return {
        write(chunk) {
          out.write(chunk);
          seen.write(chunk);
        },
        end() {
          out.end();
          seen.end();
        },
      };
    },
  };
}

/**
 * Validates the whole listing and unpacks it into `tree` (which must not exist), from one gunzip
 * pass; a refused bundle leaves nothing behind.
 */
export async function verifyAndUnpack(
  bundle: string,
  size: number,
  expectedFiles: number,
  tree: string,
  { signal, thread, writing, blobIds, observe }: UnpackOptions = {},
): Promise<BundleListing> {
  fs.mkdirSync(tree, { mode: 0o700 });
  const inline =
    (writing ?? (thread || wantsWritingThread(expectedFiles) ? "thread" : "inline")) === "inline";
  const writer = inline ? new InlineWriter(tree, signal) : new TreeWriter(tree, signal, thread);
  try {
    const listing = await verifyBundle(bundle, size, expectedFiles, {
      sink: observe ? teeSink(writer, observe) : writer,
      afterChunk: () => writer.pace(),
      blobIds,
    });
    await writer.finish();
    return listing;
  } catch (error) {
    await writer.abort();
    removeTree(tree);
    throw error;
  }
}
