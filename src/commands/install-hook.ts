// `git review-remote install-hook`: the pre-push shim, where git looks for hooks, inside marker lines.
import { installHook } from "../hooks/install.js";
import { messages } from "../messages.js";
import { shellWord } from "../os/shell.js";
import { resolveWorkTreeRepo } from "../repo.js";
import type { Output } from "../report/output.js";

export async function runInstallHook(args: { force: boolean }, output: Output): Promise<void> {
  const {
    shown,
    how,
    huskyLater,
    huskyScript,
    removedBySimpleGitHooks,
    untrackedInTracked,
    workTreesWithout,
    sharedBy,
  } = await installHook(await resolveWorkTreeRepo(), args.force);
  output.say(messages.hookInstalled(how, shown));
  if (sharedBy) {
    output.err(`warning: ${messages.hooksPathShared(sharedBy)}`);
    output.err(`hint: ${messages.hintPrePushOffHere}`);
  }
  if (huskyLater) {
    output.err(`warning: ${huskyScript ? messages.huskyScriptNotRun(huskyScript) : messages.huskyNotSetUp}`);
    output.err(`hint: ${messages.hintHuskyLine}`);
  }
  if (untrackedInTracked) {
    const { hook, dir, excludeLine, excludeFile } = untrackedInTracked;
    output.hint(messages.hookUntracked(hook, dir));
    output.hint(messages.hintHookKeepLocal(shellWord(excludeLine), shellWord(excludeFile)));
    output.hint(messages.hintHookShare(shellWord(hook)));
  }
  for (const tree of workTreesWithout ?? []) {
    output.err(`warning: ${messages.workTreeWithoutHook(tree)}`);
    output.err(`hint: ${messages.hintInstallHookThere(shellWord(tree))}`);
  }
  if (removedBySimpleGitHooks) {
    output.err(`warning: ${messages.simpleGitHooksRemoves}`);
    output.err(`hint: ${messages.hintSimpleGitHooks}`);
  }
}
