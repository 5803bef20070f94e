// Files this package ships beside its code: the command (bin/), the manual page, the hook script and
// package.json. This module is one directory below the package root both as source (src/) and as built
// (dist/ is one flat directory of bundled chunks, whichever chunk holds this module).
import { fileURLToPath } from "node:url";

/** The absolute path of `path`, relative to the package root. */
export function packageFile(path: string): string {
  return fileURLToPath(new URL(`../${path}`, import.meta.url));
}
