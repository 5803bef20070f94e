import { afterEach, describe, expect, it, vi } from "vitest";
import { createPipelineEvents } from "../../src/report/events.js";
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
  say: () => undefined,
  hint: () => undefined,
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

describe("the progress line while a worker reviews", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const shownText = (written: string[]) =>
    written.filter((text) => text !== CLEAR_LINE).map((text) => text.slice(CLEAR_LINE.length));
  const worker = (name: string) => ({ name, command: `ssh ${name} git-review-remote worker` });

  it("names the worker once it has its envelope, and counts the seconds until the answer", () => {
    vi.useFakeTimers();
    const { stream, written } = terminal();
    const events = createPipelineEvents(output(true), 1, stream);
    events.progress("send", 1024, 1024);
    events.sent?.(worker("box"));
    vi.advanceTimersByTime(2500);
    expect(shownText(written)).toEqual([
      "send, 1.0 KiB of 1.0 KiB (0.0s)",
      "review on worker 'box' (0.0s)",
      "review on worker 'box' (1.0s)",
      "review on worker 'box' (2.0s)",
    ]);
    // Cleared for the worker's own lines, then shown again below them; gone at the end, for good.
    events.remoteLine(worker("box"), "linting");
    expect(written.at(-1)).toBe(CLEAR_LINE);
    vi.advanceTimersByTime(1000);
    expect(shownText(written).at(-1)).toBe("review on worker 'box' (3.0s)");
    events.finish();
    const count = written.length;
    expect(written.at(-1)).toBe(CLEAR_LINE);
    vi.advanceTimersByTime(5000);
    expect(written).toHaveLength(count);
  });

  it("counts the workers that have their envelope in a fan-out", () => {
    vi.useFakeTimers();
    const { stream, written } = terminal();
    const events = createPipelineEvents(output(true), 2, stream);
    events.sent?.(worker("a"));
    events.sent?.(worker("b"));
    expect(shownText(written)).toEqual(["review on worker 'a' (0.0s)", "review on 2 workers (0.0s)"]);
    events.finish();
  });

  it("counts down as the workers of a fan-out answer, the last one named", () => {
    vi.useFakeTimers();
    const { stream, written } = terminal();
    const events = createPipelineEvents(output(true), 3, stream);
    for (const name of ["a", "b", "c"]) events.sent?.(worker(name));
    events.answered?.(worker("b"));
    events.answered?.(worker("a"));
    // The last one answers: the line stays on it while its answer is checked.
    events.answered?.(worker("c"));
    expect(shownText(written).slice(3)).toEqual([
      "review on 2 workers (0.0s)",
      "review on worker 'c' (0.0s)",
    ]);
    events.finish();
  });

  it("writes nothing off a terminal, or with -q", () => {
    vi.useFakeTimers();
    for (const [tty, quiet] of [
      [false, false],
      [true, true],
    ] as const) {
      const { stream, written } = terminal();
      createPipelineEvents(output(tty, quiet), 1, stream).sent?.(worker("box"));
      vi.advanceTimersByTime(3000);
      expect(written).toEqual([]);
    }
  });
});
