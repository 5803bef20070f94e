// Progress on a TTY only (phase, bytes, elapsed), on one line of stderr; silent otherwise or with -q.
import { formatSize, type Output } from "./output.js";

export interface Progress {
  phase(name: string, bytes?: number, total?: number): void;
  done(): void;
}

export function createProgress(output: Output, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!output.tty || output.quiet) return { phase: () => undefined, done: () => undefined };
  const start = Date.now();
  let last = 0;
  let shown = false;
  return {
    phase(name, bytes, total) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      // Of the whole, when it is known: the envelope on a slow link says how far it has to go.
      const of = total === undefined ? "" : ` of ${formatSize(total)}`;
      const size = bytes === undefined ? "" : `, ${formatSize(bytes)}${of}`;
      stream.write(`\r\u001b[K${name}${size} (${((now - start) / 1000).toFixed(1)}s)`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\u001b[K");
      shown = false;
    },
  };
}
