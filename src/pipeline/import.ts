// Import, only after every validation layer passed: commits with the local identity and our trailers,
// objects moved from the quarantine into the real store, then the refs in one create-only transaction.
import { copyFile, link, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { abortedWith, ReviewRemoteError } from "../errors.js";
import { commitTree, readCommitterDate } from "../git/commits.js";
import { ownIdentityEnv, SYNTHETIC_DATE, TOOL_AUTHOR } from "../git/identity.js";
import { updateRefs } from "../git/refs.js";
import type { Env } from "../git/run.js";
import { messages } from "../messages.js";
import type { Result } from "../protocol/result.js";
import type { Repo } from "../repo.js";
import { tempName } from "../store/layout.js";
import { type ReviewRecord, ReviewState } from "../store/records.js";
import { discardQuarantine, type Quarantined, quarantineEnv } from "../validate/quarantine.js";
import { sanitizeText } from "../validate/sanitize.js";
import { type AcceptContext, baseObjects, updateRecord } from "./context.js";
import type { Worker } from "./workers.js";

interface ImportOptions {
  repo: Repo;
  /** Env that reads the quarantine's objects (and the snapshot's, for a work-tree snapshot). */
  quarantineEnv: Env;
  /** Object directories to move into the repo's store: the quarantine's, and a work-tree snapshot's. */
  objectDirs: readonly string[];
  base: string;
  /** The date of every commit, author's and committer's (`<seconds> <zone>`). */
  date: string;
  trees: readonly string[];
  messages: readonly string[];
  trailers: { request: string; bundle: string; worker: string; receipt?: string | undefined };
  branch: string;
  /** Extra refs created in the same transaction (the synthetic base of a work-tree snapshot). */
  extraRefs: ReadonlyMap<string, string>;
}

const MAX_SUBJECT = 200;
const MAX_MESSAGE = 16 * 1024;

/** Our trailers' keys: a worker's line that starts with one would pass for ours in `git log`. */
const OWN_TRAILER = /^\s*review-(?:request|bundle|worker|receipt)\s*:/i;

function commitMessage(raw: string, trailers: ImportOptions["trailers"]): string {
  const clean = sanitizeText(raw).replace(/\r/g, "").trim().slice(0, MAX_MESSAGE);
  const [subject = "", ...body] = clean.split("\n").filter((line) => !OWN_TRAILER.test(line));
  const title = subject.trim().slice(0, MAX_SUBJECT) || "Proposed change";
  const text = [title, ...body].join("\n").trim();
  const receipt = trailers.receipt ? `Review-Receipt: sha256:${trailers.receipt}\n` : "";
  return `${text}\n\nReview-Request: ${trailers.request}\nReview-Bundle: ${trailers.bundle}\nReview-Worker: ${sanitizeText(trailers.worker).replace(/\s+/g, " ")}\n${receipt}`;
}

/**
 * Move loose objects into the repo's store as git's own quarantine does (tmp-objdir.c): a hard link
 * under the final name, which either appears whole or not at all; an object already there is kept.
 */
async function placeObject(source: string, target: string): Promise<void> {
  const ignoreExisting = (error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  };
  try {
    await link(source, target).catch(ignoreExisting);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    // Another file system: copy beside the target first, so the final name still appears whole.
    const tmp = tempName(target);
    try {
      await copyFile(source, tmp);
      await link(tmp, target).catch(ignoreExisting);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

async function migrateObjects(from: string, to: string): Promise<void> {
  let dirs: string[];
  try {
    dirs = await readdir(from);
  } catch {
    return;
  }
  for (const dir of dirs) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    await mkdir(join(to, dir), { recursive: true });
    for (const name of await readdir(join(from, dir))) {
      await placeObject(join(from, dir, name), join(to, dir, name));
    }
  }
}

async function importProposals(options: ImportOptions): Promise<string> {
  const { repo } = options;
  const dates = { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date };
  const env = ownIdentityEnv(options.quarantineEnv, { ...TOOL_AUTHOR, ...dates });
  let parent = options.base;
  for (const [index, tree] of options.trees.entries()) {
    const message = commitMessage(options.messages[index] ?? "", options.trailers);
    parent = await commitTree({ cwd: repo.cwd, env }, tree, [parent], message);
  }
  const objects = join(repo.commonDir, "objects");
  for (const dir of options.objectDirs) await migrateObjects(dir, objects);
  // One transaction: every ref is created, or none; `create` fails if the ref already exists.
  const refs = new Map([[`refs/heads/${options.branch}`, parent], ...options.extraRefs]);
  const created = await updateRefs(
    { cwd: repo.cwd, env: repo.env },
    [...refs].map(([ref, oid]) => ({ op: "create" as const, ref, oid })),
  );
  if (!created.ok) {
    throw new ReviewRemoteError(messages.branchNotCreated(options.branch, created.reason));
  }
  return parent;
}

/**
 * The date of a review's commits: the committer date of what was reviewed (a work-tree snapshot's
 * HEAD; with none, the snapshot's own fixed date), never the time of the import. The proposals are
 * about that state, so their dates follow it in `git log`, and one result imported twice on the
 * same snapshot gives the same commits (the same ids), as one tree and policy give the same bundle
 * (design §1).
 */
export function proposalDate(repo: Repo, snapshot: AcceptContext["sent"]["snapshot"]): Promise<string> {
  const dated = snapshot.kind === "worktree" ? snapshot.parent : snapshot.commit;
  return dated === undefined
    ? Promise.resolve(SYNTHETIC_DATE)
    : readCommitterDate({ cwd: repo.cwd, env: repo.env }, dated);
}

/**
 * Import proposals that passed every layer, then record the review as imported. `date` is their
 * proposalDate, read while they were checked.
 */
export async function importResult(
  context: AcceptContext,
  worker: Worker,
  record: ReviewRecord,
  commits: Result["commits"],
  checked: Quarantined,
  counts: { comments: number; errors: number },
  date: Promise<string>,
): Promise<void> {
  const { repo, sent, request } = context;
  try {
    if (context.signal.aborted) throw abortedWith(context.signal, messages.interruptedNothingImported);
    const branch = `${context.branchPrefix}${record.id}`;
    const extraRefs = new Map<string, string>();
    if (sent.snapshot.kind === "worktree")
      extraRefs.set(`refs/review-remote/${record.id}/snapshot`, sent.snapshot.commit);
    const snapshotObjects = sent.snapshotObjects?.objects;
    const tip = await importProposals({
      repo,
      quarantineEnv: quarantineEnv(checked.quarantineDir, baseObjects(context), repo.env),
      objectDirs: [...(snapshotObjects ? [snapshotObjects] : []), join(checked.quarantineDir, "objects")],
      base: sent.snapshot.commit,
      date: await date,
      trees: checked.trees,
      messages: commits.map((commit) => commit.message),
      trailers: {
        request: request.id,
        bundle: request.bundle.sha256,
        worker: worker.name,
        receipt: record.receipt?.statementSha256,
      },
      branch,
      extraRefs,
    });
    await updateRecord(context.store, record, {
      state: ReviewState.imported,
      branch,
      tip,
      commits: checked.trees.length,
      ...counts,
    });
  } finally {
    await discardQuarantine(checked.quarantineDir);
  }
}
