// The result boundary (design §1, property 2): a path git recorded from a worker's patch must be
// canonical, printable and must not name `.git` on any file system the repo may be checked out on
// (validation layers 2 and 4, design §9).
import { quoteForDisplay } from "../validate/sanitize.js";
import { isDotGitLike, MAX_COMPONENT_BYTES, MAX_PATH_BYTES } from "./fold.js";

/** C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;
/** Format (bidi, zero-width, BOM...), default-ignorable, line/paragraph separators, lone surrogates. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Cs}]/u;
/** An NTFS 8.3 short name (`GIT~1`, `GITHUB~1`, `PROGRA~1.TXT`): an alias of some other, longer name. */
const SHORT_NAME = /^[^.~]{1,6}~[0-9]+(?:\.[^.]{0,3})?$/;

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
  // The bundle's drive-path rule: `C:/x` is absolute on Windows, `C:x` relative to that drive's
  // current directory; either lands outside the checkout there.
  if (/^[A-Za-z]:/.test(path)) problems.push("starts with a drive letter");
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

/** The device names Windows reserves in every directory, whatever extension follows (`nul.txt`). */
const RESERVED_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?:\..*)?$/is;
/** Characters no Windows name may hold (`:` opens an NTFS stream; the rest the Win32 API refuses). */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Problems with a name a proposal brings in (a new file, a rename's target) that Windows cannot hold
 * as it is: a device name, a forbidden character, or a trailing dot or space, which Windows drops (so
 * the file lands under another name). Git for Windows refuses to check such a path out, so a review
 * branch holding one could not be looked at there. Names already in the tree are the user's own.
 */
export function checkNewName(path: string): string[] {
  const shown = quoteForDisplay(path);
  const problems: string[] = [];
  for (const component of path.split("/")) {
    const bare = component.replace(/[. ]+$/, "");
    if (RESERVED_DEVICE.test(bare)) {
      problems.push(`path ${shown} has a component Windows reserves for a device (${component})`);
    }
    if (WINDOWS_FORBIDDEN.test(component)) {
      problems.push(`path ${shown} has a character Windows does not allow in a name (${component})`);
    }
    if (bare !== component) {
      problems.push(
        `path ${shown} has a component ending in a dot or space, which Windows drops (${component})`,
      );
    }
  }
  return [...new Set(problems)];
}
