import { describe, expect, it } from "vitest";
import { ResultSchema } from "../../src/protocol/result.js";
import { describeVerdict, verifyCommand } from "../../src/receipt/describe.js";
import { checkStatementContent } from "../../src/receipt/match.js";
import { parseGoodSignature } from "../../src/receipt/ssh-keygen.js";
import {
  buildStatement,
  renderStatement,
  resultDigest,
  type Statement,
  subjectsOf,
} from "../../src/receipt/statement.js";
import { ReceiptStatus } from "../../src/receipt/verify.js";
import { sampleRequest, sampleResult } from "../helpers/receipts.js";

const request = sampleRequest();
const sent = subjectsOf(request);
const result = sampleResult(request);

const statement = buildStatement({
  subjects: sent,
  result,
  reviewers: ["hygiene"],
  startedOn: new Date(0),
  finishedOn: new Date(1000),
});

const withSubjects = (subject: Statement["subject"]) => renderStatement({ ...statement, subject });

// Real ssh-keygen 9.x output lines, as `-Y verify` and `-Y check-novalidate` print them.
const FINGERPRINT = "SHA256:7DLlz8+tyrwtd+xxz1fvXL/XjfWSwoGgP6nMcdI1Dpo";

describe("receipt statement against what was sent and received", () => {
  it("fits the review it was made for", () => {
    expect(checkStatementContent(renderStatement(statement), sent, result)).toBeUndefined();
  });

  it("names the subject that differs", () => {
    const text = renderStatement(statement);
    expect(checkStatementContent(text, { ...sent, requestId: "e".repeat(64) }, result)).toBe(
      `the receipt is about another request: it does not name request ${"e".repeat(64)}`,
    );
    expect(checkStatementContent(text, { ...sent, snapshotCommit: "f".repeat(40) }, result)).toBe(
      `the receipt is about another snapshot: it does not name snapshot ${"f".repeat(40)}`,
    );
  });

  it("refuses a statement naming a subject twice, as it is ambiguous", () => {
    const [bundle, request, snapshot] = statement.subject;
    const twice = withSubjects([
      bundle,
      request,
      snapshot,
      { name: "bundle.tar.gz", digest: { sha256: "0".repeat(64) } },
    ] as Statement["subject"]);
    expect(checkStatementContent(twice, sent, result)).toMatch(/^the receipt is about another bundle/);
  });

  it("refuses a statement whose worker differs from the result's", () => {
    const received = { ...result, worker: { ...result.worker, sandbox: "none" } };
    const text = renderStatement({
      ...statement,
      predicate: { ...statement.predicate, resultSha256: resultDigest(received) },
    });
    expect(checkStatementContent(text, sent, received)).toBe(
      "the receipt names another worker program than the result does",
    );
  });

  it("names the first problem of a statement that is not one", () => {
    expect(checkStatementContent("[1]", sent, result)).toBe(
      "the receipt's statement is not valid: statement: must be an object, not an array",
    );
  });
});

describe("receipt verification output", () => {
  it("reads the key type and fingerprint of ssh-keygen's good-signature lines", () => {
    expect(
      parseGoodSignature(`Good "git-review-remote@v1" signature for box with ED25519 key ${FINGERPRINT}\n`),
    ).toEqual({
      keyType: "ED25519",
      fingerprint: FINGERPRINT,
    });
    expect(
      parseGoodSignature(`Good "git-review-remote@v1" signature with ED25519-CERT key ${FINGERPRINT}\n`),
    ).toEqual({
      keyType: "ED25519-CERT",
      fingerprint: FINGERPRINT,
    });
    expect(parseGoodSignature("Could not verify signature.\n")).toBeUndefined();
  });

  it("describes a verdict in one line", () => {
    const good = {
      status: ReceiptStatus.good,
      principal: "box",
      keyType: "ED25519",
      fingerprint: FINGERPRINT,
    };
    expect(describeVerdict(good)).toBe(`Good signature from worker "box" with ED25519 key ${FINGERPRINT}`);
    expect(describeVerdict({ status: ReceiptStatus.unsigned, principal: "box", reason: "no receipt" })).toBe(
      "unsigned",
    );
    expect(
      describeVerdict({ status: ReceiptStatus.bad, principal: "box", reason: "it does not verify" }),
    ).toBe("it does not verify");
  });

  it("prints the ssh-keygen command with absolute paths, quoting only what the shell would split", () => {
    expect(
      verifyCommand({
        allowedSigners: "/home/me/.config/allowed_signers",
        principal: "box 1's",
        signature: "/repo/.git/review-remote/reviews/abc/statement.sig",
        statement: "/repo/.git/review-remote/reviews/abc/statement.json",
      }),
    ).toBe(
      "ssh-keygen -Y verify -f /home/me/.config/allowed_signers -I 'box 1'\\''s' -n git-review-remote@v1 " +
        "-s /repo/.git/review-remote/reviews/abc/statement.sig < /repo/.git/review-remote/reviews/abc/statement.json",
    );
    expect(
      verifyCommand({ allowedSigners: "signers", principal: "box", signature: "s", statement: "t" }),
    ).toBe(
      `ssh-keygen -Y verify -f ${process.cwd()}/signers -I box -n git-review-remote@v1 -s ${process.cwd()}/s < ${process.cwd()}/t`,
    );
  });
});

describe("result schema: receipt", () => {
  const signature = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n";

  it("stays result@1: a result without a receipt is as valid as one with", () => {
    expect(ResultSchema.safeParse(result).success).toBe(true);
    expect(ResultSchema.safeParse({ ...result, receipt: { statement: "{}", signature } }).success).toBe(true);
  });

  it("refuses unknown receipt fields and a signature that is not armored", () => {
    const extra = ResultSchema.safeParse({ ...result, receipt: { statement: "{}", signature, key: "x" } });
    expect(extra.error?.issues[0]?.path).toEqual(["receipt"]);
    const bare = ResultSchema.safeParse({ ...result, receipt: { statement: "{}", signature: "U1NIU0lH" } });
    expect(bare.error?.issues[0]?.message).toBe("must be an armored SSH signature (ssh-keygen -Y sign)");
  });
});
