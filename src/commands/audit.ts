// `git review-remote audit`: what left this machine, when, and to which worker; `--verify` re-hashes
// every stored bundle against its name.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { resolveRepo } from "../repo.js";
import { formatSize, type Output } from "../report/output.js";
import { readAudit } from "../store/audit.js";
import { storePaths } from "../store/layout.js";

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function verifyBundles(bundles: string, sent: ReadonlySet<string>): Promise<string[]> {
  const names = await readdir(bundles).catch(() => [] as string[]);
  const stored = names.filter((name) => name.endsWith(".tar.gz"));
  const problems: string[] = [];
  for (const name of stored) {
    const expected = name.slice(0, -".tar.gz".length);
    const actual = await hashFile(join(bundles, name));
    if (actual !== expected) problems.push(`${name}: content hashes to ${actual}`);
  }
  const present = new Set(stored.map((name) => name.slice(0, -".tar.gz".length)));
  for (const sha of sent)
    if (!present.has(sha)) problems.push(`${sha}.tar.gz: sent, but no longer in the store`);
  return problems;
}

export async function runAudit(args: { json: boolean; verify: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const entries = await readAudit(store);
  if (args.verify) {
    const problems = await verifyBundles(store.bundles, new Set(entries.map((entry) => entry.bundleSha256)));
    if (problems.length > 0) {
      throw new ReviewRemoteError(`${problems.length} bundle(s) failed verification`, { details: problems });
    }
    output.out(`All stored bundles hash to their names (${entries.length} sends recorded).`);
    return;
  }
  if (args.json) {
    output.raw(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) output.out("Nothing has been sent from this repository.");
  for (const entry of entries) {
    output.out(
      `${entry.time}  ${entry.worker}  ${entry.bundleSha256.slice(0, 16)}  ${entry.files} files, ${formatSize(entry.bytes)}  review ${entry.reviewId}  via: ${entry.command}`,
    );
  }
}
