// drainPipe reads what a pipe holds while its writer still has it open: the local worker's answer is
// taken that way once the worker has said its exit code, before the pipe's end comes.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drainPipe } from "../../src/os/pipe.js";

const dir = mkdtempSync(join(tmpdir(), "rr-pipe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A FIFO's two ends, the reading one non-blocking (as libuv opens a child's pipes). */
function fifo(name: string): { reader: number; writer: number } {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  return { reader, writer };
}

describe("drainPipe", () => {
  it("reads everything the pipe holds, in order, with the writer still open", () => {
    const { reader, writer } = fifo("full");
    const sent = Buffer.alloc(60_000);
    for (let i = 0; i < sent.length; i++) sent[i] = i % 251;
    for (let at = 0; at < sent.length; ) at += writeSync(writer, sent, at);
    const chunks: Buffer[] = [];
    expect(drainPipe(reader, (chunk) => chunks.push(Buffer.from(chunk)))).toBe(sent.length);
    expect(Buffer.concat(chunks).equals(sent)).toBe(true);
    // Nothing more until more is written; then only that.
    expect(drainPipe(reader, () => undefined)).toBe(0);
    writeSync(writer, "tail\n");
    const more: Buffer[] = [];
    drainPipe(reader, (chunk) => more.push(Buffer.from(chunk)));
    expect(Buffer.concat(more).toString()).toBe("tail\n");
    closeSync(writer);
    expect(drainPipe(reader, () => undefined)).toBe(0);
    closeSync(reader);
  });
});
