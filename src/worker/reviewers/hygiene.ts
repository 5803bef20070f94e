// The built-in reviewer `hygiene` (design §8): deterministic, offline, our own code, safe to merge.
// It fixes trailing whitespace and missing final newlines, only on lines the change added (every
// line in a whole-tree review), as git's whitespace rules and .editorconfig allow; it reports
// conflict markers, mixed line endings and oversized files. Snapshots, patch files and fixtures are
// left alone. It runs in the worker process on the unpacked tree and never follows a symlink.

import { readAttributes } from "../../git/attributes.js";
import type { Env } from "../../git/run.js";
import { forbiddenChangeReason } from "../../paths/forbidden.js";
import type { ChangedLines, LineSpan } from "../../protocol/changed-lines.js";
import type { ReviewComment } from "../../protocol/result.js";
import { plural } from "../../report/plural.js";
import type { BundleListing, FileSink } from "../verify-bundle.js";
import { createEditorConfig, type EditorSettings } from "./editorconfig.js";
import {
  editorConfigReader,
  HYGIENE_MAX_FILE_BYTES,
  isUtf8,
  readRegularFile,
  writeRegularFile,
} from "./hygiene-files.js";
import { isGeneratedName, isGeneratedText } from "./hygiene-generated.js";
import { fixRulesFor } from "./hygiene-rules.js";
import { leftAloneReason, snapshotInputDirs } from "./hygiene-scope.js";
import { CleanTextStream, checkText, isBinary, isCleanText, type TextReport } from "./hygiene-text.js";
import { DEFAULT_WHITESPACE_RULE, parseWhitespaceRule, type WhitespaceRule } from "./whitespace-rules.js";

/** Files named in the commit body; the message must stay well under the result's 64 KiB per text. */
const MAX_LISTED_FILES = 200;
export const HYGIENE_COMMIT_TITLE = "Fix whitespace: trailing spaces and final newlines";

export interface HygieneOptions {
  /** A focused review's change (from the request's range); undefined: the whole tree. */
  changes: ChangedLines | undefined;
  /** The request's forbiddenPaths: their whitespace reported on (an info comment), never fixed. */
  forbiddenPaths: readonly string[];
  /** False when the request does not ask for proposals: nothing is written. */
  fix: boolean;
  /** Called with a file's original content just before it is rewritten. */
  beforeRewrite?: (path: string, content: Buffer) => void;
  /** The user's core.whitespace, when the worker was told it (`--core-whitespace`). */
  coreWhitespace?: string | undefined;
  /** For `git check-attr` in the tree (the baseline repository, before any reviewer ran). */
  env: Env;
  /** Files the unpack found clean as it wrote them (cleanFilesObserver): nothing to find, not read again. */
  clean?: ReadonlySet<string> | undefined;
}

export interface HygieneOutcome {
  comments: ReviewComment[];
  /** Paths rewritten in the tree. */
  fixed: string[];
  /** The message of the one commit, when something was fixed. */
  commitMessage?: string;
  summary: string;
}

interface Counts {
  conflicts: number;
  mixed: number;
  oversized: number;
  /** Files with whitespace to fix at a path no worker may change (CI config, a forbidden path). */
  notFixed: number;
}

/** The files hygiene might have fixed had their lines been sent, named after at most this many. */
const MAX_NAMED_UNSENT = 3;

/**
 * What the change's lines that were not sent left undone: `unsent` are the files whose lines were
 * not sent and that hygiene would have fixed (one with nothing to fix is not named).
 */
function describeUnsent(changes: ChangedLines | undefined, unsent: readonly string[]): string | undefined {
  if (!changes || changes.complete || unsent.length === 0) return undefined;
  if (!changes.files.some((file) => file.added !== null))
    return "whitespace not fixed: the change's lines were not sent (patch too large)";
  const named = unsent.slice(0, MAX_NAMED_UNSENT).join(", ");
  const more = unsent.length > MAX_NAMED_UNSENT ? ` and ${unsent.length - MAX_NAMED_UNSENT} more` : "";
  return `whitespace not fixed in ${plural(unsent.length, "file")} whose lines were not sent (patch too large): ${named}${more}`;
}

