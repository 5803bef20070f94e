// What the project's .editorconfig files say about whitespace (editorconfig.org): the files from a
// path's directory up to the top, or to the first `root = true`; the nearest file wins, and in one
// file the last matching section. Only the two properties a hygiene fix depends on are read.
import { compileSectionGlob } from "./editorconfig-glob.js";

export interface EditorSettings {
  trimTrailingWhitespace?: boolean;
  insertFinalNewline?: boolean;
}

interface Section {
  matcher: RegExp;
  settings: Map<string, string>;
}

interface ParsedFile {
  root: boolean;
  sections: Section[];
}

const PROPERTIES = new Map<string, keyof EditorSettings>([
  ["trim_trailing_whitespace", "trimTrailingWhitespace"],
  ["insert_final_newline", "insertFinalNewline"],
]);

/** An INI file as EditorConfig reads it: `[glob]` sections, `key = value`, `#`/`;` comments. */
function parseEditorConfig(text: string): ParsedFile {
  const parsed: ParsedFile = { root: false, sections: [] };
  let current: Section | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[") && line.endsWith("]")) {
      let matcher: RegExp;
      try {
        matcher = compileSectionGlob(line.slice(1, -1));
      } catch {
        matcher = /$^/;
      }
      current = { matcher, settings: new Map() };
      parsed.sections.push(current);
      continue;
    }
    const equals = line.indexOf("=");
    if (equals === -1) continue;
    const key = line.slice(0, equals).trim().toLowerCase();
    const value = line
      .slice(equals + 1)
      .trim()
      .toLowerCase();
    if (current) current.settings.set(key, value);
    else if (key === "root") parsed.root = value === "true";
  }
  return parsed;
}

function parentDirs(path: string): string[] {
  const parts = path.split("/");
  parts.pop();
  const dirs = [""];
  for (let i = 1; i <= parts.length; i++) dirs.push(parts.slice(0, i).join("/"));
  return dirs;
}

/**
 * A resolver of each path's settings. `read(dir)` returns the text of `<dir>/.editorconfig` (dir ""
 * is the top), or undefined when there is none; each file is read and parsed once.
 */
export function createEditorConfig(
  read: (dir: string) => string | undefined,
): (path: string) => EditorSettings {
  const cache = new Map<string, ParsedFile | undefined>();
  const load = (dir: string) => {
    if (!cache.has(dir)) {
      const text = read(dir);
      cache.set(dir, text === undefined ? undefined : parseEditorConfig(text));
    }
    return cache.get(dir);
  };
  return (path) => {
    // Nearest last: from the innermost directory outwards until a root file, then applied outside in.
    const chain: { dir: string; file: ParsedFile }[] = [];
    for (const dir of parentDirs(path).reverse()) {
      const file = load(dir);
      if (!file) continue;
      chain.unshift({ dir, file });
      if (file.root) break;
    }
    const values = new Map<string, string>();
    for (const { dir, file } of chain) {
      const relative = dir === "" ? path : path.slice(dir.length + 1);
      for (const section of file.sections) {
        if (!section.matcher.test(relative)) continue;
        for (const [key, value] of section.settings) values.set(key, value);
      }
    }
    const settings: EditorSettings = {};
    for (const [key, name] of PROPERTIES) {
      const value = values.get(key);
      if (value === "true" || value === "false") settings[name] = value === "true";
    }
    return settings;
  };
}
