import { describe, expect, it } from "vitest";
import type { Output } from "../../src/report/output.js";
import { createProgress } from "../../src/report/progress.js";

/** Back to the line's start, and clear it: how each progress line begins. */
const CLEAR_LINE = "\r\u001b[K";

/** A terminal's stderr, as the progress line writes it. */
function terminal(): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

const output = (tty: boolean, quiet = false): Output => ({
  out: () => undefined,
  err: () => undefined,
  json: () => undefined,
  color: false,
  tty,
  quiet,
});

describe("the progress line", () => {
  it("says how much of the envelope is sent, of its whole size when known", () => {
    const { stream, written } = terminal();
    createProgress(output(true), stream).phase("send", 12 * 1024 * 1024, 25 * 1024 * 1024);
    expect(written).toHaveLength(1);
    expect(written[0]?.startsWith(CLEAR_LINE)).toBe(true);
    expect(written[0]?.slice(CLEAR_LINE.length)).toMatch(/^send, 12\.0 MiB of 25\.0 MiB \(\d+\.\ds\)$/);
  });

  it("says the bytes alone when the whole is not known (the export's archive)", () => {
    const { stream, written } = terminal();
    createProgress(output(true), stream).phase("export", 3 * 1024 * 1024);
    expect(written[0]?.slice(CLEAR_LINE.length)).toMatch(/^export, 3\.0 MiB \(\d+\.\ds\)$/);
  });

  it("writes nothing off a terminal, or with -q", () => {
    for (const [tty, quiet] of [
      [false, false],
      [true, true],
    ] as const) {
      const { stream, written } = terminal();
      createProgress(output(tty, quiet), stream).phase("send", 1, 2);
      expect(written).toEqual([]);
    }
  });
});
