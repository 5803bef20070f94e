import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/protocol/jcs.js";
import { envelope, makeRequest, runWorkerOn, TARS, useWorkspaceRoot } from "./worker-helpers.js";

useWorkspaceRoot({ emptyAfterEach: true });

const bundle = readFileSync(join(TARS, "00-benign-git-archive.tar.gz"));

/** A request line whose `id` is recomputed after `edit`, so only the edited rule is broken. */
function editedRequestLine(edit: (request: Record<string, unknown>) => void, rehash = true): Buffer {
  const request = makeRequest(bundle) as unknown as Record<string, unknown>;
  edit(request);
  if (rehash) {
    const { id: _id, ...body } = request;
    request.id = createHash("sha256").update(canonicalJson(body)).digest("hex");
  }
  return Buffer.from(`${JSON.stringify(request)}\n`);
}

describe("worker envelope", () => {
  it("refuses a 100 MB request line after reading about 1 MiB, with nothing on stdout", async () => {
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const input = new Readable({
      read() {
        if (sent >= 100 * 1024 * 1024) return this.push(null);
        sent += chunk.length;
        this.push(chunk);
      },
    });
    const run = await runWorkerOn(input);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("request line longer than 1048576 bytes");
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  });

  it("refuses a short bundle", async () => {
    const run = await runWorkerOn(envelope(makeRequest(bundle), bundle.subarray(0, bundle.length - 10)));
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toMatch(/^git-review-remote worker: short bundle: got \d+ of \d+ bytes/m);
  });

  it("refuses extra bytes after the bundle", async () => {
    const run = await runWorkerOn(Buffer.concat([envelope(makeRequest(bundle), bundle), Buffer.from("x")]));
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toContain("trailing data after the bundle");
  });

  it("refuses a bundle whose sha256 is not the request's", async () => {
    const tampered = Buffer.from(bundle);
    tampered[100] = (tampered[100] as number) ^ 1;
    const run = await runWorkerOn(envelope(makeRequest(bundle), tampered));
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toContain("bundle sha256 mismatch");
  });

  it("refuses a request whose id does not match its content", async () => {
    const line = editedRequestLine((request) => {
      request.question = "Something else";
    }, false);
    const run = await runWorkerOn(Buffer.concat([line, bundle]));
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(/id: [0-9a-f]{64} does not match/);
  });

  it("names an unknown request schema", async () => {
    const line = editedRequestLine((request) => {
      request.schema = "git-review-remote/request@2";
    });
    const run = await runWorkerOn(Buffer.concat([line, bundle]));
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toContain('unsupported request schema "git-review-remote/request@2"');
  });

  it("refuses a request that is not JSON, and empty input", async () => {
    expect(await runWorkerOn(Buffer.from("hello\n"))).toMatchObject({ code: 2, stdout: "" });
    const empty = await runWorkerOn(Buffer.alloc(0));
    expect(empty).toMatchObject({ code: 2, stdout: "" });
    expect(empty.stderr).toContain("no request line");
  });

  it("refuses conflicting or unknown reviewer options before reading anything", async () => {
    const both = await runWorkerOn(Buffer.alloc(0), {
      reviewer: "hygiene",
      reviewerCommands: [{ command: "true", format: "comments" }],
    });
    expect(both).toMatchObject({ code: 2, stdout: "" });
    const unknown = await runWorkerOn(Buffer.alloc(0), { reviewer: "nope" });
    expect(unknown.stderr).toContain('unknown reviewer "nope"');
  });
});
