// A git directory laid out in-process, as `git init --template=` lays it out (gitrepository-layout(5)),
// and its refs: one process start fewer on every worker request, for a repository that lives minutes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface GitDirLayout {
  bare: boolean;
  /** The branch HEAD names (it need not exist yet). */
  branch: string;
  /** Appended to the [core] section git itself would write. */
  config: string;
  /** `info/attributes`: attributes that win over every `.gitattributes` in the tree. */
  attributes: string;
  /** `objects/info/alternates`: object directories read besides this one. */
  alternates?: readonly string[];
}

export function initGitDir(gitDir: string, layout: GitDirLayout): void {
  for (const dir of ["objects/info", "objects/pack", "refs/heads", "refs/tags", "info"]) {
    mkdirSync(join(gitDir, dir), { recursive: true });
  }
  writeFileSync(join(gitDir, "HEAD"), `ref: refs/heads/${layout.branch}\n`);
  const core = layout.bare
    ? "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"
    : "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n";
  writeFileSync(join(gitDir, "config"), core + layout.config);
  writeFileSync(join(gitDir, "info", "attributes"), layout.attributes);
  if (layout.alternates) {
    writeFileSync(
      join(gitDir, "objects", "info", "alternates"),
      layout.alternates.map((dir) => `${dir}\n`).join(""),
    );
  }
}

/** A loose ref (`refs/heads/<name>`...) pointing at `oid`. */
export function writeRef(gitDir: string, ref: string, oid: string): void {
  writeFileSync(join(gitDir, ref), `${oid}\n`);
}
