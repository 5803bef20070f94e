// `git review-remote import <result.json> --request <id>`: a result fetched out of band goes through
// exactly the same validation and import as one read from a worker's stdout.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { readSettings } from "../config/settings.js";
import { type ReviewRemoteError, UsageError } from "../errors.js";
import { messages } from "../messages.js";
import type { FailLevel } from "../pipeline/fail-level.js";
import { acceptOutOfBand } from "../pipeline/out-of-band.js";
import { resolveWorkTreeRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { describeImportFilter, printReview } from "../report/review.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";
import { findingsAtFailLevel } from "./findings.js";

export async function runImport(
  args: { file: string; request: string | undefined; json: boolean; failLevel: FailLevel | undefined },
  output: Output,
): Promise<readonly ReviewRemoteError[]> {
  if (!args.request) {
    throw new UsageError(messages.importNeedsRequest, { hints: [messages.hintListReviews] });
  }
  const repo = await resolveWorkTreeRepo();
  const settings = await readSettings(repo);
  printRecovered(await recoverStore(storePaths(repo)), output, repo.top);
  const readResult = () =>
    readFile(resolve(repo.cwd, args.file)).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(messages.cannotRead(args.file, error.code ?? error.message));
    });
  const report = await acceptOutOfBand(repo, settings, args.request, readResult);
  if (report.importFilter && !args.json) output.out(describeImportFilter(report.importFilter));
  printReview(report, args.json, output);
  const findings = findingsAtFailLevel(report, args.failLevel, settings, output);
  return findings ? [findings] : [];
}
