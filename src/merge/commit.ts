// Merging the proposals of a commit snapshot into the current branch: a preview with `merge-tree`
// in a throwaway object directory, then a real merge; the undo point is recorded first.
import { access, lstat, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { InterruptedError, MergeConflictError, ReviewRemoteError } from "../errors.js";
import { type GitRun, isAncestor, readHead, treeOf } from "../git/commits.js";
import { OBJECT_ID, privateObjectEnv } from "../git/objects.js";
import { conflictDetail, quoteLikeGit, readQuotePath } from "../git/quote.js";
import { diffTrees, type TreeChange } from "../git/raw-diff.js";
import { git } from "../git/run.js";
import { checkoutTreeMerge, Mode, writeTree } from "../git/trees.js";
import { workTrees } from "../git/worktrees.js";
import { messages } from "../messages.js";
import { gitIn } from "../os/shell.js";
import { createTempDir, MERGE_PREFIX } from "../os/tempdir.js";
import { type Repo, requireWorkTree } from "../repo.js";
import type { ReviewRecord } from "../store/records.js";
import { sanitizeLine } from "../validate/sanitize.js";
import { type MergeHooks, MergeKind, type MergeOutcome } from "./outcome.js";
import { forgetUndo, recordUndo } from "./undo.js";

/** One uncommitted change, as `git status --short` names it: its path(s) and its XY status. */
interface Uncommitted {
  /** The path in the work tree (a staged rename's new one), and a staged rename's old one. */
  paths: string[];
  /** In the index (staged, or an intent-to-add entry), not only in the work tree. */
  staged: boolean;
  line: string;
}

/**
 * What makes the work tree dirty: the index or the tracked files differing from HEAD. Untracked files
 * do not count, nor edits inside a submodule's own work tree (`--ignore-submodules=dirty`): a merge
 * never touches them (proposals carry no gitlink), and `git stash`, the hint, cannot put them aside.
 * A submodule checked out at another commit than HEAD records still counts.
 */
async function uncommittedChanges(run: GitRun): Promise<Uncommitted[]> {
  const status = await git(
    [
      "--no-optional-locks",
      "status",
      "--porcelain=v1",
      "-z",
      "--untracked-files=no",
      "--ignore-submodules=dirty",
    ],
    run,
  );
  const quotePath = await readQuotePath(run);
  const quote = (path: string) => quoteLikeGit(path, quotePath);
  const fields = status.stdout.split("\0");
  const changes: Uncommitted[] = [];
  for (let at = 0; at < fields.length; at++) {
    const field = fields[at] as string;
    if (field.length < 4) continue;
    const xy = field.slice(0, 2);
    const path = field.slice(3);
    // A rename or copy, staged or (an intent-to-add entry's, " R") in the work tree: its source
    // follows, as its own field.
    const from = /[RC]/.test(xy) ? fields[++at] : undefined;
    changes.push({
      paths: from === undefined ? [path] : [path, from],
      staged: xy[0] !== " " || /[AR]/.test(xy[1] as string),
      line: sanitizeLine(
        from === undefined ? `${xy} ${quote(path)}` : `${xy} ${quote(from)} -> ${quote(path)}`,
      ),
    });
  }
  return changes;
}

/** The uncommitted changes a refused merge names, as `git status --short` does; then a count. */
const NAMED_CHANGES = 10;

function namedChanges(changes: readonly Uncommitted[]): string[] {
  const more = changes.length - NAMED_CHANGES;
  return [
    ...changes.slice(0, NAMED_CHANGES).map((change) => change.line),
    ...(more > 0 ? [messages.moreUncommitted(more)] : []),
  ];
}

/**
 * Refuse staged changes: a merge commit is made from the index (git merge refuses one that differs
 * from HEAD), and the undo, `git reset --keep`, sets the index back to HEAD's, which would lose them.
 */
function verifyNothingStaged(changes: readonly Uncommitted[]): void {
  const staged = changes.filter((change) => change.staged);
  if (staged.length > 0) {
    throw new ReviewRemoteError(messages.stagedChanges, {
      details: namedChanges(staged),
      hints: [messages.hintStash],
    });
  }
}

/**
 * Refuse uncommitted changes to a path the merge writes: it must never mix the proposals with
 * uncommitted work. Changes to other paths stay as they are, as `git merge` leaves them.
 */
function verifyUntouched(changes: readonly Uncommitted[], touched: ReadonlySet<string>): void {
  const overlaps = (path: string) => {
    if (touched.has(path)) return true;
    // A directory over a path of the other side (a submodule's, a deleted file's place).
    for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) {
      if (touched.has(path.slice(0, at))) return true;
    }
    return [...touched].some((other) => other.startsWith(`${path}/`));
  };
  const mixed = changes.filter((change) => change.paths.some(overlaps));
  if (mixed.length > 0) {
    throw new ReviewRemoteError(messages.dirtyWorkTree, {
      details: namedChanges(mixed),
      hints: [messages.hintStash],
    });
  }
}

