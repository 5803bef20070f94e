// Unified diffs (`shellcheck -f diff`, `gofmt -d`, `diff -u`, `git diff`): each file section gets the `diff --git`
// header git apply wants where the tool wrote only `--- a/` and `+++ b/`, and the whole is then checked
// by the patch gate a result's patches pass, so the worker never applies what the local side refuses.

import { checkPatchText } from "../../validate/patch-gate.js";
import { readFileLineName, readFileLineRawName, readGitLineNames } from "../../validate/patch-headers.js";
import { quoteForDisplay } from "../../validate/sanitize.js";
import { workerMessages as m } from "../messages.js";
import { type DiffSection, splitDiff } from "./diff-sections.js";
import { cutAtLastLine } from "./lines.js";
import { treePathFromFile } from "./tree-paths.js";
import type { ConvertContext, ConvertedReport, ConvertOutcome, ReportPatch } from "./types.js";

interface Normalized {
  lines: string[];
  origins: number[];
  file: string;
}

const fail = (problem: string): { ok: false; error: string } => ({ ok: false, error: `diff: ${problem}` });
const emptyReport = (warnings: string[]): ConvertedReport => ({
  comments: [],
  overLimit: 0,
  fixes: [],
  warnings,
});

/**
 * The old and new names of a `---`/`+++` section (undefined for /dev/null). With `a/` and `b/` they are
 * stripped (git's and shellcheck's prefixes, `patch -p1`); a tool that writes neither names the files
 * as they are (`patch -p0`: gofmt -d, black --diff, ruff format --diff, `diff -u x.orig x`), relative
 * to the tree or absolute inside it.
 */
function plainNames(
  minusLine: string,
  plusLine: string,
  treeRoot: string,
): { oldName: string | undefined; newName: string | undefined } | string {
  const minus = readFileLineRawName(minusLine.slice(4));
  const plus = readFileLineRawName(plusLine.slice(4));
  const problem = minus.problems[0] ?? plus.problems[0];
  if (problem !== undefined) return problem;
  const [rawOld] = minus.names;
  const [rawNew] = plus.names;
  const prefixed =
    (rawOld === undefined || rawOld.startsWith("a/")) && (rawNew === undefined || rawNew.startsWith("b/"));
  if (prefixed) return { oldName: rawOld?.slice(2), newName: rawNew?.slice(2) };
  const inTree = (raw: string | undefined): { name: string | undefined } | string => {
    if (raw === undefined) return { name: undefined };
    const path = treePathFromFile(raw, treeRoot);
    if (path.ok) return { name: path.path };
    // The path rules name the path themselves; where it lies does not.
    return path.reason.startsWith("path ")
      ? path.reason
      : `file name ${quoteForDisplay(raw)}: ${path.reason}`;
  };
  const newPath = inTree(rawNew);
  if (typeof newPath === "string") return newPath;
  // gofmt -d names the file before as `<file>.orig`, as `diff -u x.orig x` does: the same file.
  const oldPath = rawNew !== undefined && rawOld === `${rawNew}.orig` ? newPath : inTree(rawOld);
  if (typeof oldPath === "string") return oldPath;
  return { oldName: oldPath.name, newName: newPath.name };
}

/** A `---`/`+++` section with a git header; the names checked, their timestamps dropped. */
function normalizePlain(section: DiffSection, treeRoot: string): Normalized | string {
  const [minusLine = "", plusLine = "", ...rest] = section.lines;
  const [origin = 0] = section.origins;
  const names = plainNames(minusLine, plusLine, treeRoot);
  if (typeof names === "string") return `line ${origin}: ${names}`;
  const { oldName, newName } = names;
  const name = newName ?? oldName;
  if (name === undefined) return `line ${origin}: ${m.bothDevNull}`;
  if (oldName !== undefined && newName !== undefined && oldName !== newName)
    return `line ${origin}: ${m.plainRename}`;
  const mode =
    oldName === undefined
      ? ["new file mode 100644"]
      : newName === undefined
        ? ["deleted file mode 100644"]
        : [];
  const header = [
    `diff --git a/${name} b/${name}`,
    ...mode,
    oldName === undefined ? "--- /dev/null" : `--- a/${name}`,
    newName === undefined ? "+++ /dev/null" : `+++ b/${name}`,
  ];
  return {
    lines: [...header, ...rest],
    origins: [...header.map(() => origin), ...section.origins.slice(2)],
    file: name,
  };
}

/** A section from git diff passes as written; its file is the +++ name, else the --- or header one. */
function normalizeGit(section: DiffSection): Normalized {
  const named = (marker: string) =>
    section.lines.find((line) => line.startsWith(marker) && line.slice(4) !== "/dev/null");
  const plus = named("+++ ");
  const minus = named("--- ");
  const names = plus
    ? readFileLineName(plus.slice(4), "b/").names
    : minus
      ? readFileLineName(minus.slice(4), "a/").names
      : readGitLineNames((section.lines[0] ?? "").slice("diff --git ".length)).names.slice(-1);
  return { lines: section.lines, origins: section.origins, file: names[0] ?? "" };
}

/** The sections that fit in `maxBytes` together, in order. */
function withinLimit(sections: readonly Normalized[], maxBytes: number): Normalized[] {
  const kept: Normalized[] = [];
  let total = 0;
  for (const section of sections) {
    total += section.lines.reduce((sum, line) => sum + Buffer.byteLength(line, "utf8") + 1, 0);
    if (total > maxBytes) break;
    kept.push(section);
  }
  return kept;
}

/** The sections as one patch, checked by the patch gate; a problem names the report's line. */
function gatedPatch(sections: readonly Normalized[], maxPatchBytes: number): ReportPatch | string {
  const text = `${sections.flatMap((section) => section.lines).join("\n")}\n`;
  const origins = sections.flatMap((section) => section.origins);
  const problem = checkPatchText(text, { maxPatchBytes })[0];
  if (problem === undefined) return { text, files: sections.map((section) => section.file) };
  return problem.replace(/^line ([0-9]+):/, (_, n: string) => `line ${origins[Number(n) - 1] ?? n}:`);
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function convertDiff(bytes: Uint8Array, context: ConvertContext): ConvertOutcome {
  const { maxReportBytes, maxPatchBytes } = context.limits;
  const { bytes: kept, cut } = cutAtLastLine(bytes, maxReportBytes);
  const text = decode(kept);
  if (text === undefined) return { ok: false, error: m.notUtf8("diff") };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const { sections, skipped } = splitDiff(lines);
  if (sections.length === 0) {
    return text.trim() === "" ? { ok: true, report: emptyReport([]) } : { ok: false, error: m.noDiff };
  }
  const warnings = skipped[0] === undefined ? [] : [m.skippedText("diff", skipped[0])];
  // The section being written when the report was cut may be missing hunks: leave it out whole.
  if (cut) {
    sections.pop();
    warnings.push(m.truncatedDiff(maxReportBytes));
  }
  const normalized: Normalized[] = [];
  for (const section of sections) {
    const result = section.git ? normalizeGit(section) : normalizePlain(section, context.treeRoot);
    if (typeof result === "string") return fail(result);
    normalized.push(result);
  }
  const fitting = withinLimit(normalized, maxPatchBytes);
  if (fitting.length < normalized.length)
    warnings.push(m.filesOverPatchLimit(normalized.length - fitting.length, maxPatchBytes));
  if (fitting.length === 0) return { ok: true, report: emptyReport(warnings) };
  const patch = gatedPatch(fitting, maxPatchBytes);
  if (typeof patch === "string") return fail(patch);
  return { ok: true, report: { ...emptyReport(warnings), patch } };
}
