// Signed receipts through `git review-remote`: the real worker signing with keys ssh-keygen made here,
// allowed signers in git config, and a worker in front of it that tampers with what it sends back.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";
import { createKeyDir, type KeyPair, signerLine } from "../helpers/ssh-keys.mjs";

const RECEIPT_WORKER = join(FIXTURES, "workers", "receipt-worker.mjs");

const keys = createKeyDir();
afterAll(() => keys.remove());
const repos = repoTracker();

const workerKey = keys.key("ed25519");

/** A repo whose last commit adds trailing spaces (a proposal) and conflict markers (a comment). */
function changedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  repo.write("README.md", "# app\n");
  repo.commit("first");
  repo.write("src/app.ts", "export const a = 1;   \n");
  repo.write("src/conflict.ts", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n");
  repo.commit("second");
  return repo;
}

/** The real worker, signing with `key` (a private key or a certificate), as a shell command. */
function signingWorker(key: string | undefined): string {
  const sign = key === undefined ? [] : ["--sign-key", key];
  return shellWords(process.execPath, BIN, "worker", ...sign);
}

/** The real worker behind receipt-worker.mjs in `mode`. */
function tamperingWorker(mode: string[], key: string | undefined = workerKey.private): string {
  const worker = ["worker", ...(key === undefined ? [] : ["--sign-key", key])];
  return shellWords(process.execPath, RECEIPT_WORKER, ...mode, "--", process.execPath, BIN, ...worker);
}

function trust(repo: TestRepo, lines: string[], scope: "box" | "all" = "box"): string {
  const file = keys.allowedSigners(lines);
  repo.git(
    "config",
    scope === "box" ? "review-remote.box.allowedSigners" : "review-remote.allowedSigners",
    file,
  );
  return file;
}

function trustKey(repo: TestRepo, key: KeyPair = workerKey, options = ""): string {
  return trust(repo, [signerLine("box", key.public, options)]);
}

/** The review is refused with exit 4 and `reason`, and the repository is exactly as it was. */
function expectRefused(repo: TestRepo, reason: string | RegExp): void {
  const result = runUnchanged(repo, ["--worker", "box"], 4);
  expect(result.stderr).toContain("rejected the result of worker 'box': it has no valid receipt");
  expect(result.stderr).toMatch(reason);
  const records = JSON.parse(repo.run(["list", "--json"]).stdout);
  expect(records.at(-1).state).toBe("rejected");
}

/** A changed repo whose worker `box` signs with a certificate for `principal`, its CA trusted for box. */
function certifiedWorkerRepo(principal: string): { repo: TestRepo; certified: KeyPair } {
  const repo = changedRepo();
  const ca = keys.key("ed25519");
  const certified = keys.key("ed25519");
  configureWorker(repo, "box", signingWorker(keys.certify(ca, certified, principal)));
  trust(repo, [signerLine("box", ca.public, "cert-authority")]);
  return { repo, certified };
}

