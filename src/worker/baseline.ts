// Turns the unpacked tree into a git repository at one "baseline" commit whose tree is the snapshot's
// tree byte for byte, so that `git diff baseline..<reviewer commit>` is a patch the client can apply.
// It is written from the listing, not by git reading every file back (design §8). Every git the
// worker runs gets an isolated config: nothing from the host or the operator leaks in.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_CONVERSIONS } from "../git/identity.js";
import { cleanEnv, type Env } from "../git/run.js";
import { encodeCommit, ObjectType, objectId } from "../git/write/objects.js";
import { PackWriter } from "../git/write/pack.js";
import { initGitDir, writeRef } from "../git/write/repository.js";
import { packBlobs } from "./baseline-blobs.js";
import { buildBaselineTrees } from "./baseline-tree.js";
import type { BundleListing } from "./verify-bundle.js";

/** Identity and dates for commits the worker makes (the client never uses them: design §6). */
export const WORKER_IDENTITY = {
  GIT_AUTHOR_NAME: "git-review-remote worker",
  GIT_AUTHOR_EMAIL: "worker@git-review-remote.invalid",
  GIT_COMMITTER_NAME: "git-review-remote worker",
  GIT_COMMITTER_EMAIL: "worker@git-review-remote.invalid",
} as const;

const FIXED_DATES = {
  GIT_AUTHOR_DATE: "2000-01-01T00:00:00+0000",
  GIT_COMMITTER_DATE: "2000-01-01T00:00:00+0000",
};

/**
 * Config every repository the worker creates carries, also read by the reviewer's own git.
 * looseCompression 0: the repository lives on tmpfs for minutes; storing objects uncompressed costs
 * nothing there. checkStat minimal and trustCtime false: the index written from the listing knows
 * each file's size and mtime, not its inode or ctime; git then compares those two (and the mode),
 * and still hashes a file whose mtime is as recent as the index (racy git).
 */
const REPO_CONFIG = `[core]
\tautocrlf = false
\tfilemode = true
\tsymlinks = true
\thooksPath = /dev/null
\tfsmonitor = false
\tuntrackedCache = false
\tlooseCompression = 0
\tcheckStat = minimal
\ttrustCtime = false
[gc]
\tauto = 0
[commit]
\tgpgsign = false
[user]
\tname = ${WORKER_IDENTITY.GIT_AUTHOR_NAME}
\temail = ${WORKER_IDENTITY.GIT_AUTHOR_EMAIL}
`;

/**
 * The worker's own "global" config: the tree belongs to the sandbox user, so git's ownership check
 * needs safe.directory, which git 2.39 reads only from global or system config.
 */
const GLOBAL_CONFIG = `${REPO_CONFIG}[safe]
\tdirectory = *
[init]
\tdefaultBranch = review
`;

/** The environment of every git the worker runs; `home` is the workspace's private HOME. */
export function workerGitEnv(home: string): Env {
  // `git -c` from whoever started the worker arrives as GIT_CONFIG_PARAMETERS: not ours to honor here.
  return cleanEnv(
    {
      HOME: home,
      XDG_CONFIG_HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
      GIT_ATTR_NOSYSTEM: "1",
      GIT_NO_REPLACE_OBJECTS: "1",
      ...WORKER_IDENTITY,
      ...FIXED_DATES,
    },
    { userConfig: false },
  );
}

export function writeWorkerGlobalConfig(home: string): void {
  writeFileSync(join(home, ".gitconfig"), GLOBAL_CONFIG, { mode: 0o600 });
}

/** What the reviewer's repository starts from: the commit, its tree, and the index (kept aside too). */
export interface Baseline {
  commit: string;
  tree: string;
  index: Buffer;
}

const BRANCH = "review";
/** FIXED_DATES as git writes an ident's date: seconds and zone. */
const FIXED_IDENT_DATE = `${Date.parse(FIXED_DATES.GIT_COMMITTER_DATE) / 1000} +0000`;
const WORKER_IDENT = `${WORKER_IDENTITY.GIT_COMMITTER_NAME} <${WORKER_IDENTITY.GIT_COMMITTER_EMAIL}> ${FIXED_IDENT_DATE}`;

/** tree/.git with no commit yet: what git check-attr needs, and where loose objects can go. */
export function initBaselineRepository(tree: string): string {
  const gitDir = join(tree, ".git");
  initGitDir(gitDir, { bare: false, branch: BRANCH, config: REPO_CONFIG, attributes: NO_CONVERSIONS });
  return gitDir;
}

/**
 * Writes tree/.git: the trees and the commit of the snapshot (one small pack), the index with the
 * files' sizes and mtimes, the branch. With `allBlobs`, every blob too, packed from the unpacked
 * files; without, only what a reviewer rewrites gets written (`keepOriginalBlob`), which is all that
 * collecting a built-in reviewer reads.
 */
export function createBaseline(
  tree: string,
  listing: BundleListing,
  snapshot: string,
  { allBlobs }: { allBlobs: boolean },
): Baseline {
  const gitDir = initBaselineRepository(tree);
  const packDir = join(gitDir, "objects", "pack");
  // A tree per directory (every one holds a file), the root's, and the commit.
  const directories = listing.nodes.size - listing.files;
  const pack = new PackWriter(join(packDir, "tmp_baseline_pack"), directories + 2);
  let built: ReturnType<typeof buildBaselineTrees>;
  let commitOid: Buffer;
  try {
    built = buildBaselineTrees(listing, (oid, body) => pack.addWhole(ObjectType.tree, body, oid));
    const commitBody = encodeCommit({
      tree: built.root.toString("hex"),
      parents: [],
      author: WORKER_IDENT,
      committer: WORKER_IDENT,
      message: `Snapshot ${snapshot}\n`,
    });
    commitOid = objectId(ObjectType.commit, commitBody);
    pack.addWhole(ObjectType.commit, commitBody, commitOid);
    pack.finish(packDir);
  } finally {
    pack.close();
  }
  const treeOid = built.root.toString("hex");
  if (allBlobs) packBlobs(tree, listing, packDir);
  const commit = commitOid.toString("hex");
  writeRef(gitDir, `refs/heads/${BRANCH}`, commit);
  const { index } = built;
  writeFileSync(join(gitDir, "index"), index);
  return { commit, tree: treeOid, index };
}

/**
 * A bare git dir owned by the worker that sees the tree's objects through `alternates`: the reviewer
 * can rewrite tree/.git/config (core.fsmonitor, diff drivers...), so the worker never runs git with it.
 */
export function createPrivateGitDir(gitDir: string, treeObjects: string): void {
  initGitDir(gitDir, {
    bare: true,
    branch: BRANCH,
    config: REPO_CONFIG,
    attributes: NO_CONVERSIONS,
    alternates: [treeObjects],
  });
}
