// Every sentence of an error or a hint the client raises lives here, so wording stays consistent and
// reviewable in one place. What else the user reads has one home each: the lines of a command's
// report in src/report/, a validation problem beside the layer that finds it (src/validate/,
// src/paths/, src/protocol/), and what the worker says in its reviewer phase, shown as `remote:`
// lines or carried in the result, in src/worker/messages.ts.

import { LIMIT_CEILINGS, RAISABLE_LIMITS, type RaisableLimit } from "./protocol/limits.js";
import { plural } from "./report/plural.js";

export const messages = {
  notARepository: (cwd: string) => `not a git repository: ${cwd}`,
  hintNotARepository:
    "run this inside a git work tree, or pass --git-dir: git --git-dir=<path> review-remote",
  gitTooOld: (version: string, minimum: string) => `needs git ${minimum} or later; this is git ${version}`,
  gitNotFound: (minimum: string) => `needs git ${minimum} or later; there is no git on PATH`,
  hintGitTooOld: "install a newer git (https://git-scm.com/downloads), or put one first on PATH",
  hintGitNotFound: "install git (https://git-scm.com/downloads), or add the directory that holds it to PATH",
  needsWorkTree: "this command needs a work tree (the repository is bare)",
  bareRepository: (gitDir: string) =>
    `${gitDir} is a bare repository: a review needs a work tree, and its branches belong in a clone`,
  hintBareWorkTree: (command: string) =>
    `run it in a work tree of it (git worktree list lists them): ${command}`,
  hintBareRepository:
    "run it in a clone or a worktree of it: git clone <repo> <dir>, or git worktree add <dir> <branch>",
  insideGitDir: (gitDir: string) => `this command must run in the work tree, not inside ${gitDir}`,
  hintInsideGitDir: "cd to the work tree, the directory that holds .git, and run it there",
  notACommand: (word: string) =>
    `'review-remote ${word}' is not a git review-remote command or a revision. See 'git review-remote -h'.`,
  emptyRepository: "the repository has no commits yet",
  hintEmptyRepository: "commit something first, or review uncommitted files with --worktree",
  unknownRevision: (rev: string) => `unknown revision: ${rev}`,
  hintUnknownRevision: (branch: string) =>
    `name a commit, branch or tag, such as HEAD~1 or ${branch} (git log --oneline lists commits)`,
  pathspecNoMatch: (spec: string) => `pathspec '${spec}' did not match any file in the snapshot`,
  hintPathspec: "pathspecs are relative to the current directory; check `git ls-files`",
  nothingToExport: "nothing would leave: every file was excluded",
  hintNothingToExport: "run `git review-remote export --list` to see why each file stays",
  emptyWorkTree: "nothing would leave: the work tree has no files",
  hintEmptyWorkTree:
    "--worktree sends the tracked files and the untracked ones that are not ignored: add a file first",
  emptyCommit: "nothing would leave: the commit has no files",
  hintEmptyCommit: "name a commit that has files, or review uncommitted files with --worktree",
  policyInvalidJson: (file: string, reason: string) => `${file}: not valid JSON: ${reason}`,
  policyInvalid: (file: string) => `invalid policy file ${file}`,
  hintPolicy: "see the policy file section of `git review-remote --help`",
  configInvalid: (key: string, value: string, expected: string) =>
    `bad config value '${value}' for ${key}: expected ${expected}`,
  hintConfigInvalid: (key: string) =>
    `change or remove it where it is set (git config --show-origin --get-all ${key} names the file)`,
  storeUnwritable: (dir: string, reason: string) => `cannot write to the store ${dir}: ${reason}`,
  hintStoreUnwritable: "free some disk space or fix the permissions of the git directory, then retry",
  outputUnwritable: (file: string, reason: string) => `cannot write ${file}: ${reason}`,
  secretNameInBundle: (path: string, rule: string) =>
    `refusing to export ${path}: it matches the secret name rule ${rule}`,
  secretsFound: (count: number) =>
    `export refused: ${plural(count, "possible secret")} found; nothing was stored or sent`,
  secretsWouldStop: (count: number) =>
    `the export would be refused: ${plural(count, "possible secret")} found (listed above)`,
  /** A path kept back from a range's base alone (a file the change deletes): its side of the patch. */
  keptBackInBase: (reason: string) => `${reason} (in the range's base; left out of the patch)`,
  hintSecretsExclude: 'keep the file out with an "exclude" glob in .review-remote.json,',
  hintSecretsDependencyCache:
    'every finding is in Yarn\'s cache of the packages you depend on (published archives, not your code): allow it by path in secrets.allow in .review-remote.json: {"path": ".yarn/cache/**"}',
  /** The refused findings by place, then each place's line (`201 in detect/ (jwt 120, ...)`). */
  hintSecretsByPlace: (count: number) => `the ${count} findings by where they are:`,
  hintSecretsMorePlaces: (count: number) => `and ${plural(count, "more place")}`,
  /** The entries that allow whole test directories or test files, as the policy file spells them. */
  hintSecretsTestAllow: (entries: readonly string[]) =>
    `or, for test data, allow it by path in secrets.allow there: ${entries.join(", ")}`,
  pathAllowForm: '{"path": "<dir>/**"}',
  /** Rules a path alone does not allow (a secret's name, an unread archive): the entry must name them. */
  hintSecretsRuleAllow: (rules: readonly string[]) =>
    `a secret's name or an unread archive is allowed only by an entry that names its rule: ${rules
      .map((rule) => `{"rule": ${JSON.stringify(rule)}, "path": "<dir>/**"}`)
      .join(", ")}`,
  hintSecretsListAllowed: "export --list shows each finding an allow or marker lets through",
  /** After the first findings of a refusal that found more than a screen holds. */
  moreFindings: (count: number) => `... and ${count} more (git review-remote export --list lists every one)`,
  hintSecretsRemoved:
    "the change removes these lines, and its patch would carry them: send the tree alone (review with --all <rev>, export <rev>)",
  /** No marker reaches a line the change removes: only an entry of the policy does. */
  hintSecretsRemovedAllow: (fingerprints: readonly string[]) =>
    `or, for a false positive, add {"fingerprint": "${new Set(fingerprints).size === 1 ? fingerprints[0] : "<fp>"}"} to secrets.allow (no marker reaches a removed line)`,
  /** With the finding's own fingerprint when there is one to name, so the line can be pasted. */
  /** A marker allows a value on a line: offered only when some finding has one (not one in a name). */
  hintSecretsAllow: (fingerprints: readonly string[], onALine: boolean) =>
    `or, for a false positive, add {"fingerprint": "${new Set(fingerprints).size === 1 ? fingerprints[0] : "<fp>"}"} to secrets.allow there${onALine ? ', or "review-remote:allow" on the line' : ""}`,
  noMergeBase: (spec: string) => `${spec}: the two commits share no history, so there is no fork point`,
  hintRange: "name a range as <base>..<head>, e.g. git review-remote main..HEAD",
  hintUncommittedNotReviewed:
    "the uncommitted changes to tracked files were not reviewed (a review is of commits): git review-remote --worktree reviews them",
  worktreeUnchanged:
    "nothing to review: the work tree has no uncommitted change that would leave (git review-remote export --list --worktree shows what stays)",
  hintWorktreeUnchanged:
    "review the last commit with git review-remote, or the whole work tree with --worktree --all",
  emptyRange: (spec: string, commit: string, command: "review" | "export") =>
    `nothing to ${command}: ${spec} starts and ends at ${commit.slice(0, 10)}, so it changes nothing`,
  hintEmptyRange:
    "name the commits to review, e.g. git review-remote HEAD~3..HEAD, or review the whole tree with --all <rev>",
  hintEmptyExportRange:
    "name the commits whose change to export, e.g. git review-remote export HEAD~3..HEAD, or export the tree of one commit: git review-remote export <rev>",
  backwardsRange: (spec: string, head: string, base: string) =>
    `${spec} goes backwards: ${head} is behind ${base}, so this reviews the undoing of ${base}'s commits since ${head} (git log ${spec} lists none)`,
  hintBackwardsRange: (head: string, base: string) =>
    `to review what ${base} added since ${head}: git review-remote ${head}..${base}`,
  allTakesOneRevision: (spec: string) => `--all reviews the whole tree of one commit, not a range: ${spec}`,
  worktreeTakesNoRevision: (spec: string) =>
    `--worktree snapshots the work tree; it takes no revision: ${spec}`,
  shallowNoParent: (commit: string) =>
    `the parent of ${commit} is not in this shallow clone: reviewing its whole tree, not its change`,
  shallowNoUpstreamBase: (upstream: string) =>
    `the history shared with ${upstream} is not in this shallow clone: reviewing the last commit only`,
  hintDeepen: "fetch the missing history, then review again: git fetch --deepen=<n>",
  hintShallowRevision:
    "this clone is shallow: an older commit may be missing (git fetch --deepen=<n> fetches more)",
  emptyWorkerCommand: (name: string) =>
    `review-remote.${name}.command is empty: worker '${name}' has no command to run`,
  unknownWorker: (name: string) => `no worker named '${name}' is configured`,
  workerCommandAsName: (name: string) =>
    `'${name}' is a command, not a worker's name: review-remote.worker and --worker name a worker, whose command is review-remote.<name>.command`,
  hintWorkerCommandAsName: (command: string) =>
    `name it, then make it the default: git config review-remote.box.command ${command} && git config review-remote.worker box`,
  hintDefaultWorker: (name: string) =>
    `review-remote.worker makes '${name}' the default worker; to review on the local one again: git config --unset review-remote.worker`,
  hintConfigureWorker: (name: string) =>
    `configure it with: git config review-remote.${name}.command 'ssh <host> git-review-remote worker'`,
  requestTooLarge: (bytes: number, max: number, paths: number) =>
    `the review's request would be ${bytes} bytes, more than the ${max} a worker reads` +
    (paths > 0 ? `: the change names ${plural(paths, "path")}` : ""),
  hintRequestTooLarge:
    "review part of the change (git review-remote <rev> -- <pathspec>) or the tree alone (--all <rev>)",
  rangePatchTooLarge: (cut: { bytes: number; kept: number; total: number }) =>
    cut.kept === 0
      ? `the range's patch (${cut.bytes} bytes) is too large to send; the reviewer gets the changed paths only`
      : `the range's patch (${cut.bytes} bytes) is too large to send whole; the reviewer gets the lines of ` +
        `${cut.kept} of its ${cut.total} files, the largest by path only`,
  resultRejected: (worker: string) => `rejected the result of worker '${worker}'; nothing was imported`,
  hintResultFileEmpty: (file: string) =>
    `${file} is empty: import takes the result document the worker printed on stdout`,
  hintStrayInFile: (file: string, text: string, line: number) =>
    `${file} holds "${text}" (line ${line}), which is no part of a result: import takes the result document alone, as the worker printed it on stdout`,
  hintWorkerPrintedNothing: (worker: string) =>
    `the worker printed nothing on stdout: its command must run git-review-remote worker (git config review-remote.${worker}.command)`,
  commentsDropped: (worker: string, count: number, kept: number) =>
    `dropped ${plural(count, "invalid comment")} of worker '${worker}'; ${kept > 0 ? "the others were imported" : "it sent no others"}`,
  commentsOverLimit: (worker: string, count: number) =>
    `dropped ${plural(count, "comment")} of worker '${worker}' over the limit; the most severe were kept`,
  proposalsDropped: (worker: string, count: number | undefined) =>
    `dropped ${count === undefined ? "the proposals" : `the ${plural(count, "proposed commit")}`} of worker '${worker}' over a limit; its comments were imported`,
  hintNarrowReview:
    "review less at once: a shorter range, or a pathspec (git review-remote <base>..<head> -- <path>...)",
  hintRaiseLimit: (limit: RaisableLimit) =>
    `or raise the limit: git config ${RAISABLE_LIMITS[limit]} <n> (at most ${LIMIT_CEILINGS[limit]}; the policy file's limits still apply)`,
  proposalsOutsideChange: (fixes: number, files: number) =>
    `${plural(fixes, "fix", "fixes")} in ${plural(files, "file")} outside the change left out (--filter-mode=nofilter keeps them)`,
  proposalsOutsideChangeShort: (fixes: number) =>
    `${plural(fixes, "fix", "fixes")} outside the change left out`,
  nothingToProposeInChange: "Nothing to propose in the change.",
  wholeSummary: (id: string) => `The worker's whole summary: git review-remote show ${id}`,
  wholeSummaryOf: (worker: string, id: string) =>
    `The whole summary of worker '${worker}': git review-remote show ${id}`,
  scopedCommitNote: (kept: number, total: number) =>
    `Kept to the reviewed change: ${kept} of the ${total} files this commit changed (--filter-mode=nofilter keeps them all).`,
  proposalsRejected: (worker: string) => `rejected the proposals of worker '${worker}'; nothing was imported`,
  workerReportedFailure: (worker: string, reason: string) =>
    `worker '${worker}' reported a failure: ${reason}`,
  hintPushMoreTime: "give the push's reviews more time: git config review-remote.prePushTimeout <seconds>",
  hintPushWholeTree: (remote: string) =>
    `no commit of '${remote}' is known here to start from, so the whole tree was reviewed (git fetch ${remote} gives later pushes a base)`,
  pushInterrupted: "interrupted; nothing was imported, and the push stops",
  interruptedNothingImported: "interrupted; nothing was imported",
  unknownHook: (name: string) => `unknown hook '${name}': only pre-push is supported`,
  hookWaitingOnTerminal:
    "waiting for git's ref updates on stdin: git push runs this from its pre-push hook (git review-remote install-hook installs it; Ctrl-D ends this)",
  hookNeedsName: "hook needs the hook's name: git review-remote hook pre-push <remote> <url>",
  hintHookNeedsName: "git runs it from its pre-push hook, which git review-remote install-hook installs",
  pushBlocked: "push blocked",
  pushRefusedReviewBranches: "push refused: review branches stay local",
  noStoredRequest: (id: string) => `the store has no readable request and bundle manifest for review ${id}`,
  storedRequestChanged: (requestId: string) =>
    `request.json is not the request this review sent: its digest is not the recorded ${requestId.slice(0, 12)}; it was changed after it was stored`,
  hintRefusalRemembered:
    "answered from the store: this snapshot and policy were refused before (git review-remote --no-cache scans again)",
  hintStrayStdout: (text: string, line: number) =>
    `the worker's stdout holds more than its result: "${text}" (line ${line}); a login script on the worker host (an echo in ~/.bashrc, a motd) or a wrapper printing to stdout does this: the result must be alone there (print the rest to stderr, shown as remote: lines)`,
  hintListReviewedChange: (range: string) =>
    `git review-remote with no revision reviews the change ${range}, whose patch leaves too (removed lines included, scanned as well): git review-remote export --list ${range} lists it`,
  hintRejectionRemembered:
    "answered from the store: this worker's result for the same request was rejected before (--no-cache asks again)",
  hintReviewAgain: "run the review again: git review-remote --no-cache",
  nothingToImportInto: (id: string, state: string) =>
    `review ${id} is ${state}: its worker answered, so it takes no other answer`,
  hintStillAwaiting: (id: string) =>
    `review ${id} still waits for its answer: nothing of this file was kept, and the right one can be imported`,
  hintAnswersOther: (other: string, file: string) =>
    `this file answers review ${other}: git review-remote import ${file} --request ${other}`,
  hintImportable:
    "import answers a review whose worker was not reached or timed out; run the review again for a new one",
  snapshotGone: (commit: string, id: string) =>
    `the snapshot ${commit} of review ${id} is not in this repository`,
  hintSnapshotGone: "a work-tree snapshot exists only during its review: run the review again",
  importNeedsRequest: "import needs --request <id>: the review the result answers",
  cannotRead: (file: string, reason: string) => `cannot read ${file}: ${reason}`,
  gitConfigUnreadable: (reason: string) => `cannot read the git config: ${reason}`,
  hooksThroughHusky: "this repository runs its hooks through husky",
  huskyNotSetUp:
    "this repository has .husky/: once husky is set up (an npm install runs it), git runs its hooks from there and not this one",
  huskyScriptNotRun: (script: string) =>
    `this repository's package.json sets husky up (its ${script} script, which an npm install runs): git then runs its hooks from .husky/ and not this one`,
  simpleGitHooksRemoves:
    "this repository's simple-git-hooks deletes the hooks its configuration does not name when it installs (an npm install runs it), this one included",
  hintSimpleGitHooks:
    'keep it: add "preserveUnused": ["pre-push"] to the "simple-git-hooks" configuration, or name it there: "pre-push": "git review-remote hook pre-push \\"$@\\""',
  hintHuskyLine: 'add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"',
  hookInstalled: (how: "installed" | "updated" | "unchanged" | "husky" | "huskyConfig", path: string) =>
    how === "husky"
      ? `${path} runs git review-remote hook pre-push already; husky runs it`
      : how === "huskyConfig"
        ? `husky's pre-push (${path}) runs git review-remote hook pre-push already, as its configuration says`
        : how === "unchanged"
          ? `The pre-push hook in ${path} is up to date`
          : `${how === "updated" ? "Updated" : "Installed"} the pre-push hook in ${path}`,
  hookUntracked: (hook: string, dir: string) =>
    `${hook} is untracked in ${dir}, a hooks directory this repository tracks: git status lists it`,
  hintHookKeepLocal: (line: string, exclude: string) => `keep it to this clone: echo ${line} >> ${exclude}`,
  hintHookShare: (hook: string) =>
    `or share it (every clone then needs git-review-remote to push): git add ${hook} && git commit`,
  hookNotOurs: (path: string) => `${path} exists and is not ours; leaving it as it is`,
  hooksPathShared: (file: string) =>
    `core.hooksPath is set in ${file}, not in this repository: the hook runs on every push of every repository that uses it`,
  hintPrePushOffHere:
    "in a repository it should leave alone: git config review-remote.prePush off (or give that repository a core.hooksPath of its own)",
  workTreeWithoutHook: (tree: string) =>
    `core.hooksPath is relative: the linked work tree ${tree} runs the pre-push of its own checkout, which does not run the review`,
  hintInstallHookThere: (tree: string) => `install it there too: git -C ${tree} review-remote install-hook`,
  hookIsOldHusky: (path: string) =>
    `${path} is husky's (husky 4 or older), which its next install rewrites: a line added there would not last; leaving it as it is`,
  hintOldHuskyForce:
    "husky runs no pre-push here and keeps a hook it did not write: replace it: git review-remote install-hook --force",
  hintOldHuskyConfigured:
    'husky runs a pre-push here: add to its command (package.json\'s "husky" hooks, or .huskyrc): && printf \'%s\\n\' "$HUSKY_GIT_STDIN" | git review-remote hook pre-push $HUSKY_GIT_PARAMS',
  hintHookLine: 'add this line to it: git review-remote hook pre-push "$@" || exit $?',
  hintHookForce: "or replace it: git review-remote install-hook --force",
  hintHookForceTracked:
    "the repository tracks it: replacing it (install-hook --force) changes the hook of every clone once committed",
  interruptedBeforeSend: "interrupted; the worker was not contacted",
  workerTimedOut: (worker: string, seconds: number, setting: string) =>
    `worker '${worker}' did not answer within ${seconds} s (${setting}); it was stopped`,
  timeoutSetting: "review-remote.timeout",
  timeoutFlag: "--timeout",
  timeoutPolicySetting: "the policy's limits.timeoutSeconds",
  hintMoreTime:
    "give the worker more time: --timeout <seconds> for one review, or git config review-remote.timeout <seconds> (the policy's limits.timeoutSeconds caps both)",
  /** A reviewer's whole-document report (SARIF, rdjson) over the worker's limit: usually a whole tree linted. */
  hintReportTooLarge:
    'lint less: in a focused review give the tool the changed files alone, listed in "$REVIEW_REMOTE_CHANGED" (xargs -0 -r <tool> ... -- < "$REVIEW_REMOTE_CHANGED"; see REVIEWERS in git review-remote --help), or have it report rdjsonl, read line by line',
  /** The same for a push's review: the hook takes no flags, so only the config applies. */
  hintMoreTimeInHook:
    "give the worker more time: git config review-remote.timeout <seconds> (the policy's limits.timeoutSeconds caps it)",
  pushReviewTimedOut: (seconds: number) =>
    `timed out after ${seconds} s (review-remote.prePushTimeout); the worker was stopped and nothing was imported`,
  interruptedWorkerStopped: "interrupted; the worker was stopped and nothing was imported",
  resultFileTooLarge: (file: string, max: number) =>
    `${file} holds more than ${max} bytes, the review's limits.maxResultBytes; nothing was imported`,
  resultTooLarge: (worker: string, bytes: number) =>
    `rejected the result of worker '${worker}': it sent more than ${bytes} bytes (limits.maxResultBytes); nothing was imported`,
  workerNotStarted: (reason: string) => `cannot start the worker: ${reason}`,
  workerExited: (worker: string, how: string) => `worker '${worker}' ${how}`,
  hintInstallGitWorker:
    "git found no git-review-remote on the PATH the worker's command runs with: install the worker there (npm install -g git-review-remote), or give its full path instead of git review-remote",
  /** `probe`: the worker's own ssh with `true` for its command, else `ssh <host> true`. */
  hintSshHostKey: (probe = "ssh <host> true") =>
    `ssh cannot ask whether to trust the host's key here (the worker's command runs without a terminal): connect once by hand (${probe}) to accept it`,
  hintSshNoPrompt: (probe = "ssh <host> true") =>
    `ssh cannot ask for a password or a key's passphrase here (the worker's command runs without a terminal): use a key the host accepts, in ssh-agent if it has a passphrase; ${probe} tries it`,
  hintCheckWorkerCommand: (worker: string) => `check the command: git config review-remote.${worker}.command`,
  hintImportAwaiting: (id: string) =>
    `a result of this review that reaches you some other way can still be imported: git review-remote import <result.json> --request ${id}`,
  hintInstallWorker:
    'exit 127 is a shell\'s "command not found": install the worker where it runs (npm install -g git-review-remote), or give its full path',
  branchNotCreated: (branch: string, reason: string) => `cannot create branch ${branch}: ${reason}`,
  unexpectedArchiveEntry: (type: string, path: string) => `unexpected ${type} entry in the archive: ${path}`,
  tooManyArguments: (command: string, words: string) => `too many arguments for ${command}: ${words}`,
  emptyQuestion: "-m, --question is empty",
  badQuestion: (problem: string) => `the question ${problem}: a reviewer gets it in its environment`,
  hintBadQuestion:
    "ask it shorter and without NUL characters, with -m, review-remote.question or the policy file's question",
  hintEmptyQuestion:
    "ask something (git review-remote -m 'Is the retry loop correct?'), or leave -m out for the default question",
  needsReviewId: (command: string) => `${command} needs a review id`,
  hintListReviews: "list reviews with: git review-remote list",
  importNeedsFile: "import needs the result file: git review-remote import <result.json> --request <id>",
  noReviewsYet: "No reviews yet. Start one with: git review-remote",
  // A bare repository (or the inside of a git dir) cannot review: a work tree of it can.
  noReviewsYetBare:
    "No reviews yet. A review runs in a work tree: git worktree add <dir> <branch>, then git -C <dir> review-remote",
  noSuchReview: (prefix: string) => `no review matches '${prefix}'`,
  ambiguousReview: (prefix: string) => `more than one review matches '${prefix}'`,
  dropFailed: (id: string, reason: string) => `cannot drop review ${id}: ${reason}`,
  hintBranchMoved: (branch: string | undefined) =>
    `the branch ${branch} has moved since the review; delete it yourself with: git branch -D ${branch}`,
  anotherRunning: (who: string) => `another git-review-remote is running (${who})`,
  hintAnotherRunning: (lock: string) =>
    `try again when it has finished; if no git-review-remote is running, remove ${lock}`,
  reviewInterrupted: (pid: number) =>
    `interrupted: the git-review-remote process (pid ${pid}) that sent it ended before the answer`,
  stillWaiting: (id: string, pid: number) =>
    `review ${id} is still waiting for its worker (pid ${pid}); nothing was imported`,
  undoNotRecorded: (ref: string, reason: string) => `cannot record the undo point ${ref}: ${reason}`,
  dirtyWorkTree: "your work tree has uncommitted changes to files the merge writes; it would mix them in",
  stagedChanges:
    "your index has staged changes; the merge commit would take them in, and its undo unstage them",
  hintStash: "commit or stash them first (git stash), then run the merge again",
  moreUncommitted: (count: number) => `and ${count} more (git status lists them)`,
  mergeTreeFailed: (reason: string) => `git merge-tree failed: ${reason}`,
  noHeadToMergeInto: "HEAD has no commit to merge the proposals into",
  conflictWithHead: (id: string) => `the proposals of review ${id} conflict with HEAD; nothing was changed`,
  snapshotNotInHead: (id: string, commit: string) =>
    `review ${id} is of commit ${commit}, which HEAD does not contain: merging would bring it in too, with its history; nothing was changed`,
  hintMergeInCheckout: (command: string) => `merge it in the work tree that has it checked out: ${command}`,
  hintMergeOnReviewedBranch: (commit: string) =>
    `merge it on the branch it reviewed (git branch --contains ${commit} lists them)`,
  hintCherryPickProposals: (commit: string, tip: string) =>
    `or take the proposals alone: git cherry-pick ${commit}..${tip}`,
  hintInspectRange: (range: string) => `inspect them with: git diff ${range}`,
  hintMergeByHand: (branch: string | undefined) => `or merge by hand: git merge ${branch}`,
  mergeFailed: (reason: string) => `git merge failed: ${reason}; nothing was changed`,
  branchCheckedOut: (branch: string, worktree: string) =>
    `branch ${branch} is checked out in ${worktree}; nothing was changed`,
  hintSwitchAway: (git: string) =>
    `switch that work tree to another branch first (${git} switch -), then run the command again`,
  keptCheckedOutBranch: (branch: string) => `kept branch ${branch}: it is checked out`,
  importFilterAsked: (mode: string) => `Filtered with --filter-mode=${mode}, as the review was asked for`,
  importFilterConfig: (mode: string) =>
    `Filtered with --filter-mode=${mode} (review-remote.filterMode: this review's own mode was not recorded)`,
  noIdentity: (role: "author" | "committer") =>
    `the merge commit needs your name and email, and git knows no ${role}: neither user.name and user.email in its config nor GIT_${role.toUpperCase()}_NAME and GIT_${role.toUpperCase()}_EMAIL in the environment; nothing was changed`,
  hintSetIdentity:
    'tell git who you are, then merge again: git config --global user.name "Your Name"; git config --global user.email you@example.com (a CI job can export GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL instead)',
  mergeFailedHalfway: (reason: string) =>
    `git merge failed: ${reason}; the index or the work tree may hold part of the merge`,
  mergeInterruptedHalfway:
    "interrupted during git merge; the index or the work tree may hold part of the merge",
  hintUndoMerge: (undo: string) => `to restore them: ${undo}`,
  /**
   * How to get a deleted review branch back, in the one wording drop, merge and prune print; `unkept`:
   * nothing else keeps its commits (a dropped review, a work-tree merge's proposals).
   */
  restoreBranch: (branch: string, tip: string, unkept: boolean) =>
    `${unkept ? "the commits stay reachable until git gc; " : ""}to restore it: git branch ${branch} ${tip}`,
  nothingToMerge: (id: string, state: string) => `review ${id} has no proposals to merge (${state})`,
  hintRestoreDropped: (branch: string, tip: string) =>
    `to merge it after all, restore its branch first: git branch ${branch} ${tip}`,
  unexpectedChange: (status: string, path: string) => `unexpected change ${status} to ${path}`,
  changedDuringMerge: (path: string) => `${path} changed while the merge ran; nothing was changed`,
  hintMergeAgain: "run the merge again",
  conflictWithWorkTree: (id: string) =>
    `the proposals of review ${id} conflict with your work tree; nothing was changed`,
  conflictInOtherWorkTree: (id: string, made: string, here: string) =>
    `review ${id} is of the uncommitted changes in ${made}, which this work tree (${here}) does not hold, and its proposals conflict here; nothing was changed`,
  hintMergeInWorkTree: (command: string) => `merge it where it was made: ${command}`,
  hintApplyByHand: "and apply by hand what you want to keep",
  workTreeUnwritable: (reason: string, id: string, done: number, total: number) =>
    `cannot write the work tree: ${reason}; the merge of review ${id} stopped after ${done} of ${plural(total, "file")}, each either as it was or as merged`,
  mergeInterrupted: (id: string, done: number, total: number) =>
    `interrupted: the merge of review ${id} stopped after ${done} of ${plural(total, "file")}, each either as it was or as merged`,
  interruptedNothingChanged: "interrupted; nothing was changed",
  hintMergeAbort: (id: string, git = "git") => `to roll back: ${git} review-remote merge --abort ${id}`,
  hintMergeContinue: (id: string, git = "git") => `to finish: ${git} review-remote merge --continue ${id}`,
  changedSinceMerge: (id: string) =>
    `files of review ${id} changed since its merge wrote them; nothing was changed`,
  // Committing would not help: the files' bytes must be on one side of the merge for it to go on.
  hintChangedSinceMerge:
    "make each of those files hold what the merge wrote (or what it held before), keeping your edits elsewhere, then run the command again",
  mergePending: (id: string, top: string, action: string) =>
    `the ${action === "abort" ? "undo of the merge" : "merge"} of review ${id} into ${top} was interrupted; each file is either as it was or as merged`,
  abortOrContinue: "--abort and --continue cannot be used together",
  listWithOutput: "--list and -o, --output cannot be used together: --list writes no bundle",
  noMergeToUndo: (id: string) => `review ${id} has no work-tree merge to undo`,
  hintUndoCommitMerge: (previous: string) => `a merge into HEAD is undone with: git reset --keep ${previous}`,
  noMergeToContinue: (id: string) => `review ${id} has no interrupted merge to finish`,
  badTimeout: (given: string, max: number) =>
    `--timeout must be a number of seconds from 1 to ${max}, not '${given}'`,
  badFailLevel: (level: string) => `--fail-level must be none, error, warning or info, not '${level}'`,
  findingsAtFailLevel: (count: number, level: string) =>
    `${plural(count, "finding")} at or above ${level} (fail level ${level})`,
  badFilterMode: (mode: string) =>
    `--filter-mode must be added, diff_context, file or nofilter, not '${mode}'`,
  badExpire: (value: string) =>
    `--expire must be now, never, an age (2.weeks.ago) or a date (2026-11-01), not '${value}'`,
  expireExpected: "now, never, an age (2.weeks.ago) or a date (2026-11-01)",
  pruneStopped: (left: number, what: "bundle" | "review's answer") =>
    `prune stopped: ${left} more ${left === 1 ? `${what} was` : `${what === "bundle" ? "bundles" : "reviews' answers"} were`} left as they were`,
  hintOpenBundlesKept: (what: string, count: number, includeOpen: boolean) =>
    includeOpen
      ? `${what} ${count === 1 ? "stays" : "stay"}: its git-review-remote is still sending or waiting`
      : `${what} ${count === 1 ? "stays" : "stay"} past the expiry while their reviews are open (git review-remote list); prune --include-open removes them too`,
  hintPruneAgain: "fix the cause, then run git review-remote prune again: it takes up where it stopped",
  bundlePruned: (sha256: string, time: string) =>
    `bundle ${sha256} was pruned from the store on ${time} (git review-remote prune); its audit line and manifest stay`,
  bundlesPruned: (count: number) =>
    `${count} sent ${count === 1 ? "bundle was" : "bundles were"} pruned (git review-remote prune): not in the store, as recorded`,
  unknownHelpTopic: (topic: string) => `no help on '${topic}': help takes one command's name`,
  badShowFormat: (format: string) => `--format must be text, json or sarif, not '${format}'`,
  jsonWithFormat: (format: string) => `--json and --format=${format} cannot be used together`,
  bundlesFailedVerification: (count: number) =>
    `${count} ${count === 1 ? "bundle" : "bundles"} failed verification`,
  unknownOption: (option: string) => `unknown option '${option}'`,
  optionNeedsValue: (option: string) => `option '${option}' needs a value`,
  signKeyMissing: (file: string) => `signing key ${file} does not exist`,
  signKeyUnreadable: (file: string, reason: string) => `cannot read signing key ${file}: ${reason}`,
  signKeyInvalid: (file: string) => `signing key ${file} is not a key ssh-keygen can use`,
  signKeyNoPrivateHalf: (file: string) =>
    `no private key for ${file}: it is neither beside it nor loaded in ssh-agent`,
  hintSignKeyAgent:
    "load it with `ssh-add <private key>` (SSH_AUTH_SOCK must reach that agent), or pass the private key file",
  signKeyPassphrase: (file: string) =>
    `signing key ${file} is protected by a passphrase, and nothing can type it here`,
  hintSignKeyPassphrase: (file: string) =>
    `load it into ssh-agent (ssh-add ${file}) and pass its public key file: --sign-key ${file}.pub`,
  signKeyTooOpen: (file: string) => `ssh-keygen ignores signing key ${file}: others can read it`,
  hintSignKeyTooOpen: (file: string) => `chmod 600 ${file}`,
  sshKeygenMissing: "ssh-keygen was not found in PATH",
  hintSshKeygenMissing: "install OpenSSH's client tools (Debian and Ubuntu: apt-get install openssh-client)",
  sshKeygenTimedOut: (operation: string, seconds: number) =>
    `ssh-keygen -Y ${operation} did not finish within ${seconds} s`,
  sshKeygenFailed: (operation: string, reason: string) => `ssh-keygen -Y ${operation} failed: ${reason}`,
  allowedSignersUnreadable: (file: string, reason: string) =>
    `cannot read allowed signers file ${file}: ${reason}`,
  hintAllowedSigners:
    'one line per key, as for git\'s gpg.ssh.allowedSignersFile: "<worker name> ssh-ed25519 AAAA..."',
  receiptGood: (principal: string, key: string) => `Good signature from worker "${principal}" with ${key}`,
  receiptUnsigned: (principal: string) => `the result of worker '${principal}' carries no signed receipt`,
  receiptTooLarge: (part: string, bytes: number, max: number) =>
    `the receipt's ${part} is ${bytes} bytes, over the limit of ${max}`,
  receiptNotArmored: "the receipt's signature is not an armored SSH signature",
  receiptBadSignature: (reason: string) => `the receipt's signature does not verify: ${reason}`,
  receiptKeyNotAllowed: (principal: string, key: string) =>
    `the receipt is signed with ${key}, which is not an allowed signer for worker '${principal}'`,
  signerKey: (keyType: string, fingerprint: string) => `${keyType} key ${fingerprint}`,
  unnamedKey: "a key",
  receiptKeyRefused: (principal: string, reason: string) =>
    `the receipt's key is not accepted for worker '${principal}': ${reason}`,
  receiptBadStatement: (problem: string) => `the receipt's statement is not valid: ${problem}`,
  receiptSubjectMismatch: (subject: string, expected: string) =>
    `the receipt is about another ${subject}: it does not name ${expected}`,
  receiptResultMismatch:
    "the result differs from the one the receipt vouches for: it was changed after signing",
  storedResultChanged:
    "result.json, which show reads, is not the signed result: it was changed after it was stored",
  storedResultUnchecked:
    "result.json, which show reads, cannot be checked against the signed result: the stored request or the bundle's manifest is gone",
  receiptWorkerMismatch: "the receipt names another worker program than the result does",
  receiptRejected: (principal: string) =>
    `rejected the result of worker '${principal}': it has no valid receipt; nothing was imported`,
  hintReceiptRequired: (principal: string) =>
    `the worker must sign its results (${principal === "local" ? "the local worker signs with the key REVIEW_REMOTE_SIGN_KEY names" : "git review-remote worker --sign-key <key>"}), or set review-remote.${principal}.requireSignature false`,
  signatureRequiredWithoutSigners: (worker: string) =>
    `review-remote.${worker}.requireSignature is true, but no allowed signers file is configured for worker '${worker}'`,
  hintConfigureAllowedSigners: (worker: string) =>
    `name one: git config review-remote.${worker}.allowedSigners <file> (or review-remote.allowedSigners for every worker)`,
  receiptUnverified: (principal: string) =>
    `signed, not verified: no allowed signers file is configured for worker '${principal}'`,
  noAllowedSigners: (worker: string) => `no allowed signers file is configured for worker '${worker}'`,
  noReceipt: (id: string) => `review ${id} has no stored receipt: its result was not signed`,
  noReceiptRefusedFirst: (id: string) =>
    `review ${id} has no stored receipt: its result was refused before its receipt was checked`,
  noReceiptRefused: (id: string, reason: string) =>
    `review ${id} has no stored receipt: its receipt was refused when the result arrived (${reason})`,
  receiptNotVerified: (id: string) => `the receipt of review ${id} does not verify`,
  hintRepeatVerify: (command: string) => `check the signature alone with: ${command}`,
  receiptsFailedVerification: (count: number) =>
    `${count} stored ${count === 1 ? "receipt" : "receipts"} failed verification`,
  internalError: "internal error: this is a bug in git-review-remote; please report it with the output above",
  hintHelp: "see 'git review-remote -h'",
  hintCommandHelp: (command: string) => `see 'git review-remote ${command} -h'`,
} as const;
