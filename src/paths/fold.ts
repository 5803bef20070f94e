// Path sanity for validation layer 4 (design §9): a path git recorded from a worker's patch must be
// canonical, printable and must not name `.git` on any file system the repo may be checked out on.
import { quoteForDisplay } from "../validate/sanitize.js";

export const MAX_PATH_BYTES = 4096;
export const MAX_COMPONENT_BYTES = 255;

/** C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** Format (bidi, zero-width, BOM...), default-ignorable, line/paragraph separators, lone surrogates. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Cs}]/u;
/** An NTFS 8.3 short name (`GIT~1`, `GITHUB~1`, `PROGRA~1.TXT`): an alias of some other, longer name. */
const SHORT_NAME = /^[^.~]{1,6}~[0-9]+(?:\.[^.]{0,3})?$/;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * What a file system may make of one path component: HFS+ ignores default-ignorable code points
 * (U+200C, U+200E, U+202A-U+202E, U+206A-U+206F, U+FEFF...), APFS/HFS+ normalise Unicode, macOS and
 * Windows fold case, NTFS drops trailing dots and spaces and reads `name:stream` as `name`.
 * NFKC on top of NFC also catches full-width and other compatibility look-alikes (`．ｇｉｔ`).
 */
export function foldComponent(component: string): string {
  // Printable ASCII has no ignorable code points and NFKC leaves it as it is: most names go this way.
  let s = PRINTABLE_ASCII.test(component)
    ? component.toLowerCase()
    : component
        .replace(/\p{Default_Ignorable_Code_Point}/gu, "")
        .normalize("NFKC")
        .toUpperCase()
        .toLowerCase()
        .normalize("NFKC");
  s = s.replace(/:.*$/s, "");
  return s.replace(/[. ]+$/, "");
}

/** The folded form of a whole path, component by component. */
export function foldPath(path: string): string {
  return path.split("/").map(foldComponent).join("/");
}

/** True for `.git` and every name a checkout could turn into it (`.GIT`, `.git.`, `.g\u200cit`, `git~1`). */
export function isDotGitLike(component: string): boolean {
  const folded = foldComponent(component);
  return folded === ".git" || /^git~[0-9]+$/.test(folded);
}

function checkComponent(component: string): string[] {
  if (component === "") return ["has an empty component (// or a trailing /)"];
  if (component === "." || component === "..") return [`has a "${component}" component`];
  const problems: string[] = [];
  if (component.startsWith("-")) problems.push('has a component starting with "-"');
  if (Buffer.byteLength(component, "utf8") > MAX_COMPONENT_BYTES) {
    problems.push(`has a component over ${MAX_COMPONENT_BYTES} bytes`);
  }
  if (isDotGitLike(component)) problems.push("has a .git look-alike component");
  else if (SHORT_NAME.test(component.normalize("NFKC")))
    problems.push("has an NTFS 8.3 short-name component");
  return problems;
}

/** Problems with one repository path (relative, `/`-separated); empty when it is sane. */
export function checkPath(path: string): string[] {
  const shown = quoteForDisplay(path);
  if (path === "") return ["path is empty"];
  const problems: string[] = [];
  if (path.startsWith("/")) problems.push("is absolute");
  if (path.includes("\\")) problems.push("contains a backslash");
  if (CONTROL.test(path)) problems.push("contains a control character");
  if (INVISIBLE.test(path)) problems.push("contains an invisible, bidi or format character");
  if (path.includes("\ufffd")) problems.push("is not valid UTF-8");
  if (Buffer.byteLength(path, "utf8") > MAX_PATH_BYTES) problems.push(`is over ${MAX_PATH_BYTES} bytes`);
  const components = path.startsWith("/") ? path.slice(1).split("/") : path.split("/");
  for (const component of components) {
    for (const problem of checkComponent(component)) {
      if (!problems.includes(problem)) problems.push(problem);
    }
  }
  return problems.map((problem) => `path ${shown} ${problem}`);
}

/**
 * The key under which two paths land on the same file somewhere (case-insensitive, normalising or
 * NTFS file systems): `src/café.ts` in NFC and NFD, `README.md` and `readme.MD`, `a.txt` and `a.txt.`.
 */
export function collisionKey(path: string): string {
  return foldPath(path.normalize("NFC"));
}