/** The lines of `changes`, to tell whether a rolled-back merge left them as they were. */
const statusLines = (changes: readonly Uncommitted[]) => changes.map((change) => change.line).join("\n");

/**
 * Preview without touching anything (git >= 2.38). merge-tree writes the merged trees and
 * conflicted blobs, so it writes them to a throwaway object directory. Its exit 1 means conflicts
 * only when it printed a tree (git-merge-tree(1), "OUTPUT") and, with --no-messages, nothing on
 * stderr: an object it cannot read (a broken environment, a damaged store) also exits 1, with an
 * "error:" line. Anything else is a failure to merge, never a conflict. Without conflicts, `touched`
 * is every path the merge writes (those whose merged tree differs from HEAD's) and every path the
 * proposals change (`base..tip`).
 */
async function previewMerge(
  repo: Repo,
  run: GitRun,
  head: string,
  tip: string,
  base: string,
): Promise<{ conflicts: string[]; touched: Set<string>; writes: TreeChange[] }> {
  const scratch = await createTempDir(MERGE_PREFIX);
  const env = privateObjectEnv(run.env, { objects: scratch, alternates: [join(repo.commonDir, "objects")] });
  try {
    // -z: the names as they are, quoted here as the work-tree merge quotes its own.
    const preview = await git(
      ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", head, tip],
      {
        ...run,
        env,
        allowFailure: true,
      },
    );
    const [tree = "", ...files] = preview.stdout.split("\0");
    if (preview.exitCode === 1 && OBJECT_ID.test(tree) && preview.stderr.trim() === "") {
      return { conflicts: files.filter(Boolean), touched: new Set(), writes: [] };
    }
    if (preview.exitCode !== 0) {
      const why = preview.stderr.trim().split("\n")[0] || `exit code ${preview.exitCode}`;
      throw new ReviewRemoteError(messages.mergeTreeFailed(why));
    }
    const writes = await diffTrees({ ...run, env }, head, tree, { renames: false });
    const touched = new Set(writes.map((change) => change.path));
    for (const change of await diffTrees({ ...run, env }, base, tip, { renames: false }))
      touched.add(change.path);
    return { conflicts: [], touched, writes };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Put back the index file's exact bytes, taking index.lock as git does; skipped if git holds it. */
async function restoreIndexFile(path: string, bytes: Buffer): Promise<void> {
  const lock = `${path}.lock`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lock, "wx", 0o644);
  } catch {
    return;
  }
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  await rename(lock, path).catch(() => rm(lock, { force: true }));
}

/** The files of a merge in progress, in the work tree's git directory, that `git merge` writes. */
const MERGE_STATE = ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE"];

/** Which of MERGE_STATE are there now. */
async function mergeState(gitDir: string): Promise<Set<string>> {
  const there = new Set<string>();
  for (const name of MERGE_STATE) {
    const exists = await access(join(gitDir, name)).then(
      () => true,
      () => false,
    );
    if (exists) there.add(name);
  }
  return there;
}

/**
 * A merge a hook refused (pre-merge-commit, commit-msg) leaves git's merge in progress: MERGE_HEAD
 * naming the proposals. Left there, the user's next `git commit` would make a merge commit of their
 * own uncommitted changes, and `git reset --keep`, the undo, refuses to run. What this merge wrote
 * of it goes; a merge state there before it is the user's and stays.
 */
async function clearMergeState(gitDir: string, before: ReadonlySet<string>): Promise<void> {
  for (const name of await mergeState(gitDir)) {
    if (!before.has(name)) await rm(join(gitDir, name), { force: true });
  }
}

/**
 * `git merge` writes the index and the work tree before it moves HEAD: when it fails after that
 * (HEAD or the branch locked by another git), undo what it wrote, as `git merge --abort` would: a
 * two-tree checkout from the index back to HEAD (it refuses to overwrite anything else), then the
 * index's own bytes. Returns whether the repository is as it was: `uncommitted`, the status lines
 * before the merge, and no other change.
 */
