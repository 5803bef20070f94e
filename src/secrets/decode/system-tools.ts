// Files compressed in a form node cannot open (bzip2, xz, zstd, LZ4, lzip), expanded by the system's
// own tool for it, within the same budget as a gzip member: a token in `app.log.xz` is the one in
// `app.log.gz`. Without the tool, past the budget, or on a stream the tool refuses, the file is
// uninspectable: its bytes never leave unread.
import { spawnSync } from "node:child_process";
import { type ExpansionBudget, UninspectableError } from "./limits.js";

export interface SystemTool {
  /** The format, as `compressionName` names it. */
  format: string;
  /** The program that expands it from stdin to stdout, and its arguments. */
  command: string;
  args: readonly string[];
  /** The file name suffixes of the format; a tar's own (`.txz`) stands for `.tar`. */
  suffix: RegExp;
  tarSuffix: RegExp;
}

const TOOLS: readonly SystemTool[] = [
  { format: "bzip2", command: "bzip2", args: ["-dc"], suffix: /\.bz2?$/i, tarSuffix: /\.tbz2?$/i },
  { format: "xz", command: "xz", args: ["-dc"], suffix: /\.xz$/i, tarSuffix: /\.txz$/i },
  { format: "zstd", command: "zstd", args: ["-dcq"], suffix: /\.zstd?$/i, tarSuffix: /\.tzst$/i },
  { format: "LZ4", command: "lz4", args: ["-dc"], suffix: /\.lz4$/i, tarSuffix: /\.tlz4$/i },
  { format: "lzip", command: "lzip", args: ["-dc"], suffix: /\.lz$/i, tarSuffix: /\.tlz$/i },
];

/** The tool that expands `format`; none for an archive of many members (7z, RAR). */
export function systemToolFor(format: string): SystemTool | undefined {
  return TOOLS.find((tool) => tool.format === format);
}

/** Time one expansion may take: a bounded output comes quickly, a tool that hangs is stopped. */
const TIMEOUT_MS = 30_000;

/** The expanded bytes of `data`; throws UninspectableError as gunzipWithin does, naming the tool. */
export function expandWithTool(tool: SystemTool, data: Buffer, budget: ExpansionBudget): Buffer {
  const allowance = budget.allowance(data.length);
  const run = spawnSync(tool.command, tool.args, {
    input: data,
    maxBuffer: Math.max(1, allowance),
    timeout: TIMEOUT_MS,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const code = (run.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") {
    throw new UninspectableError(
      `compressed as ${tool.format}, which the scan reads with ${tool.command}: not installed here`,
    );
  }
  if (code === "ENOBUFS") throw budget.refusal(data.length);
  if (run.error)
    throw new UninspectableError(`${tool.command} could not expand it (${code ?? run.error.message})`);
  if (run.status !== 0) {
    throw new UninspectableError(
      `not a readable ${tool.format} stream (${tool.command} exited with ${run.status ?? run.signal})`,
    );
  }
  budget.take(run.stdout.length);
  return run.stdout;
}

/** The expanded file's name: `path`'s base without the format's suffix (`.txz` → `.tar`). */
export function expandedName(tool: SystemTool, path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (tool.tarSuffix.test(base)) return base.replace(tool.tarSuffix, ".tar");
  return base.replace(tool.suffix, "") || base;
}
