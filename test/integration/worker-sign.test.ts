// The worker signing its results (design §12): `--sign-key` or REVIEW_REMOTE_SIGN_KEY, real ssh-keygen
// keys made here, the receipt checked as the local side checks it.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import type { Result } from "../../src/protocol/result.js";
import { createReceipt } from "../../src/receipt/sign.js";
import { parseStatement, subjectsOf } from "../../src/receipt/statement.js";
import { checkReceipt, ReceiptStatus } from "../../src/receipt/verify.js";
import { renderResult } from "../../src/worker/result.js";
import { createKeyDir, signerLine } from "../helpers/ssh-keys.mjs";
import { envelope, makeRequest, runWorkerOn, startWorker, TARS, useWorkspaceRoot } from "./worker-helpers.js";

const workspaces = useWorkspaceRoot();
const keys = createKeyDir();
afterAll(() => keys.remove());

const bundle = readFileSync(join(TARS, "00-benign-git-archive.tar.gz"));
const key = keys.key("ed25519");
const signers = keys.allowedSigners([signerLine("box", key.public)]);
const startedOn = new Date("2024-01-01T00:00:00Z");

async function verdictOf(stdout: string, request = makeRequest(bundle)) {
  const received = JSON.parse(stdout) as Result;
  return checkReceipt({
    receipt: received.receipt,
    principal: "box",
    allowedSigners: signers,
    sent: subjectsOf(request),
    received,
  });
}

describe("worker: signed results", () => {
  it("puts a receipt in the result that verifies for exactly this request and result", async () => {
    const request = makeRequest(bundle);
    const run = await runWorkerOn(envelope(request, bundle), { signKey: key.private });
    expect(run.code, run.stderr).toBe(0);
    expect(await verdictOf(run.stdout, request)).toEqual({
      status: ReceiptStatus.good,
      principal: "box",
      keyType: "ED25519",
      fingerprint: key.fingerprint,
    });
    const { receipt } = JSON.parse(run.stdout) as Result;
    const parsed = parseStatement(receipt?.statement ?? "");
    expect(parsed.ok && parsed.statement.predicate).toMatchObject({
      reviewers: ["hygiene"],
      worker: { name: "git-review-remote" },
    });
  });

  it("signs the failed result it sends instead of one the receipt takes over the request's limits", async () => {
    const request = makeRequest(bundle, { limits: { ...DEFAULT_LIMITS, maxResultBytes: 2000 } });
    const comments = Array.from({ length: 12 }, (_, index) => ({
      path: "a.txt",
      line: index + 1,
      severity: "info" as const,
      message: "Trailing whitespace here.",
    }));
    const output = { status: "ok" as const, summary: "Notes.", comments, commits: [] };
    const sign = (result: Result) =>
      createReceipt(
        { subjects: subjectsOf(request), result, reviewers: ["hygiene"], startedOn, finishedOn: startedOn },
        key.private,
      );
    expect(Buffer.byteLength(await renderResult(request, "none", output))).toBeLessThan(2000);
    const text = await renderResult(request, "none", output, { sign });
    const result = JSON.parse(text) as Result;
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/over the limit of 2000/);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2000);
    expect((await verdictOf(text, request)).status).toBe(ReceiptStatus.good);
  });

  it("sends no receipt without a key", async () => {
    const run = await runWorkerOn(envelope(makeRequest(bundle), bundle));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).not.toHaveProperty("receipt");
  });
});

describe("worker as a subprocess: --sign-key and REVIEW_REMOTE_SIGN_KEY", () => {
  it("signs with the key REVIEW_REMOTE_SIGN_KEY names", async () => {
    const { child, done } = startWorker([], {
      root: workspaces.root,
      env: { REVIEW_REMOTE_SIGN_KEY: key.private },
    });
    child.stdin?.end(envelope(makeRequest(bundle), bundle));
    const run = await done;
    expect(run.code, run.stderr).toBe(0);
    expect((await verdictOf(run.stdout)).status).toBe(ReceiptStatus.good);
  });

  it("signs with a public key file whose private half only ssh-agent holds", async () => {
    const held = keys.key("ed25519");
    const agent = keys.agent([held]);
    rmSync(held.private);
    const { child, done } = startWorker(["--sign-key", held.public], {
      root: workspaces.root,
      env: { SSH_AUTH_SOCK: agent.SSH_AUTH_SOCK as string },
    });
    child.stdin?.end(envelope(makeRequest(bundle), bundle));
    const run = await done;
    expect(run.code, run.stderr).toBe(0);
    const received = JSON.parse(run.stdout) as Result;
    const verdict = await checkReceipt({
      receipt: received.receipt,
      principal: "box",
      allowedSigners: keys.allowedSigners([signerLine("box", held.public)]),
      sent: subjectsOf(makeRequest(bundle)),
      received,
    });
    expect(verdict).toMatchObject({ status: ReceiptStatus.good, fingerprint: held.fingerprint });
  });

  it("sends nothing, exit 2, when its key needs a passphrase no one can type", async () => {
    const locked = keys.key("ed25519", { passphrase: "secret words" });
    const { child, done } = startWorker(["--sign-key", locked.private], { root: workspaces.root });
    child.stdin?.end(envelope(makeRequest(bundle), bundle));
    const run = await done;
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`signing key ${locked.private} is protected by a passphrase`);
    expect(await workspaces.settled()).toEqual([]);
  });

  it("refuses a missing key with exit 2 and nothing on stdout, before reviewing", async () => {
    const missing = join(keys.dir, "no-such-key");
    const { child, done } = startWorker(["--sign-key", missing], { root: workspaces.root });
    child.stdin?.end(envelope(makeRequest(bundle), bundle));
    const run = await done;
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`signing key ${missing} does not exist`);
    expect(await workspaces.settled()).toEqual([]);
  });
});