function describe(outcome: HygieneOutcome, counts: Counts, unsent: string | undefined): string {
  const parts: string[] = [];
  if (outcome.fixed.length > 0) parts.push(`fixed whitespace in ${plural(outcome.fixed.length, "file")}`);
  if (counts.conflicts > 0) parts.push(plural(counts.conflicts, "conflict marker block"));
  if (counts.mixed > 0) parts.push(`${plural(counts.mixed, "file")} with mixed line endings`);
  if (counts.oversized > 0) parts.push(plural(counts.oversized, "oversized file"));
  if (counts.notFixed > 0)
    parts.push(`whitespace not fixed in ${plural(counts.notFixed, "file")} no worker may change`);
  if (unsent) parts.push(unsent);
  return parts.length === 0 ? "Hygiene: nothing to report." : `Hygiene: ${parts.join("; ")}.`;
}

/**
 * The files to look at: every file of the bundle, or the changed ones; never those left alone, nor
 * those the unpack found clean.
 */
function selectFiles(
  listing: BundleListing,
  changes: ChangedLines | undefined,
  clean: ReadonlySet<string> | undefined,
): string[] {
  const changed = changes ? new Set(changes.files.map((file) => file.path)) : undefined;
  // Worked out from the whole listing only once some file is left to look at.
  let snapshotInputs: ReturnType<typeof snapshotInputDirs> | undefined;
  const { nodes } = listing;
  const paths: string[] = [];
  for (let index = 0; index < nodes.size; index++) {
    const path = nodes.pathAt(index);
    if (nodes.kindAt(index) !== "file" || (changed && !changed.has(path)) || clean?.has(path)) continue;
    snapshotInputs ??= snapshotInputDirs(nodes.keys());
    if (leftAloneReason(path, snapshotInputs) === undefined) paths.push(path);
  }
  return paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function report(path: string, text: TextReport, outcome: HygieneOutcome, counts: Counts): void {
  for (const block of text.conflicts) {
    counts.conflicts++;
    outcome.comments.push({
      path,
      line: block.line,
      endLine: block.endLine,
      severity: "error",
      message: "Unresolved merge conflict markers.",
      rule: "hygiene/conflict-marker",
    });
  }
  if (text.mixedLineEndings) {
    const { crlf, lf, firstMinorityLine } = text.mixedLineEndings;
    counts.mixed++;
    outcome.comments.push({
      path,
      line: firstMinorityLine,
      severity: "warning",
      message: `Mixed line endings: ${crlf} CRLF and ${lf} LF lines.`,
      rule: "hygiene/mixed-line-endings",
    });
  }
}

/** Whitespace a fix would have taken out of a file no worker may change: said, since it stays. */
function reportNotFixed(
  path: string,
  text: TextReport,
  reason: string,
  outcome: HygieneOutcome,
  counts: Counts,
) {
  const found: string[] = [];
  if (text.trailingWhitespaceLines > 0)
    found.push(`${plural(text.trailingWhitespaceLines, "line")} with trailing whitespace`);
  if (text.missingFinalNewline) found.push("no final newline");
  counts.notFixed++;
  outcome.comments.push({
    path,
    severity: "info",
    message: `Whitespace not fixed (${found.join(", ")}): the path ${reason}, which no worker may change.`,
    rule: "hygiene/whitespace-not-fixed",
  });
}

function commitMessage(fixed: readonly string[]): string {
  const listed = fixed.slice(0, MAX_LISTED_FILES).map((path) => `- ${path}`);
  if (fixed.length > MAX_LISTED_FILES) listed.push(`- ... and ${fixed.length - MAX_LISTED_FILES} more`);
  return `${HYGIENE_COMMIT_TITLE}\n\n${listed.join("\n")}\n`;
}

/** What every file's review needs from the tree and the request, read once. */
interface TreeFacts {
  tree: string;
  options: HygieneOptions;
  attributes: Map<string, Map<string, string>>;
  editor: (path: string) => EditorSettings;
  core: WhitespaceRule;
  added: Map<string, LineSpan[] | null>;
  /** The files whose lines were not sent (a focused review's) that hygiene would have fixed. */
  unsent: string[];
}

function reportOversized(path: string, size: number, outcome: HygieneOutcome, counts: Counts): void {
  counts.oversized++;
  outcome.comments.push({
    path,
    severity: "warning",
    message: `Large file (${size} bytes, over ${HYGIENE_MAX_FILE_BYTES}): consider Git LFS or keeping it out of the repository.`,
    rule: "hygiene/oversized-file",
  });
}

const LINGUIST = ["linguist-generated", "linguist-vendored"];

/** `attr`, `attr=true` and `attr=1` set a linguist attribute; `-attr` and `attr=false` do not. */
function isSetAttribute(value: string | undefined): boolean {
  return value === "set" || value === "true" || value === "1";
}

/**
 * For the unpack: each file's bytes, as they are written, go through CleanTextStream, and the paths
 * of the clean ones (no larger than the size hygiene reports) into `clean`. Hygiene then reads back
 * only the others: on a 20k-file tree, some 0.15 s of a worker's CPU not spent reading files that
 * leave nothing to find.
 */
export function cleanFilesObserver(clean: Set<string>): (path: string) => FileSink {
  return (path) => {
    const stream = new CleanTextStream();
    return {
      write: (chunk) => stream.write(chunk),
      end: () => {
        if (stream.isClean() && stream.bytes <= HYGIENE_MAX_FILE_BYTES) clean.add(path);
      },
    };
  };
}

/** One file: its comments, and its fixes written to the tree when the request asks for proposals. */
function reviewFile(path: string, facts: TreeFacts, outcome: HygieneOutcome, counts: Counts): void {
  const { options } = facts;
  const attrs = facts.attributes.get(path);
  // binary (a macro for -diff) and -diff: git shows no text diff of them, so neither do we.
  if (attrs?.get("diff") === "unset") return;
  // Generated and vendored files, as GitHub's linguist attributes mark them: their bytes belong to
  // the generator or the vendor (a committed Yarn release), so they are neither fixed nor reported.
  if (isSetAttribute(attrs?.get("linguist-generated")) || isSetAttribute(attrs?.get("linguist-vendored")))
    return;
  // What linguist counts generated unasked (a lock file, a source map), unless the project says not.
  const generated = attrs?.get("linguist-generated");
  const ownFile = generated === "unset" || generated === "false" || generated === "0";
  if (!ownFile && isGeneratedName(path)) return;
  // The listing's paths are relative and normalized: no join (path.join on 20k paths: some 40 ms).
  const { size, content } = readRegularFile(`${facts.tree}/${path}`);
  if (size > HYGIENE_MAX_FILE_BYTES) {
    reportOversized(path, size, outcome, counts);
    return;
  }
  // A clean file needs no rules: what they would allow is never asked.
  if (!content || isBinary(content) || isCleanText(content)) return;
  const text = content.toString("latin1");
  if (!ownFile && isGeneratedText(path, text)) return;
  const added = options.changes ? (facts.added.get(path) ?? null) : undefined;
  const file = {
    path,
    text,
    whitespace: attrs?.get("whitespace"),
    editor: facts.editor(path),
    core: facts.core,
  };
  // Lines not sent: nothing is fixed, but a file that would have had a fix is named.
  if (added === null && checkText(content, fixRulesFor({ ...file, added: undefined })).fixed)
    facts.unsent.push(path);
  const rules = fixRulesFor({ ...file, added });
  const checked = checkText(content, rules);
  report(path, checked, outcome, counts);
  if (!checked.fixed || !options.fix || !isUtf8(content)) return;
  const forbidden = forbiddenChangeReason(path, options.forbiddenPaths);
  if (forbidden) {
    reportNotFixed(path, checked, forbidden, outcome, counts);
    return;
  }
  options.beforeRewrite?.(path, content);
  writeRegularFile(`${facts.tree}/${path}`, checked.fixed);
  outcome.fixed.push(path);
}

export async function runHygiene(
  tree: string,
  listing: BundleListing,
  options: HygieneOptions,
): Promise<HygieneOutcome> {
  const outcome: HygieneOutcome = { comments: [], fixed: [], summary: "" };
  const counts: Counts = { conflicts: 0, mixed: 0, oversized: 0, notFixed: 0 };
  // The files the unpack found clean have nothing to find under any attribute: not looked at, nor
  // asked git about (check-attr on 20k paths, and the parse of its answer: some 0.05 s a worker).
  const paths = selectFiles(listing, options.changes, options.clean);
  const facts: TreeFacts = {
    tree,
    options,
    attributes: await readAttributes(
      { cwd: tree, env: options.env },
      ["whitespace", "diff", ...LINGUIST],
      paths,
    ),
    editor: createEditorConfig(editorConfigReader(tree, listing)),
    core: options.coreWhitespace ? parseWhitespaceRule(options.coreWhitespace) : DEFAULT_WHITESPACE_RULE,
    added: new Map(options.changes?.files.map((file) => [file.path, file.added])),
    unsent: [],
  };
  for (const path of paths) reviewFile(path, facts, outcome, counts);
  if (outcome.fixed.length > 0) outcome.commitMessage = commitMessage(outcome.fixed);
  outcome.summary = describe(outcome, counts, describeUnsent(options.changes, facts.unsent));
  return outcome;
}
