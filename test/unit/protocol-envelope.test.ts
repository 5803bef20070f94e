import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readBundle, readEnvelope, readRequestLine } from "../../src/protocol/envelope.js";
import { EnvelopeError, ProtocolError } from "../../src/protocol/errors.js";
import { canonicalJson } from "../../src/protocol/jcs.js";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { parseRequest } from "../../src/protocol/parse-request.js";
import { createRequest, type Request } from "../../src/protocol/request.js";
import { MAX_QUESTION_BYTES } from "../../src/protocol/request-check.js";
import { computeRequestId, envelopeHeader } from "../../src/protocol/request-line.js";

const CHUNK = 64 * 1024;
let dir: string;
let bundlePath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "grr-envelope-"));
  bundlePath = join(dir, "bundle.tar.gz");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function requestFor(bundle: Buffer, question = "Review this change."): Request {
  return createRequest({
    bundle: { sha256: sha256(bundle), bytes: bundle.length, format: "tar+gzip", files: 1 },
    snapshot: { commit: "d".repeat(40), kind: "commit" },
    range: null,
    question,
    actions: ["comment", "propose"],
    forbiddenPaths: [],
    limits: { ...DEFAULT_LIMITS },
  });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function pseudoRandom(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A byte stream (not object mode) fed in the given pieces. */
function streamOf(...pieces: Uint8Array[]): Readable {
  const stream = new PassThrough();
  for (const piece of pieces) stream.write(piece);
  stream.end();
  return stream;
}

/** Splits bytes into chunks of `size`, as a pipe would deliver them. */
function chunked(bytes: Buffer, size: number): Readable {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces);
}

async function failureOf(promise: Promise<unknown>): Promise<EnvelopeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EnvelopeError);
  return error as EnvelopeError;
}

describe("envelopeHeader", () => {
  it("is the request as one line of JSON and a newline, even with newlines in the question", () => {
    const request = requestFor(Buffer.from("x"), "line one\nline two\u2028");
    const header = envelopeHeader(request);
    expect(header.at(-1)).toBe(0x0a);
    expect(header.indexOf(0x0a)).toBe(header.length - 1);
    expect(parseRequest(header.subarray(0, -1))).toEqual({ ok: true, request });
  });

  it("refuses a request whose id does not match", () => {
    const request = { ...requestFor(Buffer.from("x")), question: "changed" };
    expect(() => envelopeHeader(request)).toThrow(ProtocolError);
  });
});

