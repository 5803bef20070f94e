// `git review-remote [<rev>|<base>..<head>]`: the pipeline (src/pipeline/), then its report.
import { readSettings } from "../config/settings.js";
import type { ReviewRemoteError } from "../errors.js";
import type { PipelineOptions } from "../pipeline/outcome.js";
import { runPipeline } from "../pipeline/pipeline.js";
import { resolveWorkTreeRepo } from "../repo.js";
import { createPipelineEvents } from "../report/events.js";
import { type Output, useColor } from "../report/output.js";
import { printReview } from "../report/review.js";

export async function runReviewCommand(
  options: PipelineOptions & { json: boolean },
  output: Output,
): Promise<readonly ReviewRemoteError[]> {
  const repo = await resolveWorkTreeRepo();
  const settings = await readSettings(repo);
  output.color = useColor(Boolean(process.stdout.isTTY), settings.colorUi);
  const events = createPipelineEvents(output, new Set(options.workers).size);
  const report = await runPipeline(repo, settings, options, events).finally(() => events.finish());
  // One worker and nothing else: its failure is the command's, with its hints.
  const [only] = report.failures;
  if (only && report.failures.length === 1 && report.outcomes.length === 0) throw only.error;
  printReview(report, options.json, output);
  return report.failures.map((failure) => failure.error);
}