async function rollBack(
  run: GitRun,
  head: string,
  indexFile: string,
  index: Buffer | undefined,
  uncommitted: string,
  writes: readonly TreeChange[],
) {
  if ((await readHead(run)) !== head) return false;
  const headTree = await treeOf(run, head);
  try {
    const written = await writeTree(run);
    if (written !== headTree) await checkoutTreeMerge(run, written, headTree);
    else await restoreWrittenFiles(run, head, writes);
  } catch {
    return false;
  }
  if (index) await restoreIndexFile(indexFile, index);
  // The uncommitted changes the merge left alone are still there, and nothing else is.
  return statusLines(await uncommittedChanges(run)) === uncommitted;
}

/**
 * git merge stopped (Ctrl-C, a signal, a smudge filter failing) after it wrote some files of the
 * work tree but before it wrote the index: the index still says HEAD, and those files hold the
 * merge's bytes. Each path the merge writes (all clean before it: verifyUntouched) whose file is now
 * exactly what the merge would write, or gone (deleted, or removed to be written again), goes back
 * to HEAD's: checked out from HEAD, or removed where HEAD has no such path (`writes` holds an added
 * path only where nothing was there before the merge). Anything else is left for the status check.
 */
async function restoreWrittenFiles(run: GitRun, head: string, writes: readonly TreeChange[]): Promise<void> {
  const fromHead: string[] = [];
  for (const change of writes) {
    const file = join(run.cwd, change.path);
    const stat = await lstat(file).catch(() => undefined);
    if (stat === undefined) {
      // Deleted by the merge, or removed to be written again when it stopped.
      if (change.status !== "A") fromHead.push(change.path);
      continue;
    }
    if (change.status === "D") continue;
    if (!stat.isFile() || (change.newMode !== Mode.regular && change.newMode !== Mode.executable)) continue;
    const hashed = await git(["hash-object", "--path", change.path, "--", file], {
      ...run,
      allowFailure: true,
    });
    if (hashed.exitCode !== 0 || hashed.stdout.trim() !== change.newOid) continue;
    if (change.status === "A") await rm(file, { force: true });
    else fromHead.push(change.path);
  }
  if (fromHead.length === 0) return;
  await git(["checkout", head, "--pathspec-from-file=-", "--pathspec-file-nul"], {
    ...run,
    env: { ...run.env, GIT_LITERAL_PATHSPECS: "1" },
    input: fromHead.map((path) => `${path}\0`).join(""),
  });
}

/**
 * The proposals sit on the reviewed commit: merging them where HEAD does not contain it (another
 * branch checked out, or the branch rebased since) would bring that commit and its history along,
 * a fast-forward onto an unmerged branch, and say only "merged". Refused, nothing changed.
 */
async function verifySnapshotInHead(
  run: GitRun,
  record: ReviewRecord,
  head: string,
  tip: string,
  top: string,
): Promise<void> {
  const snapshot = record.snapshot.commit;
  if (await isAncestor(run, snapshot, head)) return;
  const short = snapshot.slice(0, 10);
  // A linked work tree that has the reviewed commit checked out (or a descendant): the merge is there.
  let there: string | undefined;
  for (const tree of await workTrees(run)) {
    if (tree.path === top || tree.head === undefined || there !== undefined) continue;
    if (tree.head === snapshot || (await isAncestor(run, snapshot, tree.head))) there = tree.path;
  }
  throw new ReviewRemoteError(messages.snapshotNotInHead(record.id, short), {
    hints: [
      ...(there
        ? [messages.hintMergeInCheckout(`${gitIn(there, top)} review-remote merge ${record.id}`)]
        : []),
      messages.hintMergeOnReviewedBranch(short),
      messages.hintCherryPickProposals(short, record.branch ?? tip),
    ],
  });
}

/**
 * A merge commit needs the user's identity, as author and as committer: without one, `git merge`
 * fails after the undo was printed, with the first line of git's advice only. Asked first (`git
 * var`, as git commit asks), from git config or the GIT_AUTHOR_* / GIT_COMMITTER_* a CI job sets.
 */
async function verifyIdentity(run: GitRun): Promise<void> {
  for (const role of ["author", "committer"] as const) {
    const ident = await git(["var", `GIT_${role.toUpperCase()}_IDENT`], { ...run, allowFailure: true });
    if (ident.exitCode !== 0) {
      throw new ReviewRemoteError(messages.noIdentity(role), { hints: [messages.hintSetIdentity] });
    }
  }
}

