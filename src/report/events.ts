// What the user sees while the pipeline runs: a progress line on a terminal, each worker's stderr as
// `remote: <line>` (`remote[<name>]:` when several workers answer), and warnings.
import type { PipelineEvents } from "../pipeline/outcome.js";
import type { Output } from "./output.js";
import { createProgress } from "./progress.js";

export function createPipelineEvents(
  output: Output,
  workerCount: number,
): PipelineEvents & { finish(): void } {
  const progress = createProgress(output);
  return {
    progress: (stage, bytes, total) => progress.phase(stage, bytes, total),
    remoteLine(worker, line) {
      progress.done();
      if (output.quiet) return false;
      output.err(workerCount > 1 ? `remote[${worker.name}]: ${line}` : `remote: ${line}`);
      return true;
    },
    warning(text, hints = []) {
      progress.done();
      output.err(`warning: ${text}`);
      for (const hint of hints) output.err(`hint: ${hint}`);
    },
    finish: () => progress.done(),
  };
}