describe("receipts: a signing worker", () => {
  it("shows a good signature, marks the proposals, and prints an ssh-keygen command that verifies", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    const signers = trustKey(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const review = JSON.parse(result.stdout);
    expect(review.receipt).toEqual({ status: "good", principal: "box", fingerprint: workerKey.fingerprint });

    const good = `Good signature from worker "box" with ED25519 key ${workerKey.fingerprint}`;
    expect(repo.run(["show", review.id]).stdout).toContain(`receipt  ${good}`);
    const shown = JSON.parse(repo.run(["show", review.id, "--format=json"]).stdout);
    expect(shown.receipt).toEqual({ status: "good", principal: "box", fingerprint: workerKey.fingerprint });

    const verified = repo.run(["verify", review.id]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(good);
    const digest = /Review-Receipt: (sha256:[0-9a-f]{64})/.exec(verified.stdout)?.[1];
    expect(
      repo.git("log", "-1", "--format=%(trailers:key=Review-Receipt,valueonly)", review.branch).trim(),
    ).toBe(digest);
    const command = verified.stdout.trim().split("\n").at(-1)?.trim() as string;
    expect(command).toMatch(
      new RegExp(`^ssh-keygen -Y verify -f ${signers} -I box -n git-review-remote@v1 -s `),
    );
    const again = spawnSync("sh", ["-c", command], { encoding: "utf8" });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Good "git-review-remote@v1" signature for box`);

    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("All stored receipts verify (1 signed review).");
  });

  it("verifies a receipt whose bundle prune removed, and says the bundle was pruned, not tampered", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const review = JSON.parse(result.stdout);
    expect(repo.run(["drop", review.id]).status).toBe(0);
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.stdout).toContain("Freed ");

    const verified = repo.run(["verify", review.id]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`Good signature from worker "box"`);
    expect(verified.stderr).toMatch(/^note: bundle [0-9a-f]{64} was pruned from the store on /m);
    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("All stored receipts verify (1 signed review).");
    expect(audit.stdout).toContain("1 sent bundle was pruned (git review-remote prune)");
  });

  it("accepts a certificate signed by a cert-authority line for this worker", () => {
    const { repo, certified } = certifiedWorkerRepo("box");
    const result = repo.run(["--worker", "box"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `Good signature from worker "box" with ED25519-CERT key ${certified.fingerprint}`,
    );
  });

  it("verifies the result as received, before a comment the local side drops is left out", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["stray", workerKey.private]));
    trustKey(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const review = JSON.parse(result.stdout);
    expect(review.receipt.status).toBe("good");
    expect(review.comments.map((comment: { path: string }) => comment.path)).toEqual(["src/conflict.ts"]);
    expect(review.dropped).toEqual([expect.objectContaining({ part: "comments", count: 1 })]);
    expect(repo.run(["verify", review.id]).status).toBe(0);
  });

  it("imports an unsigned result when requireSignature is false, and shows it unsigned", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(undefined));
    trustKey(repo);
    repo.git("config", "review-remote.box.requireSignature", "false");
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const review = JSON.parse(result.stdout);
    expect(review.receipt).toEqual({ status: "unsigned", principal: "box", fingerprint: null });
    expect(repo.run(["show", review.id]).stdout).toContain("receipt  unsigned");
    expect(repo.git("log", "-1", "--format=%B", review.branch)).not.toContain("Review-Receipt");
    const verify = repo.run(["verify", review.id]);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain(`review ${review.id} has no stored receipt`);
  });

  it("asks the worker again when a signature is required of a review cached unsigned", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(undefined));
    expect(repo.run(["--worker", "box"]).status).toBe(0);
    trustKey(repo);
    expectRefused(repo, /carries no signed receipt/);
  });
});

describe("receipts: a signed result over a limit", () => {
  it("verifies a result whose comments were cut to maxComments, as received and as stored", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["flood", workerKey.private, "600"]));
    trustKey(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const review = JSON.parse(result.stdout);
    expect(review.receipt.status).toBe("good");
    expect(review.comments).toHaveLength(500);
    expect(review.dropped).toEqual([
      expect.objectContaining({ part: "comments", count: 101, limit: "maxComments" }),
    ]);
    const dir = join(repo.dir, ".git", "review-remote", "reviews", review.id);
    expect(JSON.parse(readFileSync(join(dir, "received.json"), "utf8")).comments).toHaveLength(601);
    expect(JSON.parse(readFileSync(join(dir, "result.json"), "utf8")).comments).toHaveLength(500);

    const verified = repo.run(["verify", review.id]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(
      `Good signature from worker "box" with ED25519 key ${workerKey.fingerprint}`,
    );
    const command = verified.stdout.trim().split("\n").at(-1)?.trim() as string;
    expect(spawnSync("sh", ["-c", command], { encoding: "utf8" }).status).toBe(0);
    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("All stored receipts verify (1 signed review).");

    // The cut is the signed result's: a comment put back in result.json is found.
    const stored = JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));
    stored.comments.push({ ...stored.comments.at(-1), message: "Flood 599." });
    writeFileSync(join(dir, "result.json"), JSON.stringify(stored));
    const changed = repo.run(["verify", review.id]);
    expect(changed.status).toBe(4);
    expect(changed.stderr).toContain("result.json, which show reads, is not the signed result");
  });

  it("verifies a result refused whole for its proposals over maxCommits, and refuses nothing else", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["commits", workerKey.private, "21"]));
    trustKey(repo);
    const refused = runUnchanged(repo, ["--worker", "box"], 4);
    expect(refused.stderr).toContain("rejected the proposals of worker 'box'; nothing was imported");
    expect(refused.stderr).toContain("commits: 21 commits, over the limit of 20");
    const record = JSON.parse(repo.run(["list", "--json"]).stdout).at(-1);
    expect(record.state).toBe("rejected");

    // The receipt was checked and kept, so the refused result can be shown to be the worker's.
    const before = repoState(repo);
    const verified = repo.run(["verify", record.id]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(
      `Good signature from worker "box" with ED25519 key ${workerKey.fingerprint}`,
    );
    expect(repoState(repo)).toEqual(before);
    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("All stored receipts verify (1 signed review).");
  });

  it("refuses a result over the limit whose receipt does not hold for its receipt, not its limit", () => {
    const repo = changedRepo();
    const stranger = keys.key("ed25519");
    configureWorker(repo, "box", tamperingWorker(["commits", stranger.private, "21"]));
    trustKey(repo);
    const reason = `the receipt is signed with ED25519 key ${stranger.fingerprint}, which is not an allowed signer for worker 'box'`;
    expectRefused(repo, reason);
    // Nothing of it was kept; verify says why, not that the result was unsigned.
    const record = JSON.parse(repo.run(["list", "--json"]).stdout).at(-1);
    const verify = repo.run(["verify", record.id]);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain(
      `review ${record.id} has no stored receipt: its receipt was refused when the result arrived (${reason})`,
    );
  });

  it("says a result refused before its receipt was read was not verified, not that it was unsigned", () => {
    const repo = changedRepo();
    // 600 comments of 16 KiB each: over the 8 MiB a result may have, refused as it is read.
    configureWorker(repo, "box", tamperingWorker(["flood", workerKey.private, "600", "16384"]));
    trustKey(repo);
    const refused = runUnchanged(repo, ["--worker", "box"], 4);
    expect(refused.stderr).toContain("it sent more than 8388608 bytes (limits.maxResultBytes)");
    const record = JSON.parse(repo.run(["list", "--json"]).stdout).at(-1);
    const before = repoState(repo);
    const verify = repo.run(["verify", record.id]);
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain(
      `review ${record.id} has no stored receipt: its result was refused before its receipt was checked`,
    );
    expect(verify.stderr).not.toContain("was not signed");
    expect(repoState(repo)).toEqual(before);
  });
});

describe("receipts: refused with exit 4, nothing imported", () => {
  it("a result with one comment changed after signing", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["comment"]));
    trustKey(repo);
    expectRefused(
      repo,
      /the result differs from the one the receipt vouches for: it was changed after signing/,
    );
  });

  it("a genuine statement about another bundle, replayed", () => {
    const repo = changedRepo();
    const saved = join(keys.dir, "saved-receipt.json");
    configureWorker(repo, "box", tamperingWorker(["save", saved]));
    trustKey(repo);
    expect(repo.run(["--worker", "box"]).status).toBe(0);
    repo.write("src/app.ts", "export const a = 2;   \n");
    repo.commit("third");
    configureWorker(repo, "box", tamperingWorker(["replay", saved]));
    expectRefused(repo, /the receipt is about another bundle: it does not name bundle [0-9a-f]{64}/);
  });

  it("a key that is not in the allowed signers", () => {
    const repo = changedRepo();
    const stranger = keys.key("ed25519");
    configureWorker(repo, "box", signingWorker(stranger.private));
    trustKey(repo);
    expectRefused(
      repo,
      `the receipt is signed with ED25519 key ${stranger.fingerprint}, which is not an allowed signer for worker 'box'`,
    );
  });

  it("a key listed for another worker in the global allowed signers", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trust(repo, [signerLine("other", workerKey.public)], "all");
    expectRefused(repo, /which is not an allowed signer for worker 'box'/);
  });

  it("a key whose valid-before has passed", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo, workerKey, 'valid-before="20200101"');
    expectRefused(repo, /the receipt's key is not accepted for worker 'box'|not an allowed signer/);
  });

  it("a key that namespaces= restricts to git's own signatures", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo, workerKey, 'namespaces="git"');
    expectRefused(repo, /worker 'box'/);
  });

  it("a certificate for other principals, under a cert-authority line", () => {
    const { repo } = certifiedWorkerRepo("elsewhere");
    expectRefused(repo, /worker 'box'/);
  });

  it("an unsigned result where a signature is required", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["strip"]));
    trustKey(repo);
    expectRefused(repo, /the result of worker 'box' carries no signed receipt/);
  });

  it("an unsigned result of the local worker, with a hint at the key it signs with", () => {
    const repo = changedRepo();
    repo.git(
      "config",
      "review-remote.allowedSigners",
      keys.allowedSigners([signerLine("local", workerKey.public)]),
    );
    const refused = runUnchanged(repo, [], 4);
    expect(refused.stderr).toContain("the result of worker 'local' carries no signed receipt");
    expect(refused.stderr).toContain(
      "hint: the worker must sign its results (the local worker signs with the key REVIEW_REMOTE_SIGN_KEY names)",
    );
    const signed = repo.run(["--no-cache"], { env: { REVIEW_REMOTE_SIGN_KEY: workerKey.private } });
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('Good signature from worker "local"');
  });

  it("a signature made in another namespace", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", tamperingWorker(["namespace", workerKey.private]));
    trustKey(repo);
    expectRefused(repo, /the receipt's signature does not verify/);
  });
});

describe("receipts: a result imported out of band", () => {
  it("is verified as one read from the worker: imported when good, refused when changed", () => {
    const repo = changedRepo();
    const held = join(repo.home, "result.json");
    configureWorker(repo, "box", tamperingWorker(["hold", held]));
    trustKey(repo);
    expect(repo.run(["--worker", "box"]).status).toBe(3);
    expect(repo.run(["--worker", "box"]).status).toBe(3);
    const [first, second] = JSON.parse(repo.run(["list", "--json"]).stdout).map(
      (record: { id: string }) => record.id,
    );
    const imported = repo.run(["import", held, "--request", first]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `Good signature from worker "box" with ED25519 key ${workerKey.fingerprint}`,
    );
    writeFileSync(held, readFileSync(held, "utf8").replace("Unresolved", "Resolved"));
    const refused = runUnchanged(repo, ["import", held, "--request", second], 4);
    expect(refused.stderr).toContain("it was changed after signing");
  });
});

describe("receipts: configuration", () => {
  it.each([
    [
      "requireSignature without an allowed signers file",
      "requireSignature",
      "true",
      "no allowed signers file",
    ],
    [
      "a missing allowed signers file",
      "allowedSigners",
      join(keys.dir, "missing"),
      "cannot read allowed signers",
    ],
  ])("refuses %s with exit 2, before sending", (_what, key, value, reason) => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    repo.git("config", `review-remote.box.${key}`, value);
    const before = repoState(repo);
    const result = repo.run(["--worker", "box"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(reason);
    expect(repo.run(["audit", "--json"]).stdout.trim()).toBe("[]");
    expect(repoState(repo)).toEqual(before);
  });

  it("finds verify's stored files tampered with afterwards, and audit --verify names the review", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo);
    const review = JSON.parse(repo.run(["--worker", "box", "--json"]).stdout);
    const received = join(repo.dir, ".git", "review-remote", "reviews", review.id, "received.json");
    writeFileSync(received, readFileSync(received, "utf8").replace('"status":"ok"', '"status":"failed"'));
    const verify = repo.run(["verify", review.id]);
    expect(verify.status).toBe(4);
    expect(verify.stderr).toContain("the result differs from the one the receipt vouches for");
    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status).toBe(1);
    expect(audit.stderr).toContain("git-review-remote: 1 stored receipt failed verification\n");
    expect(audit.stderr).toContain(`review ${review.id}: the result differs`);
  });

  it("finds request.json edited afterwards by its digest, whatever field or syntax the edit broke", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo);
    const review = JSON.parse(repo.run(["--worker", "box", "--json"]).stdout);
    const stored = join(repo.dir, ".git", "review-remote", "reviews", review.id, "request.json");
    const original = readFileSync(stored, "utf8");
    const { requestId } = JSON.parse(repo.run(["list", "--json"]).stdout).at(-1);
    const edits = [
      original.replace(/"question": "[^"]*"/, '"question": "Edited"'),
      original.replace(/"files": \d+/, '"files": 99'),
      `${original}{`,
    ];
    for (const edited of edits) {
      expect(edited).not.toBe(original);
      writeFileSync(stored, edited);
      const before = repoState(repo);
      const verify = repo.run(["verify", review.id]);
      expect(verify.status).toBe(4);
      expect(verify.stderr).toContain(`the receipt of review ${review.id} does not verify`);
      expect(verify.stderr).toContain(
        `request.json is not the request this review sent: its digest is not the recorded ${requestId.slice(0, 12)}; it was changed after it was stored`,
      );
      const audit = repo.run(["audit", "--verify"]);
      expect(audit.status).toBe(1);
      expect(audit.stderr).toContain(`review ${review.id}: request.json is not the request this review sent`);
      expect(repoState(repo)).toEqual(before);
    }
    writeFileSync(stored, original);
    expect(repo.run(["verify", review.id]).status).toBe(0);
  });

  it("covers result.json, which show reads: an edit to it is found by verify and audit --verify", () => {
    const repo = changedRepo();
    configureWorker(repo, "box", signingWorker(workerKey.private));
    trustKey(repo);
    const review = JSON.parse(repo.run(["--worker", "box", "--json"]).stdout);
    expect(repo.run(["verify", review.id]).status).toBe(0);
    const stored = join(repo.dir, ".git", "review-remote", "reviews", review.id, "result.json");
    const result = JSON.parse(readFileSync(stored, "utf8"));
    // Laid out otherwise, the same document: still what the signed result gives.
    writeFileSync(stored, JSON.stringify(result));
    expect(repo.run(["verify", review.id]).status).toBe(0);
    result.comments[0].message = "Nothing to see here.";
    writeFileSync(stored, JSON.stringify(result));
    expect(repo.run(["show", review.id]).stdout).toContain("Nothing to see here.");
    const verify = repo.run(["verify", review.id]);
    expect(verify.status).toBe(4);
    expect(verify.stderr).toContain(
      "result.json, which show reads, is not the signed result: it was changed after it was stored",
    );
    const audit = repo.run(["audit", "--verify"]);
    expect(audit.status).toBe(1);
    expect(audit.stderr).toContain(
      `review ${review.id}: result.json, which show reads, is not the signed result`,
    );
  });
});
