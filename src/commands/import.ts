// `git review-remote import <result.json> --request <id>`: a result fetched out of band goes through
// exactly the same validation and import as one read from a worker's stdout.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { readPolicy } from "../config/policy.js";
import { readSettings } from "../config/settings.js";
import { ReviewRemoteError, UsageError } from "../errors.js";
import type { ManifestFile } from "../export/archive.js";
import { manifestPath } from "../export/bundle.js";
import { git } from "../git/run.js";
import { forbiddenPaths } from "../pipeline/request.js";
import { acceptResult } from "../pipeline/send.js";
import { type Request, RequestSchema } from "../protocol/request.js";
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { type StorePaths, storePaths } from "../store/layout.js";
import { findRecord, ReviewState, readReviewFile } from "../store/records.js";
import { printReport } from "./review.js";

const IMPORTABLE: ReadonlySet<string> = new Set([ReviewState.sent, ReviewState.failed, ReviewState.rejected]);

/** The stored request of a review and the manifest of the bundle it sent. */
async function readSent(store: StorePaths, id: string): Promise<{ request: Request; files: ManifestFile[] }> {
  try {
    const request = RequestSchema.parse(
      JSON.parse((await readReviewFile(store, id, "request.json")) ?? "null"),
    );
    const bundlePath = join(store.bundles, `${request.bundle.sha256}.tar.gz`);
    const manifest = JSON.parse(await readFile(manifestPath(bundlePath), "utf8")) as {
      files: ManifestFile[];
    };
    return { request, files: manifest.files };
  } catch (error) {
    throw new ReviewRemoteError(`the store has no readable request and bundle manifest for review ${id}`, {
      cause: error,
      hints: ["run the review again: git review-remote --no-cache"],
    });
  }
}

export async function runImport(
  args: { file: string; request: string | undefined; json: boolean },
  output: Output,
): Promise<number> {
  if (!args.request) throw new UsageError("import needs --request <id>: the review the result answers");
  const repo = await resolveRepo();
  const store = storePaths(repo);
  const [settings, policy] = await Promise.all([readSettings(repo), readPolicy(repo.top)]);
  const record = await findRecord(store, args.request);
  if (!IMPORTABLE.has(record.state)) {
    throw new ReviewRemoteError(`review ${record.id} is ${record.state}: there is nothing to import into`, {
      hints: ["import answers a review whose worker failed or was not reached; see git review-remote list"],
    });
  }
  const { request, files } = await readSent(store, record.id);
  const bundlePath = join(store.bundles, `${request.bundle.sha256}.tar.gz`);
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
      files,
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
