// Terminal output for commands: colors only on a TTY, honoring NO_COLOR and color.ui.
import type { Writable } from "node:stream";

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /**
   * What a command that changes something says it did (`Dropped review ...`), on stdout; `-q`
   * drops it, as git's own -q drops `Deleted branch ...`. A command's result is `out`.
   */
  say(line: string): void;
  /**
   * A `hint:` that is advice, not part of a failure or a warning (those are `err`, with their
   * hints); `-q` drops it.
   */
  hint(text: string): void;
  /** Write a JSON document to stdout: indented by two spaces, with a final newline. */
  json(value: unknown): void;
  color: boolean;
  tty: boolean;
  quiet: boolean;
}

/** git's rule: color.ui always/never/auto (default auto: only on a terminal); NO_COLOR wins. */
export function useColor(stdoutIsTty: boolean, colorUi: string | undefined): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  const ui = colorUi?.toLowerCase();
  if (ui === "always") return true;
  if (ui === "never" || ui === "false") return false;
  return stdoutIsTty;
}

export function createOutput(
  stdout: Writable & { isTTY?: boolean },
  stderr: Writable & { isTTY?: boolean },
  options: { quiet?: boolean } = {},
): Output {
  const output: Output = {
    out: (line) => stdout.write(`${line}\n`),
    err: (line) => stderr.write(`${line}\n`),
    say: (line) => {
      if (!output.quiet) stdout.write(`${line}\n`);
    },
    hint: (text) => {
      if (!output.quiet) stderr.write(`hint: ${text}\n`);
    },
    json: (value) => stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    color: useColor(Boolean(stdout.isTTY), undefined),
    tty: Boolean(stderr.isTTY),
    quiet: Boolean(options.quiet),
  };
  return output;
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const;

export function paint(output: Pick<Output, "color">, style: keyof typeof CODES, text: string): string {
  return output.color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
