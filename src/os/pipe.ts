// Reading what a pipe holds without waiting for its end, which comes only once every process holding
// its write end is gone.
import { readSync } from "node:fs";

/**
 * Reads what the non-blocking pipe `fd` holds now, in order, until it would block or ends; each chunk
 * goes to `take`. Returns the number of bytes read.
 */
export function drainPipe(fd: number, take: (chunk: Buffer) => void): number {
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(65536);
    let got: number;
    try {
      got = readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      return total; // EAGAIN: nothing more for now; anything else: nothing more to read
    }
    if (got === 0) return total;
    take(buffer.subarray(0, got));
    total += got;
  }
}
