// Which receipts a worker must send, read from git config as users write it.
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { receiptPolicyFor } from "../../src/config/receipt-policy.js";
import { readSettings } from "../../src/config/settings.js";
import { ExitCode } from "../../src/errors.js";
import { createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

function configured(...pairs: [string, string][]): TestRepo {
  const repo = repos.add(createTestRepo());
  for (const [key, value] of pairs) repo.git("config", key, value);
  return repo;
}

/** Run from `sub` (a directory of the work tree, as git passes it) or from the top. */
async function policyOf(repo: TestRepo, worker = "box", sub = "") {
  const settings = await readSettings({ env: repo.env, cwd: repo.dir });
  return receiptPolicyFor(settings, worker, { top: repo.dir, cwd: join(repo.dir, sub) });
}

describe("receipt policy", () => {
  it("checks nothing and requires nothing without an allowed signers file", async () => {
    expect(await policyOf(configured())).toEqual({ allowedSigners: undefined, required: false });
  });

  it("requires a signature once a file applies: the worker's own, else the global one", async () => {
    const repo = configured(
      ["review-remote.allowedSigners", "/etc/all_signers"],
      ["review-remote.Box.allowedSigners", "/etc/box_signers"],
    );
    expect(await policyOf(repo, "Box")).toEqual({ allowedSigners: "/etc/box_signers", required: true });
    expect(await policyOf(repo, "other")).toEqual({ allowedSigners: "/etc/all_signers", required: true });
  });

  it("reads ~/ as the home directory and a relative path from the top of the work tree", async () => {
    const repo = configured(
      ["review-remote.box.allowedSigners", "~/.config/git/signers"],
      ["review-remote.rel.allowedSigners", "keys/signers"],
    );
    expect((await policyOf(repo)).allowedSigners).toBe(join(homedir(), ".config/git/signers"));
    expect((await policyOf(repo, "rel")).allowedSigners).toBe(join(repo.dir, "keys/signers"));
    expect((await policyOf(repo, "rel", "src/deep")).allowedSigners).toBe(join(repo.dir, "keys/signers"));
  });

  it("accepts unsigned results with requireSignature false, and still names the file", async () => {
    const repo = configured(
      ["review-remote.box.allowedSigners", "/etc/box_signers"],
      ["review-remote.box.requireSignature", "no"],
    );
    expect(await policyOf(repo)).toEqual({ allowedSigners: "/etc/box_signers", required: false });
  });

  it("refuses requireSignature without a file, and a value that is no boolean, with exit 2", async () => {
    const required = configured(["review-remote.box.requireSignature", "true"]);
    await expect(policyOf(required)).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: expect.stringContaining("no allowed signers file is configured for worker 'box'"),
    });
    const garbled = configured(["review-remote.box.requireSignature", "sometimes"]);
    await expect(policyOf(garbled)).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: "bad config value 'sometimes' for review-remote.box.requireSignature: expected a boolean",
    });
  });
});
