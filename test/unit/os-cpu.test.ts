import { describe, expect, it } from "vitest";
import { type CpuReading, parseCpuTicks, readCpu, spareCores } from "../../src/os/cpu.js";

const STAT = [
  "cpu  100 5 50 800 20 3 2 0 0 0",
  "cpu0 50 2 25 400 10 1 1 0 0 0",
  "cpu1 50 3 25 400 10 2 1 0 0 0",
  "intr 12345",
  "",
].join("\n");

/** A reading of a 2-core machine: its idle and total ticks, and this process's CPU (ms) at `at` ms. */
function reading(idle: number, total: number, ownMs: number, at: number): CpuReading {
  return { machine: { idle, total, cores: 2 }, own: ownMs * 1000, at };
}

describe("the machine's spare cores", () => {
  it("reads /proc/stat's cpu line: idle with iowait, the total of the eight counts, the cores listed", () => {
    expect(parseCpuTicks(STAT)).toEqual({ idle: 820, total: 980, cores: 2 });
  });

  it.each([
    "",
    "intr 1\n",
    "cpu  1 2 3\ncpu0 1 2 3\n",
    "cpu  1 2 3 4 5 6 7 x\ncpu0 1\n",
    "cpu  1 2 3 4 5 6 7 8\n",
  ])("reads nothing from %j", (text) => {
    expect(parseCpuTicks(text)).toBeUndefined();
  });

  it("reads this machine's, where it has a /proc/stat", () => {
    const now = readCpu();
    expect(now.own).toBeGreaterThan(0);
    if (now.machine) expect(now.machine.cores).toBeGreaterThan(0);
  });

  it("counts what this process used as its own: alone on two cores, one core is to spare", () => {
    // 200 ms: 40 ticks on 2 cores, 14 idle (1.3 cores busy), all of them this process's 260 ms.
    expect(spareCores(reading(0, 0, 0, 0), reading(14, 40, 260, 200))).toBeCloseTo(1);
  });

  it("finds none when other processes kept the cores busy", () => {
    // Both cores busy, this process 1 core of it: the other one was someone else's.
    expect(spareCores(reading(0, 0, 0, 0), reading(0, 40, 200, 200))).toBeCloseTo(0);
  });

  it("says nothing of a window too short for the ticks, nor without the machine's counts", () => {
    expect(spareCores(reading(0, 0, 0, 0), reading(2, 4, 10, 20))).toBeUndefined();
    const none = { machine: undefined, own: 0, at: 0 };
    expect(spareCores(none, { ...none, at: 200 })).toBeUndefined();
  });
});
