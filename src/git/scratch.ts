// A throwaway git dir that borrows the repo's objects: everything the export writes (trees,
// synthetic commits, work-tree blobs) goes here, so the user's object store stays as it was.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createTempDir,
  MERGE_PREFIX,
  QUARANTINE_PREFIX,
  removeStale,
  SCRATCH_PREFIX,
} from "../os/tempdir.js";
import type { Repo } from "../repo.js";
import { NO_CONVERSIONS, TOOL_AUTHOR, TOOL_COMMITTER } from "./identity.js";
import { cleanEnv, type Env } from "./run.js";

/** Fixed identity and date: the same tree always gives the same commit, and the same tar. */
export const SYNTHETIC_IDENTITY: Env = {
  ...TOOL_AUTHOR,
  ...TOOL_COMMITTER,
  GIT_AUTHOR_DATE: "946684800 +0000",
  GIT_COMMITTER_DATE: "946684800 +0000",
};

export interface Scratch {
  dir: string;
  gitDir: string;
  objectsDir: string;
  repoObjectsDir: string;
  /** Env for gits that run inside the scratch dir, isolated from every user and system config. */
  env: Env;
  dispose(): Promise<void>;
}

export async function createScratch(repo: Pick<Repo, "commonDir">): Promise<Scratch> {
  await removeStale([SCRATCH_PREFIX, QUARANTINE_PREFIX, MERGE_PREFIX]);
  const dir = await createTempDir(SCRATCH_PREFIX);
  const gitDir = join(dir, "git");
  const objectsDir = join(gitDir, "objects");
  const repoObjectsDir = join(repo.commonDir, "objects");
  await mkdir(join(objectsDir, "info"), { recursive: true });
  await mkdir(join(gitDir, "refs"), { recursive: true });
  await mkdir(join(gitDir, "info"), { recursive: true });
  await writeFile(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
  await writeFile(join(objectsDir, "info", "alternates"), `${repoObjectsDir}\n`);
  await writeFile(join(gitDir, "info", "attributes"), NO_CONVERSIONS);
  const env = cleanEnv(
    {
      GIT_DIR: gitDir,
      GIT_INDEX_FILE: join(dir, "index"),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      ...SYNTHETIC_IDENTITY,
    },
    { userConfig: false },
  );
  return {
    dir,
    gitDir,
    objectsDir,
    repoObjectsDir,
    env,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
