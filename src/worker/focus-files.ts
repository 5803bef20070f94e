// A focused review's change as two files every reviewer can read (design §8): the changed paths,
// NUL-terminated as `git diff -z --name-only` prints them ($REVIEW_REMOTE_CHANGED), and the lines
// each change touched as JSON ($REVIEW_REMOTE_CHANGED_LINES). A whole-tree review writes neither.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChangedLines } from "../protocol/changed-lines.js";

export interface FocusFiles {
  changed: string;
  changedLines: string;
}

export function writeFocusFiles(dir: string, changes: ChangedLines): FocusFiles {
  const files = { changed: join(dir, "changed"), changedLines: join(dir, "changed-lines.json") };
  const names = changes.files.map((file) => `${file.path}\0`).join("");
  writeFileSync(files.changed, names, { mode: 0o400 });
  writeFileSync(files.changedLines, `${JSON.stringify(changes)}\n`, { mode: 0o400 });
  return files;
}
