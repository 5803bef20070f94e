// `--fail-level` applied to a report, the same for a review and for an imported result: the findings
// it shows at or above the level become exit 7, said on stderr after the report.
import type { Settings } from "../config/settings.js";
import { FindingsError } from "../errors.js";
import { messages } from "../messages.js";
import { chooseFailLevel, countAtFailLevel, type FailLevel } from "../pipeline/fail-level.js";
import type { PipelineReport } from "../pipeline/outcome.js";
import type { Output } from "../report/output.js";
import { printFindings } from "../report/review.js";

/** The error to exit with when the report's shown findings reach the level, already printed. */
export function findingsAtFailLevel(
  report: PipelineReport,
  flag: FailLevel | undefined,
  settings: Settings,
  output: Output,
): FindingsError | undefined {
  const level = chooseFailLevel(flag, settings.failLevel);
  const found = countAtFailLevel(
    report.outcomes.flatMap((outcome) => outcome.comments),
    level,
  );
  if (found === 0) return undefined;
  const error = new FindingsError(messages.findingsAtFailLevel(found, level));
  printFindings(error, output);
  return error;
}