export async function mergeCommitSnapshot(
  repo: Repo,
  record: ReviewRecord,
  tip: string,
  hooks: MergeHooks,
): Promise<MergeOutcome> {
  const run = { cwd: requireWorkTree(repo), env: repo.env };
  const uncommitted = await uncommittedChanges(run);
  verifyNothingStaged(uncommitted);
  const head = await readHead(run);
  if (head === undefined) throw new ReviewRemoteError(messages.noHeadToMergeInto);
  if (await isAncestor(run, tip, head)) {
    return { kind: MergeKind.alreadyMerged, reviewId: record.id, previous: head };
  }
  await verifySnapshotInHead(run, record, head, tip, run.cwd);
  const { conflicts, touched, writes } = await previewMerge(
    repo,
    run,
    head,
    tip,
    record.snapshot.commit,
  ).catch((error: unknown) => {
    // Ctrl-C stopped git merge-tree too: what it printed dying is no reason.
    if (hooks.guard.received)
      throw new InterruptedError(messages.interruptedNothingChanged, { cause: error });
    throw error;
  });
  if (conflicts.length > 0) {
    throw new MergeConflictError(messages.conflictWithHead(record.id), {
      details: conflicts.map((file) => conflictDetail(file)),
      hints: [messages.hintInspectRange(`HEAD...${record.branch}`), messages.hintMergeByHand(record.branch)],
    });
  }
  verifyUntouched(uncommitted, touched);
  const fastForward = await isAncestor(run, head, tip);
  if (!fastForward) await verifyIdentity(run);
  if (hooks.guard.received) throw new InterruptedError(messages.interruptedNothingChanged);
  await recordUndo(run, record, head);
  const undo = `git reset --keep ${head}`;
  hooks.onUndo(undo);
  const indexFile = join(repo.gitDir, "index");
  const index = await readFile(indexFile).catch(() => undefined);
  const stateBefore = await mergeState(repo.gitDir);
  // What a stopped merge may put back (restoreWrittenFiles): an added path only where no file of the
  // user's (untracked, ignored) was there before it, whatever its bytes.
  const restorable: TreeChange[] = [];
  for (const change of writes) {
    const there = change.status === "A" && (await lstat(join(run.cwd, change.path)).catch(() => undefined));
    if (!there) restorable.push(change);
  }
  // --no-autostash: merge.autostash would move the uncommitted changes into MERGE_AUTOSTASH, and a
  // merge that fails or is stopped would leave them there, out of the work tree.
  // --no-overwrite-ignore: git merge writes over an ignored file of the user's at a path the
  // proposals add, which no status line names; refused instead, nothing changed.
  const args = fastForward
    ? ["merge", "--ff-only", "--quiet", "--no-autostash", "--no-overwrite-ignore", tip]
    : [
        "merge",
        "--no-ff",
        "--quiet",
        "--no-autostash",
        "--no-overwrite-ignore",
        "--no-edit",
        "-m",
        `Merge review ${record.id} (${record.worker.name})`,
        tip,
      ];
  const merged = await git(args, { ...run, allowFailure: true });
  if (merged.exitCode !== 0) {
    // Ctrl-C reaches git merge (and its hooks) too: its stderr's first line is then no reason.
    const interrupted = hooks.guard.received !== undefined;
    const said = (merged.stderr.trim().split("\n")[0] ?? "").replace(/^(fatal|error): /, "");
    // Killed by a signal (another process's, a filter's), git says nothing.
    const reason = said || `it stopped with no message (exit code ${merged.exitCode})`;
    await clearMergeState(repo.gitDir, stateBefore);
    if (await rollBack(run, head, indexFile, index, statusLines(uncommitted), restorable)) {
      await forgetUndo(run, record, head);
      if (interrupted) throw new InterruptedError(messages.interruptedNothingChanged);
      throw new ReviewRemoteError(messages.mergeFailed(reason));
    }
    const hints = [messages.hintUndoMerge(undo)];
    if (interrupted) throw new InterruptedError(messages.mergeInterruptedHalfway, { hints });
    throw new ReviewRemoteError(messages.mergeFailedHalfway(reason), { hints });
  }
  const kind = fastForward ? MergeKind.fastForward : MergeKind.merged;
  return { kind, reviewId: record.id, previous: head, undo };
}
