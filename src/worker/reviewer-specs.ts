// The external reviewers a worker runs, from its command line: each `--reviewer-command` with the
// `--reviewer-format` that follows it (before the next command), run in the order given.

import { UsageError } from "../errors.js";
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from "./formats/types.js";

export interface ReviewerCommand {
  /** Run through `sh -c` in the tree. */
  command: string;
  /** What it leaves as its report (stdout or $REVIEW_REMOTE_OUTPUT); `comments` by default. */
  format: ReportFormat;
}

/** One option as given, in order: only `reviewer-command` and `reviewer-format` matter here. */
export interface OrderedOption {
  name: string;
  value: string | undefined;
}

/** The reviewer commands the options give, in order; a UsageError for a format with no command. */
export function reviewerCommandsFrom(options: readonly OrderedOption[]): ReviewerCommand[] {
  const commands: ReviewerCommand[] = [];
  let formatted = false;
  for (const { name, value } of options) {
    if (name === "reviewer-command") {
      if (value === undefined || value.trim() === "") throw new UsageError("--reviewer-command is empty");
      commands.push({ command: value, format: "comments" });
      formatted = false;
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