describe("readEnvelope", () => {
  it("reads the request and streams the bundle to a new 0600 file", async () => {
    const bundle = pseudoRandom(300_000);
    const request = requestFor(bundle);
    const header = envelopeHeader(request);
    const envelope = await readEnvelope(streamOf(header, bundle), { bundlePath });
    expect(envelope.request).toEqual(request);
    expect(envelope.requestLine.equals(header.subarray(0, -1))).toBe(true);
    expect(envelope.bundlePath).toBe(bundlePath);
    expect(readFileSync(bundlePath).equals(bundle)).toBe(true);
    expect(statSync(bundlePath).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["one byte at a time", 1],
    ["in 7-byte pieces", 7],
    ["in pipe-sized chunks", CHUNK],
    ["all at once", Number.MAX_SAFE_INTEGER],
  ])("frames correctly when the input arrives %s", async (_name, size) => {
    const bundle = pseudoRandom(size === 1 ? 5000 : 200_000, size);
    const request = requestFor(bundle);
    const all = Buffer.concat([envelopeHeader(request), bundle]);
    const envelope = await readEnvelope(chunked(all, size), { bundlePath });
    expect(envelope.request.id).toBe(request.id);
    expect(sha256(readFileSync(bundlePath))).toBe(request.bundle.sha256);
  });

  it("accepts an empty bundle", async () => {
    const request = requestFor(Buffer.alloc(0));
    await readEnvelope(streamOf(envelopeHeader(request)), { bundlePath });
    expect(readFileSync(bundlePath)).toHaveLength(0);
  });

  it("refuses a bundle over maxBundleBytes before reading a byte of it", async () => {
    const bundle = pseudoRandom(1000);
    const input = streamOf(envelopeHeader(requestFor(bundle)), bundle);
    const error = await failureOf(readEnvelope(input, { bundlePath, maxBundleBytes: 999 }));
    expect(error.kind).toBe("bundle-too-large");
    expect(error.message).toBe("bundle of 1000 bytes refused: the worker takes at most 999");
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses a short bundle and removes the partial file", async () => {
    const bundle = pseudoRandom(1000);
    const error = await failureOf(
      readEnvelope(streamOf(envelopeHeader(requestFor(bundle)), bundle.subarray(0, 999)), { bundlePath }),
    );
    expect(error.kind).toBe("short-bundle");
    expect(error.message).toBe("short bundle: got 999 of 1000 bytes");
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses one extra byte in the same chunk as the bundle", async () => {
    const bundle = pseudoRandom(1000);
    const all = Buffer.concat([envelopeHeader(requestFor(bundle)), bundle, Buffer.from("x")]);
    const error = await failureOf(readEnvelope(streamOf(all), { bundlePath }));
    expect(error.kind).toBe("trailing-data");
    expect(error.message).toBe("trailing data after the bundle");
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses extra bytes that arrive in a later chunk", async () => {
    const bundle = pseudoRandom(1000);
    const error = await failureOf(
      readEnvelope(streamOf(envelopeHeader(requestFor(bundle)), bundle, Buffer.from("\n")), { bundlePath }),
    );
    expect(error.message).toBe("trailing data after the bundle");
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses a bundle whose sha256 differs from the request's", async () => {
    const bundle = pseudoRandom(1000);
    const forged = Buffer.from(bundle);
    forged[500] = (forged[500] ?? 0) ^ 1;
    const error = await failureOf(
      readEnvelope(streamOf(envelopeHeader(requestFor(bundle)), forged), { bundlePath }),
    );
    expect(error.kind).toBe("bundle-mismatch");
    expect(error.message).toMatch(
      /^bundle sha256 mismatch: got [0-9a-f]{64}, the request says [0-9a-f]{64}$/,
    );
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses an invalid request before reading or writing any bundle byte", async () => {
    const bundle = pseudoRandom(1000);
    const request = { ...requestFor(bundle), question: "tampered" };
    const line = Buffer.from(`${JSON.stringify(request)}\n`);
    const error = await failureOf(readEnvelope(streamOf(line, bundle), { bundlePath }));
    expect(error.kind).toBe("invalid-request");
    expect(error.details).toEqual([
      expect.stringMatching(/^id: [0-9a-f]{64} does not match the request's content/),
    ]);
    expect(existsSync(bundlePath)).toBe(false);
  });

  it("refuses a question no reviewer's environment can carry, or globs past the cap, before reading the bundle", async () => {
    const bundle = pseudoRandom(1000);
    for (const [question, problem] of [
      ["why\u0000this", "question: must not hold a NUL character"],
      ["\u00e9".repeat(MAX_QUESTION_BYTES / 2 + 1), `question: must be at most ${MAX_QUESTION_BYTES} bytes`],
    ]) {
      // Written as a client that skips the check would: the id is the hash of this very content.
      const body = { ...requestFor(bundle), question };
      const line = Buffer.from(`${canonicalJson({ ...body, id: computeRequestId(body) })}\n`);
      const error = await failureOf(readEnvelope(streamOf(line, bundle), { bundlePath }));
      expect(error.kind).toBe("invalid-request");
      expect(error.details).toEqual([problem]);
      expect(existsSync(bundlePath)).toBe(false);
    }
    const globs = {
      ...requestFor(bundle),
      forbiddenPaths: Array.from({ length: 1025 }, (_, i) => `d${i}/**`),
    };
    const many = Buffer.from(`${canonicalJson({ ...globs, id: computeRequestId(globs) })}\n`);
    const error = await failureOf(readEnvelope(streamOf(many, bundle), { bundlePath }));
    expect(error.details).toEqual(["forbiddenPaths: must not list more than 1024 items"]);
    expect(existsSync(bundlePath)).toBe(false);
    // At the limit it is a question like any other.
    const longest = requestFor(bundle, "q".repeat(MAX_QUESTION_BYTES));
    await readEnvelope(streamOf(envelopeHeader(longest), bundle), { bundlePath });
    expect(statSync(bundlePath).size).toBe(1000);
  });

  it("refuses to overwrite an existing bundle path and leaves that file alone", async () => {
    writeFileSync(bundlePath, "precious");
    const bundle = pseudoRandom(10);
    await expect(
      readEnvelope(streamOf(envelopeHeader(requestFor(bundle)), bundle), { bundlePath }),
    ).rejects.toThrow(/EEXIST/);
    expect(readFileSync(bundlePath, "utf8")).toBe("precious");
  });

  it("reads a real pipe from a child process", async () => {
    const bundle = pseudoRandom(3 * 1024 * 1024, 7);
    const source = join(dir, "envelope.bin");
    writeFileSync(source, Buffer.concat([envelopeHeader(requestFor(bundle)), bundle]));
    const child = spawn(
      process.execPath,
      ["-e", `require("fs").createReadStream(${JSON.stringify(source)}).pipe(process.stdout)`],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const envelope = await readEnvelope(child.stdout, { bundlePath });
    expect(envelope.request.bundle.bytes).toBe(bundle.length);
    expect(readFileSync(bundlePath).equals(bundle)).toBe(true);
  });
});

describe("readRequestLine", () => {
  it("leaves the bytes after the newline in the stream", async () => {
    const input = streamOf(Buffer.from('{"a":1}\nrest'), Buffer.from("-more"));
    expect((await readRequestLine(input)).toString()).toBe('{"a":1}');
    const rest: Buffer[] = [];
    for await (const chunk of input) rest.push(chunk);
    expect(Buffer.concat(rest).toString()).toBe("rest-more");
  });

  it("accepts a line of exactly the cap and refuses one byte more", async () => {
    const line = Buffer.alloc(100, 0x61);
    expect(await readRequestLine(streamOf(line, Buffer.from("\n")), 100)).toHaveLength(100);
    const error = await failureOf(readRequestLine(streamOf(line, Buffer.from("a\n")), 99));
    expect(error.kind).toBe("request-line-too-long");
    expect(error.message).toBe("request line longer than 99 bytes");
  });

  it("refuses a 100 MB line after reading little more than the cap", async () => {
    const piece = Buffer.alloc(CHUNK, 0x7b);
    let pulled = 0;
    async function* hundredMegabytes() {
      for (; pulled < 100 * 1024 * 1024; pulled += CHUNK) yield piece;
    }
    const input = Readable.from(hundredMegabytes(), { objectMode: false });
    const error = await failureOf(readRequestLine(input));
    expect(error.kind).toBe("request-line-too-long");
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
    input.destroy();
  });

  it("refuses empty input and input that ends inside the line", async () => {
    expect((await failureOf(readRequestLine(streamOf()))).message).toBe("empty input: no request line");
    const error = await failureOf(readRequestLine(streamOf(Buffer.from('{"schema":'))));
    expect(error.kind).toBe("no-request-line");
    expect(error.message).toBe("input ended before the request line did");
  });

  it("refuses an input that is already closed instead of waiting forever", async () => {
    const input = new PassThrough();
    input.destroy();
    expect((await failureOf(readRequestLine(input))).kind).toBe("no-request-line");
  });

  it("passes on a stream error", async () => {
    const input = new PassThrough();
    const pending = readRequestLine(input);
    input.destroy(new Error("broken pipe"));
    await expect(pending).rejects.toThrow("broken pipe");
  });
});

describe("readBundle", () => {
  it("streams with backpressure: the producer never runs far ahead of the file", async () => {
    const total = 48 * 1024 * 1024;
    const piece = pseudoRandom(CHUNK, 3);
    const expected = createHash("sha256");
    let produced = 0;
    let maxAhead = 0;
    async function* source() {
      for (; produced < total; produced += CHUNK) {
        const written = existsSync(bundlePath) ? statSync(bundlePath).size : 0;
        maxAhead = Math.max(maxAhead, produced - written);
        expected.update(piece);
        yield piece;
      }
    }
    const hex = await readBundle(Readable.from(source(), { objectMode: false }), total, bundlePath);
    expect(hex).toBe(expected.digest("hex"));
    expect(statSync(bundlePath).size).toBe(total);
    expect(maxAhead).toBeLessThan(2 * 1024 * 1024);
  });

  it("rejects a size that is not a non-negative integer", async () => {
    await expect(readBundle(streamOf(), -1, bundlePath)).rejects.toThrow(TypeError);
    await expect(readBundle(streamOf(), 1.5, bundlePath)).rejects.toThrow(TypeError);
    expect(existsSync(bundlePath)).toBe(false);
  });
});
