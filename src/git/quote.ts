// A path as git prints one (quote.c, quote_c_style): as it is, unless it holds a byte a terminal
// or a reader could mistake; then in double quotes with C escapes, and with core.quotePath (git's
// default) every byte over 0x7f in octal too. Spaces are never quoted.
import type { GitRun } from "./commits.js";
import { git } from "./run.js";

const ESCAPES: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

function needsQuote(byte: number, octalHigh: boolean): boolean {
  return byte < 0x20 || byte === 0x22 || byte === 0x5c || byte === 0x7f || (octalHigh && byte > 0x7f);
}

/** `text`'s bytes as they stand inside git's quotes, and whether any needs quoting. */
function escapeBytes(text: string, quotePath: boolean): { body: string; quoted: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (!bytes.some((byte) => needsQuote(byte, quotePath))) return { body: text, quoted: false };
  let out = "";
  let plain: number[] = [];
  const flush = () => {
    out += Buffer.from(plain).toString("utf8");
    plain = [];
  };
  for (const byte of bytes) {
    if (!needsQuote(byte, quotePath)) {
      plain.push(byte);
      continue;
    }
    flush();
    out += ESCAPES[byte] ?? `\\${byte.toString(8).padStart(3, "0")}`;
  }
  flush();
  return { body: out, quoted: true };
}

/**
 * `path` quoted as git quotes it; `quotePath`: the value of core.quotePath (true unless set false).
 * `keep`: text of ours set into the path (a redacted value, `ghp_…`) that stands as it is, inside
 * the quotes when the rest of the path needs them; the path's own bytes around it are quoted.
 */
export function quoteLikeGit(path: string, quotePath: boolean, keep: readonly string[] = []): string {
  // The longest first: of two that start alike, the whole of the longer is kept.
  const kept = keep.filter((text) => text !== "").sort((a, b) => b.length - a.length);
  const pieces =
    kept.length === 0
      ? [path]
      : path.split(
          new RegExp(`(${kept.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`),
        );
  // split with a group: the kept texts are at the odd indexes.
  const escaped = pieces.map((piece, index) =>
    index % 2 === 1 ? { body: piece, quoted: false } : escapeBytes(piece, quotePath),
  );
  const body = escaped.map((piece) => piece.body).join("");
  return escaped.some((piece) => piece.quoted) ? `"${body}"` : body;
}

/**
 * A path a merge conflicts on, as every merge reports it (`conflict: <path> (<why>)`): quoted as git
 * quotes it by default (core.quotePath unset), so that any byte a terminal could misread, a
 * non-ASCII one included, is escaped, whatever the user's setting. The path is the proposals'.
 */
export function conflictDetail(path: string, why?: string): string {
  return `conflict: ${quoteLikeGit(path, true)}${why === undefined ? "" : ` (${why})`}`;
}

/** core.quotePath as git reads it (true when unset). */
export async function readQuotePath(run: GitRun): Promise<boolean> {
  const value = await git(["config", "--type=bool", "core.quotePath"], { ...run, allowFailure: true });
  return value.stdout.trim() !== "false";
}
