// `git review-remote export`: build, scan and store the bundle, or show what would leave (`--list`).
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { readPolicy } from "../config/policy.js";
import { ExportRefusedError, ReviewRemoteError, UsageError } from "../errors.js";
import {
  createBundle,
  type ExportOptions,
  listExport,
  SecretsFoundError,
  secretsHints,
} from "../export/bundle.js";
import { readQuotePath } from "../git/quote.js";
import { messages } from "../messages.js";
import { describeIoError } from "../os/errno.js";
import { resolveRange, resolveTarget } from "../pipeline/target.js";
import { type Repo, resolveWorkTreeRepo } from "../repo.js";
import { printBundle, printListing, printRefusedExport } from "../report/export.js";
import type { Output } from "../report/output.js";

export interface ExportArgs {
  rev?: string | undefined;
  worktree: boolean;
  list: boolean;
  json: boolean;
  output?: string | undefined;
  pathspecs: string[];
}

export async function runExport(args: ExportArgs, output: Output): Promise<void> {
  // As for a review: the work tree is the snapshot, and a revision beside it would be ignored.
  if (args.worktree && args.rev !== undefined) {
    throw new UsageError(messages.worktreeTakesNoRevision(args.rev), { hints: [messages.hintHelp] });
  }
  // -o would be ignored: the listing builds no bundle to copy.
  if (args.list && args.output !== undefined) {
    throw new UsageError(messages.listWithOutput, { hints: [messages.hintHelp] });
  }
  const repo = await resolveWorkTreeRepo();
  const policy = await readPolicy(repo.top);
  // `<base>..<head>`: the bundle a range review sends, with the change's patch (scanned too).
  const range = args.worktree ? undefined : await resolveRange(repo, args.rev, "export");
  const options: ExportOptions = {
    ...(range ? { rev: range.commit, base: range.base, resolved: true } : { rev: args.rev }),
    worktree: args.worktree,
    pathspecs: args.pathspecs,
    policy,
  };
  if (args.list) {
    const listing = await listExport(repo, options);
    // Paths as git prints them, core.quotePath deciding; --json keeps them as they are.
    const quotePath = !args.json && (await readQuotePath({ cwd: repo.cwd, env: repo.env }));
    printListing(listing, { json: args.json, quotePath }, output);
    // The listing showed the findings (redacted): the exit code says the export would be refused.
    if (listing.findings.length > 0) {
      throw new ExportRefusedError(messages.secretsWouldStop(listing.findings.length), {
        hints: secretsHints(listing.findings, { removedOnly: listing.removedOnly, quotePath }),
      });
    }
    // Every file kept back: the export would stop, as it says; the listing above is the why.
    if (listing.files.length === 0) throw new ReviewRemoteError(messages.nothingToExport);
    if (args.rev === undefined && !args.worktree && !args.json && args.pathspecs.length === 0) {
      await hintReviewedChange(repo, output);
    }
    return;
  }
  const bundle = await createBundle(repo, options).catch((error: unknown) => {
    if (args.json && error instanceof SecretsFoundError) printRefusedExport(error.findings, output);
    throw error;
  });
  let written: { given: string; path: string } | undefined;
  if (args.output) {
    const target = resolve(repo.cwd, args.output);
    written = { given: args.output, path: target };
    // A stream, not copyFile: that copies the stored bundle's read-only mode, and the next export
    // to the same file then fails with EACCES. The copy is the user's file, made as any other.
    // `-o` naming the stored bundle itself (or a link to it) has nothing to copy: opening it to
    // write would empty the store's bundle before it is read.
    if (!(await isSameFile(bundle.path, target))) {
      await pipeline(createReadStream(bundle.path), createWriteStream(target)).catch(
        (error: NodeJS.ErrnoException) => {
          throw new ReviewRemoteError(messages.outputUnwritable(target, describeIoError(error)), {
            cause: error,
          });
        },
      );
    }
  }
  printBundle(bundle, args.json, output, written);
}

/**
 * `export --list` alone lists HEAD's tree, but `git review-remote` alone focuses on a change, whose
 * patch travels too (removed lines included, and scanned: a commit that deletes a key is refused).
 * Said, with the listing of that range, so that the first listing does not promise a review passes.
 */
async function hintReviewedChange(repo: Repo, output: Output): Promise<void> {
  const target = await resolveTarget(repo, { spec: undefined, worktree: false, all: false });
  if (target.base === undefined || target.commit === undefined) return;
  const range = `${target.base.slice(0, 10)}..${target.commit.slice(0, 10)}`;
  output.hint(messages.hintListReviewedChange(range));
}

/** Whether `target` exists and is the file at `path` (the same inode, by any name). */
async function isSameFile(path: string, target: string): Promise<boolean> {
  const [one, two] = await Promise.all([stat(path), stat(target).catch(() => undefined)]);
  return two !== undefined && one.dev === two.dev && one.ino === two.ino;
}
