// What the user sees while the pipeline runs: a progress line on a terminal, each worker's stderr as
// `remote: <line>` (`remote[<name>]:` when several workers answer), and warnings.
import type { PipelineEvents } from "../pipeline/outcome.js";
import type { Output } from "./output.js";
import { createProgress } from "./progress.js";

export function createPipelineEvents(
  output: Output,
  workerCount: number,
  stream?: NodeJS.WriteStream,
): PipelineEvents & { finish(): void } {
  const progress = createProgress(output, stream);
  // The workers that have their envelope: the progress line says the review is theirs now, and for
  // how long (a whole-tree linter can take a minute), not how much of the envelope went before.
  const working = new Set<string>();
  const showWorking = () => {
    const [only] = working;
    progress.wait(working.size === 1 ? `review on worker '${only}'` : `review on ${working.size} workers`);
  };
  return {
    progress: (stage, bytes, total) => progress.phase(stage, bytes, total),
    sent(worker) {
      working.add(worker.name);
      showWorking();
    },
    // The workers still at work; once the last has answered, the line stays on it while its answer
    // is checked and imported.
    answered(worker) {
      if (working.size > 1 && working.delete(worker.name)) showWorking();
    },
    remoteLine(worker, line) {
      progress.clear();
      if (output.quiet) return false;
      output.err(workerCount > 1 ? `remote[${worker.name}]: ${line}` : `remote: ${line}`);
      return true;
    },
    warning(text, hints = []) {
      progress.clear();
      output.err(`warning: ${text}`);
      for (const hint of hints) output.err(`hint: ${hint}`);
    },
    finish: () => progress.done(),
  };
}
