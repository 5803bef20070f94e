// The message of a commit the scope stage kept only part of. The built-in worker names a reviewer's
// commit after its fixes (`biome: 1383 fixes (...)`) and lists each file under it with that file's
// own fixes (`src/a.ts: 2 fixes (lint/style/noVar)`): kept to the change's files, the subject is
// said again from their lines, so the branch does not call one file's fix "1383 fixes". Any other
// message (a third-party worker's prose, an agent's) keeps its words, its subject marked with what
// is left of the commit; the note says it in full.
import { workerMessages as m } from "../worker/messages.js";

/** One file's fixes, as a body line of the built-in worker's reviewer commits spells them. */
interface FileFixes {
  line: string;
  fixes: number;
  rules: string[];
}

const FIXES_SUBJECT = /^(.+): \d+ fix(?:es)?(?: \(.*\))?$/;
const FILES_SUBJECT = /^(.+): \d+ files? changed \(.*\)$/;
const FILE_LINE = /^(.+): (\d+) fix(?:es)?(?: \((.*)\))?$/;
const MAX_NAMES = 3;
const MORE = "...";

/** The body's per-file lines, by path; empty for any other message. */
export function readFileFixes(message: string): Map<string, FileFixes> {
  const files = new Map<string, FileFixes>();
  const [subject = "", ...body] = message.split("\n");
  if (!FIXES_SUBJECT.test(subject)) return files;
  for (const line of body) {
    const match = FILE_LINE.exec(line);
    if (!match) continue;
    const rules = (match[3] ?? "").split(", ").filter((rule) => rule !== "");
    files.set(match[1] as string, { line, fixes: Number(match[2]), rules });
  }
  return files;
}

function list(names: readonly string[], more: boolean): string {
  const shown = names.slice(0, MAX_NAMES);
  return more || names.length > MAX_NAMES ? [...shown, MORE].join(", ") : shown.join(", ");
}

/**
 * The message of `message`'s commit kept to `kept` (one path per kept file, its name after the
 * commit) of its `total` files, with `note` saying what was left out. A built-in reviewer commit is
 * named again after what it keeps: its kept files' fixes when every one has its line, else its kept
 * files; any other subject says how much of the commit is left (`(kept to the change: 1 of 243 files)`).
 */
export function scopedMessage(message: string, kept: readonly string[], total: number, note: string): string {
  const [subject = "", ...body] = message.trimEnd().split("\n");
  const label = (FIXES_SUBJECT.exec(subject) ?? FILES_SUBJECT.exec(subject))?.[1];
  if (label === undefined) {
    const marked = `${subject} ${m.keptToChange(kept.length, total)}`;
    return `${[marked, ...body].join("\n")}\n\n${note}`;
  }
  const fixes = readFileFixes(message);
  const lines = kept.map((path) => fixes.get(path));
  if (lines.every((line): line is FileFixes => line !== undefined)) {
    const rules = [...new Set(lines.flatMap((line) => line.rules))];
    const named = rules.filter((rule) => rule !== MORE);
    const total = lines.reduce((sum, line) => sum + line.fixes, 0);
    const title = m.fixesMessage(label, total, list(named, named.length < rules.length));
    return `${title}\n\n${lines.map((line) => line.line).join("\n")}\n\n${note}`;
  }
  const title = m.changesMessage(label, kept.length, list(kept, false));
  return `${title}\n\n${kept.join("\n")}\n\n${note}`;
}
