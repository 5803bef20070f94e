// Writing a work-tree merge, or its undo, from its journal: each new content goes to a temporary
// sibling and rename(2) puts it in place, so whenever the process stops (Ctrl-C, SIGKILL, a full
// disk) every file is either as it was or as merged. The same walk finishes a merge or rolls it back.
import { chmod, lstat, mkdir, rename, rm, rmdir, writeFile as writeNewFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { InterruptedError, ReviewRemoteError } from "../errors.js";
import { type BlobReader, openBlobReader } from "../git/blobs.js";
import { type GitOptions, git } from "../git/run.js";
import { messages } from "../messages.js";
import type { FileVersion, JournalFile, MergeJournal } from "../store/journal.js";
import { quoteForDisplay } from "../validate/sanitize.js";
import type { SignalGuard } from "./signals.js";

export type Side = "before" | "after";

/** Where a temp file of the merge lives: beside its file, so that the rename stays on one device. */
function tempSibling(journal: MergeJournal, file: JournalFile, n: number): string {
  return join(journal.top, dirname(file.path), `.rr-${journal.review}-${n}`);
}

/** The exact bytes of each regular file, as a blob id; null when absent, "" when not a regular file. */
async function readCurrent(run: GitOptions, top: string, files: readonly JournalFile[]) {
  const kinds = await Promise.all(
    files.map((file) =>
      lstat(join(top, file.path)).then(
        (stats) => (stats.isFile() ? "file" : "other"),
        () => "absent",
      ),
    ),
  );
  const present = files.filter((_, i) => kinds[i] === "file").map((file) => join(top, file.path));
  const hashed = present.length
    ? await git(["hash-object", "--no-filters", "--stdin-paths"], {
        ...run,
        input: present.map((path) => `${path}\n`).join(""),
      })
    : { stdout: "" };
  const oids = hashed.stdout.split("\n").filter(Boolean);
  let next = 0;
  return kinds.map((kind) => (kind === "file" ? (oids[next++] as string) : kind === "absent" ? null : ""));
}

function holds(current: string | null, version: FileVersion | null): boolean {
  return version === null ? current === null : current === version.oid;
}

/** Each file's current blob id; refuses, writing nothing, if one is on neither side of the merge. */
async function readOnEitherSide(
  run: GitOptions,
  journal: MergeJournal,
  side: Side,
): Promise<(string | null)[]> {
  const other: Side = side === "after" ? "before" : "after";
  const current = await readCurrent(run, journal.top, journal.files);
  const changed = journal.files.filter(
    (file, i) =>
      !holds(current[i] as string | null, file[side]) && !holds(current[i] as string | null, file[other]),
  );
  if (changed.length > 0) {
    throw new ReviewRemoteError(messages.changedSinceMerge(journal.review), {
      details: changed.map((file) => `changed: ${quoteForDisplay(file.path)}`),
      hints: [messages.hintChangedSinceMerge],
    });
  }
  return current;
}

/**
 * Refuses, as `applyJournal` would, before the journal is written as this run's: a refused undo
 * must not leave the store saying an undo was interrupted.
 */
export async function verifyJournalFiles(run: GitOptions, journal: MergeJournal, side: Side): Promise<void> {
  await readOnEitherSide(run, journal, side);
}

/** The files still to write toward `side`; refuses, writing nothing, if one is on neither side. */
async function filesToWrite(run: GitOptions, journal: MergeJournal, side: Side): Promise<number[]> {
  const current = await readOnEitherSide(run, journal, side);
  return journal.files.flatMap((file, i) => (holds(current[i] as string | null, file[side]) ? [] : [i]));
}

/** As git does after removing a file: leading directories left empty go too. */
async function removeEmptyParents(top: string, dir: string): Promise<void> {
  for (let current = dir; current.startsWith(`${top}/`); current = dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
  }
}

async function writeFile(
  blobs: BlobReader,
  journal: MergeJournal,
  n: number,
  side: Side,
  guard: SignalGuard,
) {
  const file = journal.files[n] as JournalFile;
  const path = join(journal.top, file.path);
  const version = file[side];
  if (version === null) {
    await rm(path, { force: true });
    await guard.wrote();
    if (side === "after") await removeEmptyParents(journal.top, dirname(path));
    return;
  }
  // Back to "before", a deleted file's directory may be gone with it.
  await mkdir(dirname(path), { recursive: true });
  const temp = tempSibling(journal, file, n);
  await writeNewFile(temp, await blobs.read(version.oid), { flag: "wx", mode: 0o600 });
  await chmod(temp, version.perm);
  await guard.wrote();
  await rename(temp, path);
  await guard.wrote();
}

/** Temp files a killed run left behind (they are named after the review, one per file). */
async function removeTemps(journal: MergeJournal): Promise<void> {
  await Promise.all(
    journal.files.map((file, n) => rm(tempSibling(journal, file, n), { force: true }).catch(() => undefined)),
  );
}

/** Directories the merge created, deepest first, where nothing else was put in them since. */
async function removeCreatedDirs(journal: MergeJournal): Promise<void> {
  const dirs = [...journal.dirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of dirs) await rmdir(join(journal.top, dir)).catch(() => undefined);
}

function stopped(journal: MergeJournal, done: number, total: number, cause: unknown): ReviewRemoteError {
  const hints = [messages.hintMergeAbort(journal.review), messages.hintMergeContinue(journal.review)];
  const options = { cause, hints };
  if (cause === undefined)
    return new InterruptedError(messages.mergeInterrupted(journal.review, done, total), options);
  return new ReviewRemoteError(
    messages.workTreeUnwritable((cause as Error).message, journal.review, done, total),
    options,
  );
}

/**
 * Bring every file of the journal to `side`: "after" finishes the merge, "before" rolls it back.
 * Files already there are left alone, so a run that was stopped is simply run again. A signal
 * held by `guard` stops it between two files.
 */
export async function applyJournal(
  run: GitOptions,
  journal: MergeJournal,
  side: Side,
  guard: SignalGuard,
): Promise<void> {
  const todo = await filesToWrite(run, journal, side);
  await removeTemps(journal);
  const blobs = openBlobReader(run);
  try {
    for (const [done, n] of todo.entries()) {
      if (guard.received) throw stopped(journal, done, todo.length, undefined);
      try {
        await writeFile(blobs, journal, n, side, guard);
      } catch (error) {
        await rm(tempSibling(journal, journal.files[n] as JournalFile, n), { force: true }).catch(
          () => undefined,
        );
        throw stopped(journal, done, todo.length, guard.received ? undefined : error);
      }
    }
  } finally {
    await blobs.close();
  }
  if (side === "before") await removeCreatedDirs(journal);
}
