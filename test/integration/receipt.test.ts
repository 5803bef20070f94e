// Receipts signed and verified by the real ssh-keygen with keys, certificates and an ssh-agent made here.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode, InvalidResultError } from "../../src/errors.js";
import type { Receipt, Result } from "../../src/protocol/result.js";
import { verifyCommand } from "../../src/receipt/describe.js";
import { SigningKeyError, SshKeygenError } from "../../src/receipt/errors.js";
import { createReceipt, signStatement } from "../../src/receipt/sign.js";
import { subjectsOf } from "../../src/receipt/statement.js";
import { checkReceipt, ReceiptStatus, verifyReceipt } from "../../src/receipt/verify.js";
import { sampleRequest, sampleResult } from "../helpers/receipts.js";
import { createKeyDir, type KeyPair, signerLine } from "../helpers/ssh-keys.mjs";

const keys = createKeyDir();
afterAll(() => keys.remove());

const request = sampleRequest();
const started = new Date("2024-01-01T00:00:00Z");
const finished = new Date("2024-01-01T00:00:02Z");

/** A result as the worker sends it: signed with `key`, the receipt inside. */
async function signedResult(key: string, forRequest = request, env?: NodeJS.ProcessEnv) {
  const result = sampleResult(forRequest);
  const receipt = await createReceipt(
    {
      subjects: subjectsOf(forRequest),
      result,
      reviewers: ["hygiene"],
      startedOn: started,
      finishedOn: finished,
    },
    key,
    env ? { env } : {},
  );
  return { ...result, receipt };
}

function check(received: Result & { receipt?: Receipt }, allowedSigners: string, principal = "box") {
  return checkReceipt({
    receipt: received.receipt,
    principal,
    allowedSigners,
    sent: subjectsOf(request),
    received,
  });
}

const ed25519 = keys.key("ed25519");
const boxSigners = keys.allowedSigners([signerLine("box", ed25519.public)]);

describe("receipts: good signatures", () => {
  it.each(["ed25519", "ecdsa", "rsa"] as const)("verifies a result signed with an %s key", async (type) => {
    const key = type === "ed25519" ? ed25519 : keys.key(type);
    const received = await signedResult(key.private);
    const verdict = await check(received, keys.allowedSigners([signerLine("box", key.public)]));
    expect(verdict).toEqual({
      status: ReceiptStatus.good,
      principal: "box",
      keyType: type.toUpperCase(),
      fingerprint: key.fingerprint,
    });
  });

  it("prints an ssh-keygen command that verifies the stored files without this tool", async () => {
    const received = await signedResult(ed25519.private);
    const receipt = received.receipt as Receipt;
    const dir = join(keys.dir, "stored review");
    mkdirSync(dir);
    const files = { statement: join(dir, "statement.json"), signature: join(dir, "statement.sig") };
    writeFileSync(files.statement, receipt.statement);
    writeFileSync(files.signature, receipt.signature);
    const command = verifyCommand({ ...files, allowedSigners: boxSigners, principal: "box" });
    expect(command).toBe(
      `ssh-keygen -Y verify -f ${boxSigners} -I box -n git-review-remote@v1 -s '${files.signature}' < '${files.statement}'`,
    );
    const shell = spawnSync("sh", ["-c", command], { encoding: "utf8" });
    expect(shell.status).toBe(0);
    expect(shell.stdout).toContain(
      `Good "git-review-remote@v1" signature for box with ED25519 key ${ed25519.fingerprint}`,
    );
  });

  it("signs with a public key file whose private half only ssh-agent holds", async () => {
    const key = keys.key("ed25519");
    const env = keys.agent([key]);
    rmSync(key.private);
    const received = await signedResult(key.public, request, env);
    const verdict = await check(received, keys.allowedSigners([signerLine("box", key.public)]));
    expect(verdict).toMatchObject({ status: ReceiptStatus.good, fingerprint: key.fingerprint });
    await expect(signedResult(key.public, request, { ...env, SSH_AUTH_SOCK: "" })).rejects.toThrow(
      /no private key for .*: it is neither beside it nor loaded in ssh-agent/,
    );
  });

  it("accepts a key certified by a cert-authority line for this worker, and no other", async () => {
    const ca = keys.key("ed25519");
    const worker = keys.key("ed25519");
    const cert = keys.certify(ca, worker, "box");
    const received = await signedResult(cert);
    const signers = keys.allowedSigners([signerLine("box", ca.public, "cert-authority")]);
    expect(await check(received, signers)).toMatchObject({
      status: ReceiptStatus.good,
      keyType: "ED25519-CERT",
      fingerprint: worker.fingerprint,
    });
    const forOther = keys.allowedSigners([signerLine("other", ca.public, "cert-authority")]);
    expect((await check(received, forOther, "other")).status).toBe(ReceiptStatus.untrusted);
  });
});

