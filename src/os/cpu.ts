// Whether the machine has a core to spare for one more thread of this process: its CPU time
// (/proc/stat, every process of anyone's) and this process's own, each read at two moments.
import { readFileSync } from "node:fs";

/** The machine's CPU time so far, in clock ticks: idle (with iowait) and all of it. */
export interface CpuTicks {
  idle: number;
  total: number;
  /** How many cores the counts cover. */
  cores: number;
}

/** A reading of the machine's and this process's CPU time, and when it was taken. */
export interface CpuReading {
  machine: CpuTicks | undefined;
  /** This process's CPU time, every thread of it (µs). */
  own: number;
  /** Wall time (ms). */
  at: number;
}

/** Ticks per core below which a window is too short to tell (a tick is 10 ms). */
const MIN_TICKS_PER_CORE = 5;

/** The counts of a /proc/stat text: its `cpu` line (user nice system idle iowait irq softirq steal). */
export function parseCpuTicks(stat: string): CpuTicks | undefined {
  const lines = stat.split("\n");
  const fields = (lines[0] ?? "").trim().split(/\s+/);
  if (fields[0] !== "cpu") return undefined;
  const ticks = fields.slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((value) => !Number.isFinite(value))) return undefined;
  const [, , , idle = 0, iowait = 0] = ticks;
  const cores = lines.filter((line) => /^cpu\d+ /.test(line)).length;
  if (cores === 0) return undefined;
  return { idle: idle + iowait, total: ticks.reduce((sum, value) => sum + value, 0), cores };
}

function readMachine(): CpuTicks | undefined {
  try {
    return parseCpuTicks(readFileSync("/proc/stat", "latin1"));
  } catch {
    return undefined;
  }
}

export function readCpu(): CpuReading {
  const { user, system } = process.cpuUsage();
  return { machine: readMachine(), own: user + system, at: performance.now() };
}

/**
 * The cores left, on average between two readings, once the rest of the machine has had what it
 * used and this process one core: what its threads beyond the first could have had. Undefined
 * where the machine's CPU time cannot be read or the window was too short for its ticks to tell.
 */
export function spareCores(before: CpuReading, after: CpuReading): number | undefined {
  const { machine: start } = before;
  const { machine: end } = after;
  if (start === undefined || end === undefined || start.cores !== end.cores) return undefined;
  const total = end.total - start.total;
  const wall = after.at - before.at;
  if (total < MIN_TICKS_PER_CORE * end.cores || wall <= 0) return undefined;
  const busy = (1 - (end.idle - start.idle) / total) * end.cores;
  const own = (after.own - before.own) / 1000 / wall;
  const others = Math.max(0, busy - own);
  return end.cores - others - 1;
}
