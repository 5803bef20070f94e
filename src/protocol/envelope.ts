// Envelope framing of wire protocol v1 (design §6): one request line, then exactly bundle.bytes bytes.
// The reader refuses an oversized line early and streams the bundle to a private file with flat memory,
// so a hostile or broken sender can neither exhaust the worker nor smuggle bytes past the hash. The
// writer's side, the request line, is request-line.ts's.

import { createHash } from "node:crypto";
import { type FileHandle, open, rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { EnvelopeError, EnvelopeErrorKind } from "./errors.js";
import { parseRequest } from "./parse-request.js";
import type { Request } from "./request.js";
import { MAX_REQUEST_LINE_BYTES as DEFAULT_MAX_REQUEST_LINE_BYTES } from "./request-check.js";

const NEWLINE = 0x0a;

/**
 * Reader side, step 1: the bytes of the first line, without its "\n". Refuses a line longer than
 * `maxBytes` as soon as that many bytes have arrived without a newline. Bytes after the newline stay in
 * `input` for readBundle. On error the input is left as is; the caller decides whether to destroy it.
 */
export function readRequestLine(input: Readable, maxBytes = DEFAULT_MAX_REQUEST_LINE_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (error: Error | null, line?: Buffer, rest?: Buffer) => {
      input.off("readable", onReadable);
      input.off("end", onEnd);
      input.off("error", onError);
      if (rest !== undefined && rest.length > 0) input.unshift(rest);
      if (error) reject(error);
      else resolve(line ?? Buffer.alloc(0));
    };
    const onReadable = () => {
      for (let chunk = input.read(); chunk !== null; chunk = input.read()) {
        if (!(chunk instanceof Uint8Array))
          return finish(new TypeError("readRequestLine needs a byte stream"));
        const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        const newline = buffer.indexOf(NEWLINE);
        const taken = newline === -1 ? buffer.length : newline;
        if (length + taken > maxBytes) return finish(lineTooLong(maxBytes));
        chunks.push(newline === -1 ? buffer : buffer.subarray(0, newline));
        length += taken;
        if (newline !== -1) return finish(null, Buffer.concat(chunks, length), buffer.subarray(newline + 1));
      }
    };
    const onEnd = () =>
      finish(
        new EnvelopeError(
          EnvelopeErrorKind.noRequestLine,
          length === 0 ? "empty input: no request line" : "input ended before the request line did",
        ),
      );
    const onError = (error: Error) => finish(error);
    if (input.readableEnded || input.destroyed) return onEnd();
    input.on("readable", onReadable);
    input.once("end", onEnd);
    input.once("error", onError);
  });
}

function lineTooLong(maxBytes: number): EnvelopeError {
  return new EnvelopeError(
    EnvelopeErrorKind.requestLineTooLong,
    `request line longer than ${maxBytes} bytes`,
  );
}

/**
 * Reader side, step 2: streams exactly `expectedBytes` bytes of `input` into a new file at `bundlePath`
 * (created with flag "wx", mode 0600) and reads on to the end of input to prove nothing follows.
 * Returns the sha256 hex of the bytes written. On any error the file is removed (unless it already
 * existed, which fails before anything is read). Never buffers more than one chunk.
 */
export async function readBundle(
  input: Readable,
  expectedBytes: number,
  bundlePath: string,
): Promise<string> {
  if (!Number.isSafeInteger(expectedBytes) || expectedBytes < 0) {
    throw new TypeError(`readBundle: expected size must be a non-negative integer, got ${expectedBytes}`);
  }
  const file = await open(bundlePath, "wx", 0o600);
  const hash = createHash("sha256");
  let received = 0;
  let complete = false;
  try {
    // The iterator pulls the next chunk only after the write below finished: that is the backpressure.
    for await (const chunk of input) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError("readBundle needs a byte stream");
      if (received + chunk.length > expectedBytes) {
        throw new EnvelopeError(EnvelopeErrorKind.trailingData, "trailing data after the bundle");
      }
      hash.update(chunk);
      await writeAll(file, chunk);
      received += chunk.length;
    }
    if (received < expectedBytes) {
      throw new EnvelopeError(
        EnvelopeErrorKind.shortBundle,
        `short bundle: got ${received} of ${expectedBytes} bytes`,
      );
    }
    complete = true;
    return hash.digest("hex");
  } finally {
    await file.close();
    if (!complete) await rm(bundlePath, { force: true });
  }
}

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

export interface ReadEnvelopeOptions {
  /** Where the bundle goes: a path that must not exist yet, in a private directory. */
  bundlePath: string;
  maxRequestLineBytes?: number;
  /** A larger bundle.bytes is refused before a byte of it is read. */
  maxBundleBytes?: number;
  /** The request, parsed and within maxBundleBytes, before its bundle is read. */
  onRequest?(request: Request): void;
}

export interface Envelope {
  request: Request;
  /** The request line exactly as received, without "\n" (for REVIEW_REMOTE_REQUEST). */
  requestLine: Buffer;
  bundlePath: string;
}

/**
 * The whole worker-side check of design §8, before anything is unpacked: request line (capped), strict
 * JSON, v1 schema, id, then the bundle streamed to `bundlePath` with its size and sha256 verified.
 * Throws EnvelopeError (problem lines in `details`); the bundle file exists only on success.
 */
export async function readEnvelope(input: Readable, options: ReadEnvelopeOptions): Promise<Envelope> {
  const requestLine = await readRequestLine(
    input,
    options.maxRequestLineBytes ?? DEFAULT_MAX_REQUEST_LINE_BYTES,
  );
  const parsed = parseRequest(requestLine);
  if (!parsed.ok) {
    throw new EnvelopeError(EnvelopeErrorKind.invalidRequest, "invalid request", {
      details: parsed.problems,
    });
  }
  const { request } = parsed;
  if (options.maxBundleBytes !== undefined && request.bundle.bytes > options.maxBundleBytes) {
    throw new EnvelopeError(
      EnvelopeErrorKind.bundleTooLarge,
      `bundle of ${request.bundle.bytes} bytes refused: the worker takes at most ${options.maxBundleBytes}`,
    );
  }
  options.onRequest?.(request);
  const sha256 = await readBundle(input, request.bundle.bytes, options.bundlePath);
  if (sha256 !== request.bundle.sha256) {
    await rm(options.bundlePath, { force: true });
    throw new EnvelopeError(
      EnvelopeErrorKind.bundleMismatch,
      `bundle sha256 mismatch: got ${sha256}, the request says ${request.bundle.sha256}`,
    );
  }
  return { request, requestLine, bundlePath: options.bundlePath };
}
