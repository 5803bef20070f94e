// `git review-remote import <result.json> --request <id>`: a result fetched out of band goes through
// exactly the same validation and import as one read from a worker's stdout.
import { type FileHandle, open } from "node:fs/promises";
import { resolve } from "node:path";
import { readSettings } from "../config/settings.js";
import { InvalidResultError, type ReviewRemoteError, UsageError } from "../errors.js";
import { readQuotePath } from "../git/quote.js";
import { messages } from "../messages.js";
import { describeIoError } from "../os/errno.js";
import type { FailLevel } from "../pipeline/fail-level.js";
import { acceptOutOfBand } from "../pipeline/out-of-band.js";
import { resolveWorkTreeRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printRecovered } from "../report/recovery.js";
import { describeImportFilter, printReview } from "../report/review.js";
import { storePaths } from "../store/layout.js";
import { recoverStore } from "../store/recover.js";
import { findingsAtFailLevel } from "./findings.js";

/**
 * The result file's bytes, refused once more than the review's maxResultBytes have come: the size
 * gate a worker's stdout passes while it is read, so a huge file (or an endless pipe) is never held.
 */
async function readBoundedResult(path: string, shown: string, maxBytes: number): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new UsageError(messages.cannotRead(shown, describeIoError(error)));
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.alloc(Math.min(maxBytes + 1 - total, 1024 * 1024));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new InvalidResultError(messages.resultFileTooLarge(shown, maxBytes));
    }
  } catch (error) {
    if (error instanceof InvalidResultError) throw error;
    throw new UsageError(messages.cannotRead(shown, describeIoError(error)));
  } finally {
    await handle.close();
  }
  return Buffer.concat(chunks, total);
}

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
  const read = (maxBytes: number) => readBoundedResult(resolve(repo.cwd, args.file), args.file, maxBytes);
  const report = await acceptOutOfBand(repo, settings, args.request, { file: args.file, read });
  if (report.importFilter && !args.json) output.out(describeImportFilter(report.importFilter));
  const quotePath = !args.json && (await readQuotePath({ cwd: repo.cwd, env: repo.env }));
  printReview(report, { json: args.json, quotePath }, output);
  const findings = findingsAtFailLevel(report, args.failLevel, settings, output);
  return findings ? [findings] : [];
}
