// The external reviewers a worker runs, from its command line: each `--reviewer-command` with the
// `--reviewer-format` and `--reviewer-fixes` that follow it (before the next command), run in the
// order given.

import { UsageError } from "../errors.js";
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from "./formats/types.js";

export interface ReviewerCommand {
  /** Run through `sh -c` in the tree. */
  command: string;
  /** What it leaves as its report (stdout or $REVIEW_REMOTE_OUTPUT); `comments` by default. */
  format: ReportFormat;
  /**
   * `--reviewer-fixes none`: the report's fixes are not applied, its findings stay comments. For a
   * report that cannot say which of its fixes are safe (Biome's rdjson holds its unsafe ones too),
   * when the tool writes its own safe fixes instead.
   */
  fixes?: "none";
}

const REVIEWER_FIXES = ["all", "none"] as const;

/** One option as given, in order: only `reviewer-command`, `-format` and `-fixes` matter here. */
export interface OrderedOption {
  name: string;
  value: string | undefined;
}

/** `--reviewer-fixes` for the last command; a UsageError when it has none, or has one already. */
function takeFixes(last: ReviewerCommand | undefined, value: string | undefined, given: boolean): void {
  if (!last) throw new UsageError("--reviewer-fixes must follow the --reviewer-command it describes");
  if (given) throw new UsageError(`--reviewer-fixes given twice for ${JSON.stringify(last.command)}`);
  if (value === "none") last.fixes = "none";
  else if (value !== "all") {
    throw new UsageError(
      `--reviewer-fixes must be one of ${REVIEWER_FIXES.join(", ")}, not '${value ?? ""}'`,
    );
  }
}

/** The reviewer commands the options give, in order; a UsageError for a format with no command. */
export function reviewerCommandsFrom(options: readonly OrderedOption[]): ReviewerCommand[] {
  const commands: ReviewerCommand[] = [];
  let formatted = false;
  let fixesGiven = false;
  for (const { name, value } of options) {
    if (name === "reviewer-command") {
      if (value === undefined || value.trim() === "") throw new UsageError("--reviewer-command is empty");
      commands.push({ command: value, format: "comments" });
      formatted = false;
      fixesGiven = false;
    } else if (name === "reviewer-fixes") {
      takeFixes(commands.at(-1), value, fixesGiven);
      fixesGiven = true;
    } else if (name === "reviewer-format") {
      const last = commands.at(-1);
      if (!last) throw new UsageError("--reviewer-format must follow the --reviewer-command it describes");
      if (formatted)
        throw new UsageError(`--reviewer-format given twice for ${JSON.stringify(last.command)}`);
      if (value === undefined || !isReportFormat(value)) {
        throw new UsageError(
          `--reviewer-format must be one of ${REPORT_FORMATS.join(", ")}, not '${value ?? ""}'`,
        );
      }
      last.format = value;
      formatted = true;
    }
  }
  return commands;
}
