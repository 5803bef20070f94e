// A path of the repository as every report prints it: as git prints paths under core.quotePath
// (src/git/quote.ts), then with what git's quoting leaves as it is (quotePath false: a bidi or
// format character) escaped still.
import { quoteLikeGit } from "../git/quote.js";
import { escapeForDisplay } from "../validate/sanitize.js";

/** `keep`: redacted values set into the path (`ghp_…`), printed as they are inside the quoting. */
export function showPath(path: string, quotePath: boolean, keep: readonly string[] = []): string {
  return escapeForDisplay(quoteLikeGit(path, quotePath, keep));
}