describe("receipts: refused", () => {
  it("names the result as changed when one comment was edited after signing", async () => {
    const received = await signedResult(ed25519.private);
    const tampered = { ...received, comments: [{ ...received.comments[0], message: "All good." }] } as Result;
    const verdict = await check(tampered, boxSigners);
    expect(verdict.status).toBe(ReceiptStatus.mismatch);
    expect(verdict.reason).toMatch(/the result differs from the one the receipt vouches for/);
  });

  it("refuses a genuine statement about another bundle replayed with this result", async () => {
    const other = sampleRequest("d".repeat(64));
    const replayed = {
      ...sampleResult(request),
      receipt: (await signedResult(ed25519.private, other)).receipt,
    };
    const verdict = await check(replayed, boxSigners);
    expect(verdict.status).toBe(ReceiptStatus.mismatch);
    expect(verdict.reason).toBe(
      `the receipt is about another bundle: it does not name bundle ${"b".repeat(64)}`,
    );
  });

  it("names the key of a signature that holds but is not in allowed signers", async () => {
    const stranger = keys.key("ed25519");
    const verdict = await check(await signedResult(stranger.private), boxSigners);
    expect(verdict).toEqual({
      status: ReceiptStatus.untrusted,
      principal: "box",
      keyType: "ED25519",
      fingerprint: stranger.fingerprint,
      reason: `the receipt is signed with ED25519 key ${stranger.fingerprint}, which is not an allowed signer for worker 'box'`,
    });
  });

  it("refuses a key whose valid-before has passed", async () => {
    const signers = keys.allowedSigners([signerLine("box", ed25519.public, 'valid-before="20200101"')]);
    const verdict = await check(await signedResult(ed25519.private), signers);
    expect(verdict.status).toBe(ReceiptStatus.untrusted);
    expect(verdict.reason).toMatch(/not accepted for worker 'box': .*key has expired/);
  });

  it("refuses a key allowed only for other namespaces", async () => {
    const signers = keys.allowedSigners([signerLine("box", ed25519.public, 'namespaces="git"')]);
    const verdict = await check(await signedResult(ed25519.private), signers);
    expect(verdict.status).toBe(ReceiptStatus.untrusted);
    expect(verdict.reason).toMatch(/not permitted for use in signature namespace/);
  });

  it("refuses a signature made for another namespace (a git commit signature)", async () => {
    const result = sampleResult(request);
    const statement = (await signedResult(ed25519.private)).receipt?.statement as string;
    const signature = execFileSync("ssh-keygen", ["-Y", "sign", "-n", "git", "-f", ed25519.private], {
      input: statement,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    });
    const verdict = await check({ ...result, receipt: { statement, signature } }, boxSigners);
    expect(verdict.status).toBe(ReceiptStatus.bad);
    expect(verdict.reason).toMatch(/does not verify: .*namespace does not match/);
  });

  it("refuses a statement edited after signing", async () => {
    const received = await signedResult(ed25519.private);
    const receipt = received.receipt as Receipt;
    const statement = receipt.statement.replace('"bwrap"', '"none!"');
    const verdict = await check({ ...received, receipt: { ...receipt, statement } }, boxSigners);
    expect(verdict.status).toBe(ReceiptStatus.bad);
    expect(verdict.reason).toMatch(/does not verify: .*incorrect signature/);
  });

  it("refuses an unsigned result with exit 4 where a signature is required, and lets it through otherwise", async () => {
    const result = sampleResult(request);
    const checked = {
      receipt: undefined,
      principal: "box",
      allowedSigners: boxSigners,
      sent: subjectsOf(request),
      received: result,
    };
    const error = await verifyReceipt(checked, { required: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect((error as InvalidResultError).exitCode).toBe(ExitCode.invalidResult);
    expect((error as InvalidResultError).message).toBe(
      "rejected the result of worker 'box': it has no valid receipt; nothing was imported",
    );
    expect((error as InvalidResultError).details).toEqual([
      "the result of worker 'box' carries no signed receipt",
    ]);
    expect((error as InvalidResultError).hints[0]).toMatch(/--sign-key/);
    expect(await verifyReceipt(checked, { required: false })).toMatchObject({
      status: ReceiptStatus.unsigned,
    });
  });

  it("rejects every refused receipt with exit 4, even where signatures are optional", async () => {
    const stranger = keys.key("ed25519");
    const received = await signedResult(stranger.private);
    const checked = {
      receipt: received.receipt,
      principal: "box",
      allowedSigners: boxSigners,
      sent: subjectsOf(request),
      received,
    };
    await expect(verifyReceipt(checked, { required: false })).rejects.toMatchObject({
      exitCode: ExitCode.invalidResult,
      details: [expect.stringMatching(/not an allowed signer for worker 'box'/)],
    });
  });

  it("refuses a signature that is not armored before running ssh-keygen", async () => {
    const received = await signedResult(ed25519.private);
    const receipt = {
      statement: (received.receipt as Receipt).statement,
      signature: "-----BEGIN SSH SIGNATURE-----\n",
    };
    const verdict = await check({ ...received, receipt }, boxSigners);
    expect(verdict).toEqual({
      status: ReceiptStatus.bad,
      principal: "box",
      reason: "the receipt's signature is not an armored SSH signature",
    });
  });

  it("refuses a statement over the size limit", async () => {
    const received = await signedResult(ed25519.private);
    const receipt = { ...(received.receipt as Receipt), statement: "x".repeat(70_000) };
    const verdict = await check({ ...received, receipt }, boxSigners);
    expect(verdict.reason).toBe("the receipt's statement is 70000 bytes, over the limit of 65536");
  });
});

describe("receipts: local setup problems are errors, not verdicts", () => {
  it("names a missing allowed-signers file (exit 2)", async () => {
    const received = await signedResult(ed25519.private);
    await expect(check(received, join(keys.dir, "missing_signers"))).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: expect.stringMatching(
        /^cannot read allowed signers file .*missing_signers: No such file or directory$/,
      ),
    });
  });

  it("names a missing signing key (exit 2)", async () => {
    const error = await signStatement("{}", join(keys.dir, "nothing")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SigningKeyError);
    expect((error as SigningKeyError).exitCode).toBe(ExitCode.usage);
    expect((error as SigningKeyError).message).toMatch(/^signing key .*nothing does not exist$/);
  });

  it("explains that a passphrase-protected key must go through ssh-agent", async () => {
    const key: KeyPair = keys.key("ed25519", { passphrase: "secret words" });
    const error = await signStatement("{}", key.private).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SigningKeyError);
    expect((error as SigningKeyError).message).toMatch(/is protected by a passphrase/);
    expect((error as SigningKeyError).hints[0]).toContain(`--sign-key ${key.private}.pub`);
  });

  it("says to chmod a private key others can read, which ssh-keygen ignores", async () => {
    const key = keys.key("ed25519");
    chmodSync(key.private, 0o644);
    await expect(signStatement("{}", key.private)).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: `ssh-keygen ignores signing key ${key.private}: others can read it`,
      hints: [`chmod 600 ${key.private}`],
    });
  });

  it("says when the file named is not a key at all", async () => {
    const file = join(keys.dir, "notes.txt");
    writeFileSync(file, "not a key\n");
    await expect(signStatement("{}", file)).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: `signing key ${file} is not a key ssh-keygen can use`,
    });
  });

  it("says what to install when ssh-keygen is missing", async () => {
    const error = await signStatement("{}", ed25519.private, { env: { PATH: keys.dir } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SshKeygenError);
    expect((error as SshKeygenError).message).toBe("ssh-keygen was not found in PATH");
    expect((error as SshKeygenError).hints[0]).toMatch(/openssh-client/);
  });
});
