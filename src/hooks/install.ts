// Installing the pre-push shim (hooks/pre-push of this package) where git looks for hooks, inside
// marker lines, so a later install updates our block and leaves the rest of the hook alone.
import { chmod, readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { ReviewRemoteError } from "../errors.js";
import { git } from "../git/run.js";
import type { Repo } from "../repo.js";
import { writeFileAtomic } from "../store/layout.js";

const BEGIN_MARKER = "# >>> git-review-remote >>>";
const END_MARKER = "# <<< git-review-remote <<<";

async function shim(): Promise<string> {
  return readFile(new URL("../../hooks/pre-push", import.meta.url), "utf8");
}

function block(text: string): string {
  const start = text.indexOf(BEGIN_MARKER);
  const end = text.indexOf(END_MARKER);
  return text.slice(start, end + END_MARKER.length);
}

/** Writes the hook; returns its path and whether one was there before. */
export async function installHook(repo: Repo, force: boolean): Promise<{ path: string; updated: boolean }> {
  const reported = (
    await git(["rev-parse", "--git-path", "hooks"], { cwd: repo.cwd, env: repo.env })
  ).stdout.trim();
  const dir = isAbsolute(reported) ? reported : join(repo.cwd, reported);
  if (/(^|\/)\.husky(\/_)?$/.test(dir)) {
    throw new ReviewRemoteError("this repository runs its hooks through husky", {
      hints: ['add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"'],
    });
  }
  const path = join(dir, "pre-push");
  const fresh = await shim();
  const existing = await readFile(path, "utf8").catch(() => undefined);
  let text = fresh;
  if (existing !== undefined && !force) {
    if (!existing.includes(BEGIN_MARKER) || !existing.includes(END_MARKER)) {
      throw new ReviewRemoteError(`${path} exists and is not ours; leaving it as it is`, {
        hints: [
          `add this line to it: git review-remote hook pre-push "$@" || exit $?`,
          "or replace it: git review-remote install-hook --force",
        ],
      });
    }
    text = existing.replace(block(existing), block(fresh));
  }
  await writeFileAtomic(path, text, 0o755);
  await chmod(path, 0o755);
  return { path, updated: existing !== undefined };
}
