// File names claimed by the header lines of a git diff, read as git apply reads them, so the patch
// gate can check every name a patch mentions before git sees it (layer 4 re-checks what git recorded).
import { parseQuotedName } from "./quoted-name.js";
import { quoteForDisplay } from "./sanitize.js";

export interface HeaderNames {
  names: string[];
  problems: string[];
}

function stripPrefix(name: string, prefix: "a/" | "b/", result: HeaderNames): void {
  if (name.startsWith(prefix)) result.names.push(name.slice(prefix.length));
  else result.problems.push(`file name ${quoteForDisplay(name)} does not start with "${prefix}"`);
}

/** `diff --git <a> <b>`: both names when they can be told apart (quoted, equal halves, or one " b/"). */
export function readGitLineNames(rest: string): HeaderNames {
  const result: HeaderNames = { names: [], problems: [] };
  if (rest.startsWith('"')) {
    const first = parseQuotedName(rest);
    result.problems.push(...first.problems);
    if (!first.rest.startsWith(" ")) {
      result.problems.push("diff --git line has no second file name");
      return result;
    }
    stripPrefix(first.name, "a/", result);
    const second = first.rest.slice(1);
    if (second.startsWith('"')) {
      const parsed = parseQuotedName(second);
      result.problems.push(...parsed.problems);
      if (parsed.rest !== "") result.problems.push("diff --git line has text after the file names");
      stripPrefix(parsed.name, "b/", result);
    } else {
      stripPrefix(second, "b/", result);
    }
    return result;
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " " && rest.slice(2, half) === rest.slice(half + 3)) {
    stripPrefix(rest.slice(0, half), "a/", result);
    stripPrefix(rest.slice(half + 1), "b/", result);
    return result;
  }
  const split = rest.indexOf(" b/");
  if (split !== -1 && rest.indexOf(" b/", split + 1) === -1 && !rest.includes('"')) {
    stripPrefix(rest.slice(0, split), "a/", result);
    stripPrefix(rest.slice(split + 1), "b/", result);
  }
  // Otherwise ambiguous (a rename with spaces): the rename and ---/+++ lines name the files.
  return result;
}

/** `--- <name>` / `+++ <name>` as written, prefix and all: /dev/null is no name; a TAB ends an unquoted one. */
export function readFileLineRawName(rest: string): HeaderNames {
  if (rest.startsWith('"')) {
    const parsed = parseQuotedName(rest);
    const problems = [...parsed.problems];
    if (parsed.rest !== "" && !parsed.rest.startsWith("\t")) problems.push("text after a quoted file name");
    return { names: [parsed.name], problems };
  }
  const tab = rest.indexOf("\t");
  const name = tab === -1 ? rest : rest.slice(0, tab);
  return { names: name === "/dev/null" ? [] : [name], problems: [] };
}

/** `--- <name>` / `+++ <name>`: /dev/null, or a prefixed name ended by a TAB when unquoted. */
export function readFileLineName(rest: string, prefix: "a/" | "b/"): HeaderNames {
  const raw = readFileLineRawName(rest);
  const result: HeaderNames = { names: [], problems: [...raw.problems] };
  for (const name of raw.names) stripPrefix(name, prefix, result);
  return result;
}

/** `rename from <name>` and friends: the whole rest of the line, quoted or not, without a prefix. */
export function readPlainLineName(rest: string): HeaderNames {
  if (!rest.startsWith('"')) return { names: [rest], problems: [] };
  const parsed = parseQuotedName(rest);
  const problems = [...parsed.problems];
  if (parsed.rest !== "") problems.push("text after a quoted file name");
  return { names: [parsed.name], problems };
}
