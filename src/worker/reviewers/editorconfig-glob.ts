// EditorConfig section globs (editorconfig.org, "Glob Expressions") as regular expressions:
// `*`, `**`, `?`, `[seq]`, `[!seq]`, `{a,b}`, `{1..3}` and `\` escapes.

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const MAX_NUMERIC_ALTERNATIVES = 1000;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, "\\$&");
}

/** The index of the `}` closing the brace at `start`, or -1. */
function closingBrace(glob: string, start: number): number {
  let depth = 0;
  for (let i = start; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The comma-separated parts of a brace body, commas inside nested braces kept. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\") {
      current += c + (body[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function braceRegex(body: string): string {
  const numeric = /^([+-]?[0-9]+)\.\.([+-]?[0-9]+)$/.exec(body);
  if (numeric) {
    const [low, high] = [Number(numeric[1]), Number(numeric[2])].sort((a, b) => a - b) as [number, number];
    if (high - low > MAX_NUMERIC_ALTERNATIVES) return "[+-]?[0-9]+";
    return `(?:${Array.from({ length: high - low + 1 }, (_, i) => String(low + i)).join("|")})`;
  }
  const parts = splitAlternatives(body);
  if (parts.length < 2) return `\\{${translate(body)}\\}`;
  return `(?:${parts.map(translate).join("|")})`;
}

function bracketRegex(glob: string, start: number): { regex: string; end: number } | undefined {
  const close = glob.indexOf("]", start + 1);
  if (close === -1) return undefined;
  const body = glob.slice(start + 1, close);
  // A bracket never matches a path separator.
  if (body.includes("/")) return undefined;
  const negated = body.startsWith("!");
  const chars = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, "\\$&");
  return { regex: negated ? `[^/${chars}]` : `[${chars}]`, end: close };
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\") {
      out += escapeRegex(glob[i + 1] ?? "\\");
      i++;
    } else if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const bracket = bracketRegex(glob, i);
      if (bracket) {
        out += bracket.regex;
        i = bracket.end;
      } else out += "\\[";
    } else if (c === "{") {
      const close = closingBrace(glob, i);
      if (close === -1) out += "\\{";
      else {
        out += braceRegex(glob.slice(i + 1, close));
        i = close;
      }
    } else out += escapeRegex(c);
  }
  return out;
}

/** Whether the glob has a path separator outside brackets: then it is anchored at its file's dir. */
function isAnchored(glob: string): boolean {
  return glob.replace(/\[[^\]]*\]/g, "").includes("/");
}

/** A matcher of paths relative to the .editorconfig's directory. */
export function compileSectionGlob(glob: string): RegExp {
  if (isAnchored(glob)) return new RegExp(`^${translate(glob.replace(/^\//, ""))}$`, "s");
  return new RegExp(`^(?:.*/)?${translate(glob)}$`, "s");
}
