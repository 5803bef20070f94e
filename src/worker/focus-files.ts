// A focused review's change as two files every reviewer can read (design §8): the changed paths that
// are in the tree, NUL-terminated as `git diff -z --name-only --diff-filter=d` prints them
// ($REVIEW_REMOTE_CHANGED, for `xargs -0 <linter>`: a deleted path would make the linter fail, as
// lint-staged learned), and the lines each change touched as JSON ($REVIEW_REMOTE_CHANGED_LINES,
// deleted files included). A whole-tree review writes neither.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChangedLines } from "../protocol/changed-lines.js";

export interface FocusFiles {
  changed: string;
  changedLines: string;
}

/** `inTree` says whether a path is a file or symlink of the unpacked tree. */
export function writeFocusFiles(
  dir: string,
  changes: ChangedLines,
  inTree: (path: string) => boolean,
): FocusFiles {
  const files = { changed: join(dir, "changed"), changedLines: join(dir, "changed-lines.json") };
  const names = changes.files
    .filter((file) => inTree(file.path))
    .map((file) => `${file.path}\0`)
    .join("");
  writeFileSync(files.changed, names, { mode: 0o400 });
  writeFileSync(files.changedLines, `${JSON.stringify(changes)}\n`, { mode: 0o400 });
  return files;
}
