// Line formats (comment JSON Lines, rdjsonl, diffs) can be read in part: a report over the size limit
// is cut at its last whole line instead of being refused or parsed mid-line.

export interface CutReport {
  bytes: Uint8Array;
  cut: boolean;
}

/** At most `max` bytes, ending at the end of a line when it had to be cut. */
export function cutAtLastLine(bytes: Uint8Array, max: number): CutReport {
  if (bytes.length <= max) return { bytes, cut: false };
  const end = max > 0 ? bytes.lastIndexOf(0x0a, max - 1) : -1;
  return { bytes: bytes.subarray(0, end + 1), cut: true };
}

/** Each line's bytes without its LF (or CRLF), numbered from 1; a final empty line is not one. */
export function* splitLines(bytes: Uint8Array): Generator<{ number: number; bytes: Uint8Array }> {
  let start = 0;
  let number = 1;
  while (start < bytes.length) {
    const lf = bytes.indexOf(0x0a, start);
    const end = lf === -1 ? bytes.length : lf;
    const trimmed = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    yield { number, bytes: bytes.subarray(start, trimmed) };
    start = end + 1;
    number++;
  }
}
