// Every user-facing sentence lives here, so wording stays consistent and reviewable in one place.

export const messages = {
  notARepository: (cwd: string) => `not a git repository: ${cwd}`,
  hintNotARepository:
    "run this inside a git work tree, or pass --git-dir: git --git-dir=<path> review-remote",
  needsWorkTree: "this command needs a work tree (the repository is bare)",
  emptyRepository: "the repository has no commits yet",
  hintEmptyRepository: "commit something first, or review uncommitted files with --worktree",
  unknownRevision: (rev: string) => `unknown revision: ${rev}`,
  hintUnknownRevision: "name a commit, branch or tag: git review-remote export HEAD~1",
  pathspecNoMatch: (spec: string) => `pathspec '${spec}' did not match any file in the snapshot`,
  hintPathspec: "pathspecs are relative to the current directory; check `git ls-files`",
  nothingToExport: "nothing would leave: every file was excluded",
  hintNothingToExport: "run `git review-remote export --list` to see why each file stays",
  policyInvalidJson: (file: string, reason: string) => `${file}: not valid JSON: ${reason}`,
  policyInvalid: (file: string) => `invalid policy file ${file}`,
  hintPolicy: "see the policy file section of `git review-remote --help`",
  configInvalid: (key: string, value: string, expected: string) =>
    `bad config value '${value}' for ${key}: expected ${expected}`,
  storeUnwritable: (dir: string, reason: string) => `cannot write to the store ${dir}: ${reason}`,
  hintStoreUnwritable: "free some disk space or fix the permissions of the git directory, then retry",
  outputUnwritable: (file: string, reason: string) => `cannot write ${file}: ${reason}`,
  secretNameInBundle: (path: string, rule: string) =>
    `refusing to export ${path}: it matches the secret name rule ${rule}`,
  secretsFound: (count: number) =>
    `export refused: ${count} possible secret${count === 1 ? "" : "s"} found; nothing was stored or sent`,
  hintSecretsExclude: 'keep the file out with an "exclude" glob in .review-remote.json,',
  hintSecretsAllow:
    'or, for a false positive, add {"fingerprint": "<fp>"} to secrets.allow there, or "review-remote:allow" on the line',
  symmetricRange: (spec: string) => `symmetric ranges are not supported: ${spec}`,
  hintRange: "name a range as <base>..<head>, e.g. git review-remote main..HEAD",
  unknownWorker: (name: string) => `no worker named '${name}' is configured`,
  hintConfigureWorker: (name: string) =>
    `configure it with: git config review-remote.${name}.command 'ssh <host> git-review-remote worker'`,
  rangePatchTooLarge: (bytes: number) =>
    `the range's patch (${bytes} bytes) is too large to send; the reviewer gets the changed paths only`,
  resultRejected: (worker: string) => `rejected the result of worker '${worker}'; nothing was imported`,
  proposalsRejected: (worker: string) => `rejected the proposals of worker '${worker}'; nothing was imported`,
  workerReportedFailure: (worker: string, reason: string) =>
    `worker '${worker}' reported a failure: ${reason}`,
  interruptedNothingImported: "interrupted; nothing was imported",
  unknownHook: (name: string) => `unknown hook '${name}': only pre-push is supported`,
  pushBlocked: "push blocked",
  noStoredRequest: (id: string) => `the store has no readable request and bundle manifest for review ${id}`,
  hintReviewAgain: "run the review again: git review-remote --no-cache",
  nothingToImportInto: (id: string, state: string) =>
    `review ${id} is ${state}: there is nothing to import into`,
  hintImportable:
    "import answers a review whose worker failed or was not reached; see git review-remote list",
  snapshotGone: (commit: string, id: string) =>
    `the snapshot ${commit} of review ${id} is not in this repository`,
  hintSnapshotGone: "a work-tree snapshot exists only during its review: run the review again",
  importNeedsRequest: "import needs --request <id>: the review the result answers",
  cannotRead: (file: string, reason: string) => `cannot read ${file}: ${reason}`,
  internalError: "internal error: this is a bug in git-review-remote; please report it with the output above",
  unknownCommand: (name: string) => `'${name}' is not a git review-remote command`,
  hintHelp: "see 'git review-remote -h'",
} as const;
