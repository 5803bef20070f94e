// What file systems make of a name: case folding, Unicode normalisation, ignorable code points and
// NTFS's trailing dots and spaces. One folding, and one `.git` look-alike test, for the export, the
// worker's bundle checks and the result's validation alike.

/** Path and component lengths every checkout can hold. */
export const MAX_PATH_BYTES = 4096;
export const MAX_COMPONENT_BYTES = 255;

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
  if (s.includes(":")) s = s.replace(/:.*$/s, "");
  return s.endsWith(".") || s.endsWith(" ") ? s.replace(/[. ]+$/, "") : s;
}

/** The folded form of a path's last component: the name a file system finds it by. */
export function foldedName(path: string): string {
  return foldComponent(path.slice(path.lastIndexOf("/") + 1));
}

/** The folded form of a whole path, component by component. */
export function foldPath(path: string): string {
  return path.split("/").map(foldComponent).join("/");
}

/** True for `.git` and every name a checkout could turn into it (`.GIT`, `.git.`, `.g\u200cit`, `git~1`). */
export function isDotGitLike(component: string): boolean {
  // Printable ASCII only changes case, loses a ":" suffix and trailing dots and spaces: a name that
  // does not start with "." or "g" cannot become ".git" or "git~1".
  const first = component.charCodeAt(0);
  if (first !== 0x2e && (first | 0x20) !== 0x67 && PRINTABLE_ASCII.test(component)) return false;
  const folded = foldComponent(component);
  return folded === ".git" || (folded.startsWith("git~") && /^git~[0-9]+$/.test(folded));
}

/**
 * The key under which two paths land on the same file somewhere (case-insensitive, normalising or
 * NTFS file systems): `src/café.ts` in NFC and NFD, `README.md` and `readme.MD`, `a.txt` and `a.txt.`.
 */
export function collisionKey(path: string): string {
  const normal = PRINTABLE_ASCII.test(path) ? path : path.normalize("NFC");
  return normal.includes("/") ? foldPath(normal) : foldComponent(normal);
}
