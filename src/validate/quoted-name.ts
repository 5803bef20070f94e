// C-style quoted file names in patch headers, decoded the way git's quote.c does, so the patch gate
// sees the same name git will record and can refuse escapes no honest diff needs.

const CONTROL_ESCAPES = new Map([
  ["a", 7],
  ["b", 8],
  ["t", 9],
  ["n", 10],
  ["v", 11],
  ["f", 12],
  ["r", 13],
]);

export interface QuotedName {
  /** The decoded name (UTF-8 decoded; invalid sequences appear as U+FFFD and are reported). */
  name: string;
  /** The text after the closing quote. */
  rest: string;
  problems: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8Lenient = new TextDecoder("utf-8");

function decode(bytes: number[], problems: string[]): string {
  const array = Uint8Array.from(bytes);
  try {
    return utf8.decode(array);
  } catch {
    problems.push("quoted name is not valid UTF-8");
    return utf8Lenient.decode(array);
  }
}

/**
 * Reads one quoted name at the start of `text` (which starts with `"`). Octal escapes of bytes
 * \200-\377 are how git writes non-ASCII names and are fine here (layer 4 checks the decoded name);
 * escapes of control bytes (\000-\037, \177, \a \b \t \n \v \f \r) are problems.
 */
export function parseQuotedName(text: string): QuotedName {
  const bytes: number[] = [];
  const problems: string[] = [];
  let i = 1;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') return { name: decode(bytes, problems), rest: text.slice(i + 1), problems };
    if (c !== "\\") {
      const codePoint = text.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(codePoint);
      bytes.push(...Buffer.from(char, "utf8"));
      i += char.length;
      continue;
    }
    const e = text[i + 1] ?? "";
    const octal = /^[0-3][0-7][0-7]/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      const value = Number.parseInt(octal[0], 8);
      if (value < 0o40 || value === 0o177)
        problems.push(`quoted name escapes the control byte \\${octal[0]}`);
      bytes.push(value);
      i += 4;
    } else if (CONTROL_ESCAPES.has(e)) {
      problems.push(`quoted name escapes a control character (\\${e})`);
      bytes.push(CONTROL_ESCAPES.get(e) ?? 0);
      i += 2;
    } else if (e === '"' || e === "\\") {
      bytes.push(e.charCodeAt(0));
      i += 2;
    } else {
      problems.push("quoted name has an invalid escape");
      return { name: decode(bytes, problems), rest: "", problems };
    }
  }
  problems.push("quoted name is not terminated");
  return { name: decode(bytes, problems), rest: "", problems };
}
