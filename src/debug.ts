// REVIEW_REMOTE_DEBUG=1: timings of each stage on stderr (the one exception to "only cli.ts prints",
// because a timing is only true where it is taken).
const enabled = process.env.REVIEW_REMOTE_DEBUG === "1";

/** Times count from the process's start (performance's time origin), node's own start-up included. */
export function debug(message: string): void {
  if (!enabled) return;
  const rss = Math.round(process.memoryUsage.rss() / 1048576);
  process.stderr.write(`debug: ${(performance.now() / 1000).toFixed(3)}s rss=${rss}MB ${message}\n`);
}

/**
 * Peak RSS of this process, for the benchmarks (fan-out memory must be flat in the number of workers),
 * and its own CPU time (user and system; its children's are theirs to say).
 */
export function debugExit(): void {
  if (!enabled) return;
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  const cpu = ((userCPUTime + systemCPUTime) / 1e6).toFixed(3);
  debug(`exit maxrss=${Math.round(maxRSS / 1024)}MB cpu=${cpu}s`);
}
