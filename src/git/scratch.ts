// A throwaway git dir that borrows the repo's objects: everything the export writes (trees,
// synthetic commits, work-tree blobs) goes here, so the user's object store stays as it was.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTempDir, LOCAL_PREFIXES, removeStale, SCRATCH_PREFIX } from "../os/tempdir.js";
import type { Repo } from "../repo.js";
import { NO_CONVERSIONS, SYNTHETIC_IDENTITY } from "./identity.js";
import { ObjectFormat, type PrivateObjects } from "./objects.js";
import { cleanEnv, type Env } from "./run.js";

export interface Scratch {
  dir: string;
  gitDir: string;
  objectFormat: ObjectFormat;
  /** The scratch objects, borrowing the repo's: for gits that run on the user's repo. */
  objects: PrivateObjects;
  /** Env for gits that run inside the scratch dir, isolated from every user and system config. */
  env: Env;
  dispose(): Promise<void>;
}

/**
 * The repository format of the scratch dir: the repo's object format, or git reads every object
 * name of a SHA-256 repository as invalid (gitrepository-layout(5), extensions.objectFormat).
 */
function repositoryConfig(format: ObjectFormat): string {
  if (format === ObjectFormat.sha1) return "[core]\n\trepositoryformatversion = 0\n";
  return `[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = ${format}\n`;
}

export async function createScratch(repo: Pick<Repo, "commonDir" | "objectFormat">): Promise<Scratch> {
  await removeStale(LOCAL_PREFIXES);
  const dir = await createTempDir(SCRATCH_PREFIX);
  const gitDir = join(dir, "git");
  const objectsDir = join(gitDir, "objects");
  const repoObjectsDir = join(repo.commonDir, "objects");
  await mkdir(join(objectsDir, "info"), { recursive: true });
  await mkdir(join(gitDir, "refs"), { recursive: true });
  await mkdir(join(gitDir, "info"), { recursive: true });
  await writeFile(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
  await writeFile(join(gitDir, "config"), repositoryConfig(repo.objectFormat));
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
    objectFormat: repo.objectFormat,
    objects: { objects: objectsDir, alternates: [repoObjectsDir] },
    env,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
