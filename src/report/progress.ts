// Progress on a TTY only (phase, bytes, elapsed), on one line of stderr; silent otherwise or with -q.
import { formatSize, type Output } from "./output.js";

export interface Progress {
  phase(name: string, bytes?: number, total?: number): void;
  /**
   * A stage with nothing to count (a worker at work): shown at once, and its elapsed time again each
   * second until another phase, or done; a line printed meanwhile does not stop it.
   */
  wait(name: string): void;
  /** Clear the line for a line of output below; a wait is shown again on its next second. */
  clear(): void;
  done(): void;
}

/** How often a wait's elapsed time is shown again. */
const WAIT_TICK_MS = 1000;

export function createProgress(output: Output, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!output.tty || output.quiet)
    return { phase: () => undefined, wait: () => undefined, clear: () => undefined, done: () => undefined };
  const start = Date.now();
  let last = 0;
  let shown = false;
  let waiting: string | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const show = (text: string, now: number) => {
    stream.write(`\r\u001b[K${text} (${((now - start) / 1000).toFixed(1)}s)`);
    shown = true;
  };
  const clear = () => {
    if (shown) stream.write("\r\u001b[K");
    shown = false;
  };
  const stopWaiting = () => {
    waiting = undefined;
    if (ticker) clearInterval(ticker);
    ticker = undefined;
  };
  return {
    phase(name, bytes, total) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      stopWaiting();
      // Of the whole, when it is known: the envelope on a slow link says how far it has to go.
      const of = total === undefined ? "" : ` of ${formatSize(total)}`;
      const size = bytes === undefined ? "" : `, ${formatSize(bytes)}${of}`;
      show(`${name}${size}`, now);
    },
    wait(name) {
      waiting = name;
      show(name, Date.now());
      // Unref'd: a wait never keeps the process alive, whatever ends the run.
      ticker ??= setInterval(() => {
        if (waiting !== undefined) show(waiting, Date.now());
      }, WAIT_TICK_MS).unref();
    },
    clear,
    done() {
      stopWaiting();
      clear();
    },
  };
}
