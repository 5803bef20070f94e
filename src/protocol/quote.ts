// Worker-supplied text that ends up in a problem line is quoted here: printable ASCII only, length-capped,
// so a hostile key or value cannot inject terminal escapes or flood the screen.

const PLAIN_SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `"text"` with `"`, `\` and everything outside printable ASCII escaped, cut after `max` characters. */
export function quoteForMessage(text: string, max = 60): string {
  const cut = text.length > max;
  let out = "";
  for (const ch of cut ? text.slice(0, max) : text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\u{${code.toString(16)}}`;
  }
  return `"${out}${cut ? "..." : ""}"`;
}

/** `comments.3.line`; keys that are not plain identifiers are quoted. */
export function formatPath(segments: readonly PropertyKey[], root: string): string {
  if (segments.length === 0) return root;
  return segments
    .map((segment) => {
      const text = String(segment);
      return typeof segment === "number" || PLAIN_SEGMENT.test(text) ? text : quoteForMessage(text);
    })
    .join(".");
}
