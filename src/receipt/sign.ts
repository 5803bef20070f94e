// Worker side of a receipt: sign the statement about a result with `ssh-keygen -Y sign`, using a private
// key file or, as ssh-keygen allows, a public key file whose private half is held by ssh-agent.

import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { messages } from "../messages.js";
import { ARMORED_SIGNATURE, type Receipt } from "../protocol/result.js";
import { SigningKeyError, SshKeygenError } from "./errors.js";
import { lastLine, runSshKeygen, type SshKeygenOptions, signArgs } from "./ssh-keygen.js";
import { buildStatement, renderStatement, type StatementInput } from "./statement.js";

/** Builds the statement about a result and signs its exact bytes. */
export async function createReceipt(
  input: StatementInput,
  keyFile: string,
  options: SshKeygenOptions = {},
): Promise<Receipt> {
  const statement = renderStatement(buildStatement(input));
  return { statement, signature: await signStatement(statement, keyFile, options) };
}

/** The armored SSH signature of `statement` (its UTF-8 bytes) in the receipt namespace. */
export async function signStatement(
  statement: string,
  keyFile: string,
  options: SshKeygenOptions = {},
): Promise<string> {
  const key = resolve(keyFile);
  await verifySigningKey(key);
  const outcome = await runSshKeygen(signArgs(key), statement, options);
  if (outcome.exitCode !== 0) throw signingFailure(key, outcome.stderr);
  if (!ARMORED_SIGNATURE.test(outcome.stdout)) {
    throw new SshKeygenError(messages.sshKeygenFailed("sign", "it printed no armored signature"));
  }
  return outcome.stdout;
}

/**
 * ssh-keygen says "Couldn't load public key" for a missing file: check first, and name the real cause.
 * The worker checks before it reviews, so a mistyped --sign-key fails at once, not after the review.
 */
export async function verifySigningKey(key: string): Promise<void> {
  try {
    const info = await stat(key);
    if (!info.isFile()) throw new SigningKeyError(messages.signKeyUnreadable(key, "not a regular file"));
    await access(key, constants.R_OK);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new SigningKeyError(messages.signKeyMissing(key), { cause: error });
    throw new SigningKeyError(messages.signKeyUnreadable(key, code ?? String(error)), { cause: error });
  }
}

/**
 * ssh-keygen's reasons (OpenSSH 9.x wording), turned into what to do about them. Most specific first:
 * a key file ignored for its mode also ends in "No private key found".
 */
function signingFailure(key: string, stderr: string): Error {
  if (/UNPROTECTED PRIVATE KEY FILE/.test(stderr)) {
    return new SigningKeyError(messages.signKeyTooOpen(key), { hints: [messages.hintSignKeyTooOpen(key)] });
  }
  if (/passphrase/i.test(stderr)) {
    return new SigningKeyError(messages.signKeyPassphrase(key), {
      hints: [messages.hintSignKeyPassphrase(key)],
    });
  }
  if (/No private key found/.test(stderr)) {
    return new SigningKeyError(messages.signKeyNoPrivateHalf(key), { hints: [messages.hintSignKeyAgent] });
  }
  if (/Couldn't load public key|invalid format/.test(stderr)) {
    return new SigningKeyError(messages.signKeyInvalid(key));
  }
  return new SshKeygenError(messages.sshKeygenFailed("sign", lastLine(stderr)));
}
