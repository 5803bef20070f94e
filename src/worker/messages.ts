// Every sentence of the worker's reviewer phase (its `remote:` warnings, the comments it adds, a
// reviewer's error and the summary of what ran) lives here, so reviewers, report formats and the fix
// applier speak one vocabulary.

import { quoteForMessage } from "../protocol/quote.js";
import { plural } from "../report/plural.js";

const workerMessagesReason = "a JSON document cannot be read in part";

export const workerMessages = {
  // A report that cannot be used at all: the reviewer counts as failed.
  tooLargeToParse: (format: string, max: number) =>
    `${format}: the report is over ${max} bytes; ${workerMessagesReason}`,
  /** What the client recognises in the failure, to say what to do about it. */
  tooLargeToParseReason: workerMessagesReason,
  notJson: (format: string, where: string, detail: string) => `${format}: ${where}not valid JSON: ${detail}`,
  invalid: (format: string, where: string, problem: string) => `${format}: ${where}${problem}`,
  notUtf8: (format: string) => `${format}: the report is not valid UTF-8 text`,
  noDiff: "diff: no file header (--- a/<path>) found in the reviewer's output",
  bothDevNull: "both sides are /dev/null",
  plainRename: "--- and +++ name different files (a rename needs git diff output)",
  noReport: (format: string, failure: string) => `${failure} and wrote no ${format} report`,
  unreadable: (format: string, detail: string) => `${format}: the report could not be read: ${detail}`,

  // Parts of a report dropped or cut: warnings, the rest still counts.
  truncated: (format: string, max: number) =>
    `${format}: the report is over ${max} bytes; read up to the last whole line`,
  truncatedDiff: (max: number) => `diff: the report is over ${max} bytes; the last file in it was left out`,
  outsideTree: (format: string, n: number, first: string, reason: string) =>
    `${format}: ${plural(n, "location")} outside the tree dropped (first: ${quoteForMessage(first)}: ${reason})`,
  fixesOverLimit: (format: string, dropped: number, max: number) =>
    `${format}: ${plural(dropped, "fix", "fixes")} over the limit of ${max} left out`,
  outsideChangeOverLimit: (files: number, reason: string) =>
    `The fixes to ${plural(files, "file")} outside the change were left out: ${reason}. The fixes to the change's files are proposed; for the others, raise the limit and review with --filter-mode=nofilter (without it, fixes outside the change are left out anyway).`,
  commentsLeftOut: (dropped: number, max: number, focused: boolean) =>
    `${plural(dropped, "comment")} over the limit of ${max} left out; ${focused ? "those on the change are kept first, then the most severe." : "the most severe are kept."}`,
  badFix: (format: string, reason: string) => `${format}: a fix was dropped: ${reason}`,
  skippedText: (format: string, line: number) => `${format}: line ${line}: text outside the diff ignored`,
  filesOverPatchLimit: (n: number, max: number) =>
    `diff: ${plural(n, "file")} left out: the patch would be over ${max} bytes`,
  editsOverLimit: (n: number, maxEdits: number, maxBytes: number) =>
    `${plural(n, "fix", "fixes")} not applied: over the limit of ${maxEdits} edits or ${maxBytes} inserted bytes`,
  moreWarnings: (n: number) => `... and ${plural(n, "more warning")}`,

  // Why one fix was not applied: a comment at the fix's place, prefixed by fixNotApplied.
  fixNotApplied: (reason: string) => `fix not applied: ${reason}`,
  overlapsEarlier: "overlaps an earlier fix",
  overlapsItself: "its edits overlap each other",
  noSuchFile: (path: string) => `no file ${quoteForMessage(path)} in the tree`,
  notText: (path: string) => `${quoteForMessage(path)} is not UTF-8 text`,
  fileTooLarge: (path: string, max: number) => `${quoteForMessage(path)} is over ${max} bytes`,
  lineOutOfRange: (line: number, lines: number) =>
    `line ${line} is past the end of the file (${plural(lines, "line")})`,
  columnOutOfRange: (line: number, column: number) => `column ${column} is past the end of line ${line}`,
  offsetOutOfRange: (offset: number, size: number) =>
    `offset ${offset} is past the end of the file (${size})`,
  splitsCharacter: (offset: number) => `offset ${offset} falls inside a character`,
  columnSplitsCharacter: (line: number, column: number) =>
    `column ${column} of line ${line} falls inside a character`,
  noRegionStart: "a deleted region without startLine, charOffset or byteOffset",
  noStartLine: "a suggestion without a start line",
  noArtifact: "an artifact change without a file",
  baseLoop: "its uriBaseId chain does not end",
  binaryInsertion: "binary inserted content",
  noFileForSuggestions: "suggestions for a diagnostic without a file",
  endBeforeStart: "the region ends before it starts",
  lineMismatch: (offset: number, line: number) =>
    `offset ${offset} is not on line ${line} as the report says`,
  textMismatch: "the file does not hold the text the fix replaces (the report is stale?)",

  // What ran: one reviewer of several, its commit, the summary.
  patchNotApplied: (problem: string) => `diff not applied: ${problem}`,
  reviewerFailed: (label: string, error: string) => `${label} failed: ${error}`,
  fixesMessage: (label: string, n: number, rules: string) =>
    `${label}: ${plural(n, "fix", "fixes")}${rules === "" ? "" : ` (${rules})`}`,
  /** A fixes commit's body line for one file; the client reads it back (pipeline/scoped-message.ts). */
  fileFixesLine: (path: string, n: number, rules: string) =>
    `${path}: ${plural(n, "fix", "fixes")}${rules === "" ? "" : ` (${rules})`}`,
  /** After a third-party commit's subject, kept to some of its files by the client's scope stage. */
  keptToChange: (kept: number, total: number) => `(kept to the change: ${kept} of ${plural(total, "file")})`,
  /** A commit whose patch leaves out some of its files: its message's note (collect.ts). */
  keptProposable: (kept: number, total: number) =>
    `Kept to what the worker proposes: ${kept} of the ${plural(total, "file")} this commit changed (the review's comments say why the others were left out).`,
  changesMessage: (label: string, n: number, names: string) =>
    `${label}: ${plural(n, "file")} changed (${names})`,
  setupFailed: (error: string) => `the setup command failed: ${error}`,
  setupTrackedReverted: "setup changed tracked files; those changes were undone (only what it adds is kept)",

  // The sandbox (design §8): said once, when a root worker makes its account.
  createdSandboxUser: (account: string, uid: number) =>
    `created the system user '${account}' (uid ${uid}, no login, no home) to run reviewers as: a root worker never runs them as root; this is said once`,

  // The worker's limits (design §8): a reviewer stopped at one, a request out of time.
  overLimitsSummary: "The reviewer went over the worker's limits.",
  outOfTimeSummary: "The request ran out of time.",
  filesLimitReached: (files: number) =>
    `the reviewer created all the files it may (--max-files ${files}) and was stopped there`,
  bytesLimitReached: (size: string) =>
    `the reviewer wrote all it may (--max-tree-bytes ${size}) and was stopped there`,
  requestTimeLimit: (seconds: number) => `limits.timeoutSeconds is ${seconds} s`,
  workerTimeLimit: (seconds: number) => `the worker allows at most ${seconds} s (--max-seconds)`,
  outOfTime: (stage: string, limit: string) => `the request ran out of time while ${stage} (${limit})`,
} as const;
