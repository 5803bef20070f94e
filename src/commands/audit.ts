// `git review-remote audit`: what left this machine, when, and to which worker; `--verify` re-hashes
// every stored bundle against its name.
import { ReviewRemoteError } from "../errors.js";
import { messages } from "../messages.js";
import { resolveRepo } from "../repo.js";
import { printAudit, printAuditVerified } from "../report/audit.js";
import type { Output } from "../report/output.js";
import { readAudit, verifyBundles } from "../store/audit.js";
import { storePaths } from "../store/layout.js";

export async function runAudit(args: { json: boolean; verify: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const entries = await readAudit(store);
  if (!args.verify) {
    printAudit(entries, args.json, output);
    return;
  }
  const problems = await verifyBundles(store, new Set(entries.map((entry) => entry.bundleSha256)));
  if (problems.length > 0) {
    throw new ReviewRemoteError(messages.bundlesFailedVerification(problems.length), { details: problems });
  }
  printAuditVerified(entries.length, output);
}
