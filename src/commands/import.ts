// `git review-remote import <result.json> --request <id>`: a result fetched out of band goes through
// exactly the same validation and import as one read from a worker's stdout.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { readSettings } from "../config.js";
import { ReviewRemoteError, UsageError } from "../errors.js";
import type { ManifestFile } from "../export/archive.js";
import { manifestPath } from "../export/bundle.js";
import { git } from "../git.js";
import type { Output } from "../output.js";
import { readPolicy } from "../policy.js";
import { RequestSchema } from "../protocol/request.js";
import { resolveRepo } from "../repo.js";
import { findRecord, readReviewFile } from "../review/record.js";
import { forbiddenPaths } from "../review/request.js";
import { acceptResult } from "../review/run.js";
import { storePaths } from "../store.js";
import { printReport } from "./review.js";

export async function runImport(
  args: { file: string; request: string | undefined; json: boolean },
  output: Output,
): Promise<number> {
  if (!args.request) throw new UsageError("import needs --request <id>: the review the result answers");
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const [settings, policy] = await Promise.all([readSettings(repo), readPolicy(repo.top)]);
  const record = await findRecord(store, args.request);
  const request = RequestSchema.parse(
    JSON.parse((await readReviewFile(store, record.id, "request.json")) ?? "null"),
  );
  const bundlePath = join(store.bundles, `${request.bundle.sha256}.tar.gz`);
  const manifest = JSON.parse(await readFile(manifestPath(bundlePath), "utf8")) as { files: ManifestFile[] };
  const known = await git(["cat-file", "-e", `${request.snapshot.commit}^{commit}`], {
    cwd: repo.cwd,
    env: repo.env,
    allowFailure: true,
  });
  if (known.exitCode !== 0) {
    throw new ReviewRemoteError(
      `the snapshot ${request.snapshot.commit} of review ${record.id} is not in this repository`,
      {
        hints: ["a work-tree snapshot exists only during its review: run the review again"],
      },
    );
  }
  const raw = await readFile(resolve(repo.cwd, args.file)).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${args.file}: ${error.code ?? error.message}`);
  });
  const context = {
    repo,
    store,
    exported: {
      snapshot: record.snapshot,
      files: manifest.files,
      excluded: [],
      findings: [],
      path: bundlePath,
    },
    request,
    branchPrefix: settings.branchPrefix,
    forbiddenPaths: forbiddenPaths(policy),
    signal: new AbortController().signal,
    onStderrLine: () => undefined,
  };
  const outcome = await acceptResult(context, record.worker, { ...record }, raw);
  printReport({ outcomes: [outcome], failures: [], cached: new Set() }, args.json, output);
  return 0;
}
