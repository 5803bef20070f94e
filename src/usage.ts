// The `-h` texts. The man page (man/git-review-remote.1) says the same at length.

export const USAGE = `usage: git review-remote [<rev> | <base>..<head>] [--all] [--worktree]
                         [-m <question>] [--worker <name>]...
                         [--filter-mode <mode>] [--fail-level <level>]
                         [--no-cache] [--timeout <seconds>] [--json] [-q]
                         [-- <pathspec>...]
   or: git review-remote <command> [<args>]
   or: git review-remote --version

Review a change on a worker you do not have to trust (by default what HEAD is
about to share): the commit leaves as a secret-free bundle, the proposals come
back as a local branch review/<id>.

Commands:
  export        build, scan and store the bundle; --list shows what would leave
  list          reviews in the store
  show <id>     summary, comments and proposals of a review
                (--format=json|sarif)
  merge <id>    merge the proposals into the current branch, then delete
                the review branch (the record stays); --abort / --continue
                a work-tree merge
  drop <id>     delete the review branch; the record stays
  prune         delete the branches of done reviews, the old bundles they sent
                and their old stored answers
  import <file> --request <id>
                import a result fetched out of band
  verify <id>   check a review's signed receipt again; print the ssh-keygen
                command
  audit         what left this machine, when, and to which worker (--verify)
  install-hook  install the pre-push hook where git looks for hooks
  hook pre-push <remote> <url>
                what the pre-push hook runs
  worker        the worker side: envelope on stdin, result on stdout

Run 'git review-remote <command> -h' (or 'help <command>') for a command's
options, and 'git review-remote --help' or '<command> --help' for the manual.
Reviews need a work tree: a bare repository is refused.`;

const REVIEW = `usage: git review-remote [<rev> | <base>..<head>] [<options>] [-- <pathspec>...]

Send the change to the worker, validate the result and import the proposals
as branch review/<id>. The bundle holds the whole tree (the reviewer needs the
context); the review focuses on the change:
  (no revision)     what HEAD is about to share: the commits ahead of its
                    upstream, else the last commit (HEAD^..HEAD), else (a
                    root commit) the whole tree; uncommitted edits are not
                    in it (a hint says so: --worktree reviews them)
  <rev>             that commit's change against its first parent
  <base>..<head>    the changes between <base> and <head> (refused when both
                    name one commit: it changes nothing)
  <a>...<head>      what <head> changed since it forked from <a> (their merge
                    base), as git diff <a>...<head> shows

    --all               review the whole tree of <rev> (default HEAD), not a
                        change
    --worktree          review the uncommitted changes (tracked, and untracked
                        files that are not ignored; not a repository inside the
                        work tree) against HEAD, refused when none would leave;
                        with --all, the whole work tree
    -m, --question <text>
                        what to ask the reviewer (not empty, at most 64 KiB,
                        no NUL)
    --worker <name>     the worker to use (repeat to ask several at once);
                        default: review-remote.worker (a name, not a
                        command), or 'local'; its command
                        (review-remote.<name>.command) gets $REVIEW_REMOTE_ID
    --filter-mode <mode>
                        which comments to show (review-remote.filterMode):
                        added (default: on lines the change added),
                        diff_context (within its hunks), file (in changed
                        files), nofilter; the review counts the comments
                        shown (each path as git prints paths, quoted when
                        core.quotePath says), and those outside the change
                        apart (kept);
                        fixes to files the change did not touch are left
                        out of the branch, but for nofilter, and a commit
                        kept to some files is named after what it keeps
    --fail-level <level>
                        exit 7 when a finding shown is at or above <level>
                        (review-remote.failLevel): none (default), error,
                        warning or info
    --no-cache          ask the worker even if this snapshot was reviewed,
                        and build and scan the export again
    --timeout <seconds> what a worker may take, its answer included, from the
                        moment the request starts going to it; then it is
                        stopped, exit 3 (default: review-remote.timeout, 900)
    --json              print one JSON document on stdout
    -q, --quiet         no progress, no remote: lines, no advice hints; the
                        report, errors and warnings still print
    -- <pathspec>...    send only the matching paths`;

const COMMAND_USAGE: Record<string, string> = {
  review: REVIEW,
  export: `usage: git review-remote export [<rev> | <base>..<head>] [--worktree]
                                [--list] [--json] [-o <file>] [-q]
                                [-- <pathspec>...]

Build the bundle for <rev> (default HEAD) and store it under
$(git rev-parse --git-common-dir)/review-remote/bundles/<sha256>.tar.gz.
A range (<base>..<head>, or <a>...<head>) builds the bundle a review of that
range sends: the tree of <head> and the change's paths and patch, scanned too.
Secret files are kept back by name, and the export stops (exit 6) when the
content scan finds a credential.

    --worktree        snapshot the work tree (tracked changes and untracked,
                      not ignored files; not a repository inside it) instead
                      of a commit; no <rev> with it
    --list            show what would leave and what stays, and why, and what
                      an allow lets through; store nothing (so no -o with
                      it); exit 6 when the content scan would stop it, 1
                      when no file would leave (with no revision: HEAD's
                      tree, and a hint at the change a review sends too);
                      paths as git prints them (quoted when core.quotePath
                      says), as they are with --json
    --json            print one JSON document on stdout
    -o, --output <file>
                      also write the bundle to <file>, and print that
                      name in place of the stored bundle's path
    -q, --quiet       print only the result (and errors and warnings): no line
                      that counts the files, no hints
    -- <pathspec>...  export only the matching paths`,
  list: `usage: git review-remote list [--json] [-q]

List the reviews in the store: id, state, worker, snapshot, what was reviewed
(<base>..<head> or the whole tree), branch ("-" once merged, dropped or
pruned), counts (for a failed or rejected review, what went wrong). The state
is sent (waiting for its worker), failed, rejected, imported (proposals on its
branch), empty (no proposals: comments at most), merged or dropped.

    --json       print one JSON document on stdout
    -q, --quiet  accepted, as by every command: the list still prints`,
  show: `usage: git review-remote show <id> [--format=text|json|sarif] [--json]
                              [--filter-mode <mode>] [--all-comments] [-q]

Show a review's counts (as validated: "result 3 comments, 1 proposed commit",
the comments in the change, or all with --all-comments), the worker's summary,
its receipt ("Good signature from worker ..." or "unsigned"), comments and the
stat of each proposed commit, every path as git prints paths (quoted when
core.quotePath says, as the stat is). Comments outside the change are counted,
not shown (by the mode the review was asked for, or --filter-mode);
--all-comments shows them too, marked. Fixes outside the change left out of
the branch are counted. --format=json carries both lists (filter.comments,
filter.hiddenComments) and filter.leftOutFixes and filter.leftOutFiles;
--format=sarif prints SARIF 2.1.0 for code scanning tools, comments outside the
change marked as suppressed. --json is --format=json; another format beside it
is refused. -q, --quiet is accepted, as by every command: the review still
prints.`,
  merge: `usage: git review-remote merge [--abort | --continue] [-q] <id>

Merge the proposals of review <id> into the current branch (uncommitted
changes to other files stay as they are; changes to files it writes, and
staged changes, are refused; exit 5 and no change on conflict). For a
work-tree snapshot, merge them into the work tree file by file (3-way; any
conflict: exit 5, nothing written), each file replaced whole: stopped at any
point (Ctrl-C: exit 130), every file is either as it was or as merged. Prints
how to undo before the first write. Then deletes the branch review/<id> (the
record stays) and prints the command that restores it; a branch with commits
the review did not make is kept.

    --abort      take back a work-tree merge, finished or stopped: every file
                 it wrote gets its exact previous bytes (and the branch is back)
    --continue   finish a work-tree merge that was stopped
    -q, --quiet  print nothing but errors and warnings: not what was merged,
                 nor how to undo it or restore the branch

One git-review-remote writes at a time: a merge, drop, prune or import finding
another running waits 5 s, then exits 1 (another git-review-remote is
running (pid N: <command>)).`,
  prune: `usage: git review-remote prune [-n | --dry-run] [--expire=<date>]
                              [--include-open] [--json] [-q]

Delete the branches of reviews that are done with; the records stay, and each
deleted branch's restore command is printed:
  merged       its proposals are in (merge already deleted the branch; this
               catches one restored by hand)
  dropped      a branch restored by hand after drop
  superseded   an older review of the same target (same worker, snapshot and
               range) once a newer one has answered; it is marked dropped
A branch with commits the review did not make, or checked out in a work tree,
is kept.

Then remove the stored bundles no open review needs, once unused for longer
than the expiry, and print the bytes freed. A bundle stays while a review that
sent it is sent (running or waiting), imported (not merged or dropped), or
failed before its worker answered (its result can still be imported); a hint
says how many stay. Its audit line and manifest stay; audit (and --verify),
verify and show say it was pruned, and an export asked again builds it again.

Then, for merged and dropped reviews unchanged for longer than the expiry,
remove their stored answers (result.json, changes.json, and request.json but
for a signed review); the record stays, with the counts list shows, and says
what went (show: pruned). A review asked again is then asked of its worker.

    -n, --dry-run      say what would be deleted and the bytes it would free;
                       change nothing
    --expire=<date>    remove bundles unused (and answers of done reviews
                       unchanged) since <date>: now, never, an age
                       (2.weeks.ago, 3 days ago) or a date (2026-11-01);
                       default review-remote.pruneExpire, else 2.weeks.ago
    --include-open     remove open reviews' bundles too (but for a review whose
                       git-review-remote is still sending or waiting): they stay
                       mergeable and importable, which needs only the manifest
    --json             print one JSON document on stdout
    -q, --quiet        print nothing but errors and warnings (with -n too, as
                       git clean -n -q); --json still prints its document`,
  drop: `usage: git review-remote drop [-q] <id>

Delete the branch and refs of review <id>; the record stays in the store.

    -q, --quiet  print nothing but errors and warnings: not what was dropped,
                 nor how to restore the branch`,
  import: `usage: git review-remote import <result.json> --request <id>
                                [--fail-level <level>] [--json] [-q]

Validate and import a result document fetched out of band for review <id>,
against the forbidden paths and limits of the request as sent, not the policy
file as it is now. Only a review whose worker was not reached or timed out
takes an answer; a file it rejects (exit 4) leaves the review waiting for
the right one. A focused review's fixes outside its change are left out, or
kept, by the filter mode the review was asked for (--filter-mode, else
review-remote.filterMode then); the first line says which mode applied.

    --fail-level <level>
                      exit 7 when a finding shown is at or above <level>, as
                      for a review (review-remote.failLevel)
    --json            print one JSON document on stdout
    -q, --quiet       no advice hints; the report, errors and warnings still
                      print`,
  audit: `usage: git review-remote audit [--json] [--verify] [-q]

Show every send recorded in audit.jsonl: time, worker and command, request,
bundle sha256, files and bytes. --verify re-checks that each stored bundle
still hashes to its name, and verifies every stored receipt again; exit 1,
naming each, when one does not. -q, --quiet is accepted, as by every command:
the sends still print.`,
  verify: `usage: git review-remote verify <id> [--json] [-q]

Verify the signed receipt stored for review <id> again, against the allowed
signers configured now (review-remote.<worker>.allowedSigners, else
review-remote.allowedSigners), and print the verdict, the statement's digest
(the proposals' Review-Receipt trailer) and the ssh-keygen -Y verify command
that repeats the check on the stored files without this tool; result.json,
which show reads, must be what the signed result gives, and request.json the
request its recorded digest names.
Exit 4 when it does not verify (an edited request.json or result.json too);
1 when the review has no receipt; 2 when no allowed signers file is configured
for its worker. -q, --quiet leaves out the note that the bundle was pruned.`,
  "install-hook": `usage: git review-remote install-hook [--force] [-q]

Install the pre-push hook in $(git rev-parse --git-path hooks), inside marker
lines, and print its path as git prints paths (quoted when core.quotePath says);
an existing hook is kept unless --force. With husky, add the line
git review-remote hook pre-push "$@" to .husky/pre-push instead (once it is
there, install-hook says so; a clone with .husky/ whose husky is not set up yet
gets the hook, and a warning unless .husky/pre-push has the line). Over the
runner of husky 4 or older it refuses: --force replaces it when husky runs no
pre-push; else add the review to husky's pre-push command, as it says. With
simple-git-hooks, which deletes the hooks it does not name, it warns: keep it
with "preserveUnused": ["pre-push"] in its configuration. In a hooks directory
the repository tracks, a hint says the hook is untracked there, and how to keep
it to this clone (.git/info/exclude) or share it (git add). With a relative
core.hooksPath, it warns of each linked work tree whose own copy runs no review
(git -C <that tree> review-remote install-hook installs it there). With a
core.hooksPath from the global or system configuration, it warns that every
repository using it runs the hook (git config review-remote.prePush off in one
leaves it alone). -q, --quiet prints only the warnings (with their hints) and
errors: not where it installed, nor the hints of an untracked hook.`,
  hook: `usage: git review-remote hook pre-push [-q] <remote> <url>

Run by the pre-push hook with git's ref updates on stdin (run by hand on a
terminal, it says that it waits for them). Refuses a push that would publish
the tool's refs (its review branches, refs/heads/review/* or as
review-remote.branchPrefix says, and refs/review-remote/*); deleting one is
allowed. Otherwise it reviews each pushed range and prints one line per ref:
<ref> (<old>..<new>): <outcome>, the comments under it (each path as git
prints paths, core.quotePath deciding).
Honors review-remote.prePush (off|warn|block), prePushTimeout, failClosed and
REVIEW_REMOTE_SKIP=1 (skip the review and the refusal). -q, --quiet leaves out
the advice hints below the lines (a ref reviewed whole, more time).`,
  worker: `usage: git review-remote worker [--reviewer <name>]
                                [--reviewer-command <cmd>
                                 [--reviewer-format <format>]
                                 [--reviewer-fixes all|none]]...
                                [--tools <dir>]... [--network]
                                [--setup-command <cmd> [--setup-network]
                                 [--cache-dir <dir>]]
                                [--sandbox=require|auto|off]
                                [--core-whitespace <rules>]
                                [--sign-key <key file>] [<limits>]

The worker side: reads the envelope (request line, then the bundle) on stdin,
runs the reviewers in a sandbox and writes one result document on stdout (run
by hand on a terminal, it says that it waits for that input).

    --reviewer <name>          built-in reviewer (default: hygiene)
    --reviewer-command <cmd>   run <cmd> through sh -c as a reviewer; repeat it
                               to run several in order, each on the tree the
                               one before left (one proposed commit each)
    --reviewer-format <format> what the --reviewer-command before it reports:
                               comments (default; JSON lines in the files
                               $REVIEW_REMOTE_COMMENTS or $REVIEW_REMOTE_OUTPUT,
                               stdout is progress), or on stdout or in
                               $REVIEW_REMOTE_OUTPUT: sarif, rdjson, rdjsonl or
                               diff (fixes and diffs applied and proposed; an
                               exit 1 with a valid report is no failure; a
                               diff's names with a/ and b/, or as gofmt -d
                               and black --diff write them, without);
                               read up to 32 MiB (sarif and rdjson past it fail)
    --reviewer-fixes all|none  none: the report of the --reviewer-command
                               before it gives comments only, its fixes and
                               diff not applied (biome lint --write and ruff
                               check --fix write their safe fixes; their
                               reports hold the unsafe ones too); all by
                               default
    --tools <dir>              bind <dir> read-only at the same path; its bin/
                               and node_modules/.bin come first on PATH
                               (e.g. npm install --prefix <dir> eslint); as
                               root, where the review-remote account can
                               reach it (not under /root)
    --network                  give the reviewers the network (an agent CLI
                               reaching its model); none by default
    --setup-command <cmd>      run <cmd> in the tree before the reviewers
                               (e.g. npm ci --ignore-scripts); what it adds is
                               never proposed, what it changes is undone
    --setup-network            give the setup command the network
    --cache-dir <dir>          keep what setup added under <dir>/<sha256 of the
                               lockfile and the install config at the top
                               and in the workspaces below it>;
                               the next review of those restores it instead
                               of running setup
    --sandbox <mode>           require: fail without a working sandbox;
                               auto (default): fall back with a warning; off.
                               As root, the sandbox runs as the system user
                               review-remote, created (and said) on first use
    --core-whitespace <rules>  git's core.whitespace for the built-in reviewer
                               (the local worker is given the user's own)
    --sign-key <key file>      sign every result with ssh-keygen -Y sign (a
                               receipt the user checks against allowed signers);
                               a private key, or a public key whose private half
                               ssh-agent holds (default: REVIEW_REMOTE_SIGN_KEY)

Limits of one request (sizes take k, m and g; a reviewer that reaches one is
stopped and the result says which):
    --max-tree-bytes <n>       bytes the reviewer may add to the tree
                               (default 1g)
    --max-files <n>            files it may add to the tree, and to /tmp
                               (default 100000)
    --max-tmp-bytes <n>        its /tmp (default 256m; /dev/shm is 64m)
    --max-processes <n>        its processes and threads at once (default 256)
    --max-seconds <n>          the whole request from its arrival to its answer,
                               whatever it asks (default 3600); the last tenth
                               (1 to 5 s) is kept to answer a failed result

The reviewer runs in the tree (a git repository at the snapshot) with:
  REVIEW_REMOTE_QUESTION       the question
  REVIEW_REMOTE_REQUEST        path of the request JSON
  REVIEW_REMOTE_COMMENTS       path of a JSON Lines file to append comments to
  REVIEW_REMOTE_OUTPUT         path to write the report to, instead of stdout
  REVIEW_REMOTE_SUMMARY        path to write a summary to (it ends the result's)
  REVIEW_REMOTE_CHANGED        path of the changed paths in the tree (not the
                               deleted ones), each ended by NUL: for
                               xargs -0 -r <tool> ... -- (a path may start
                               with -; -- keeps it a file)
  REVIEW_REMOTE_CHANGED_LINES  path of the changed lines, as JSON:
      {"schema": "git-review-remote/changed-lines@1", "base": <oid>,
       "head": <oid>, "complete": true, "files": [{"path": "src/a.ts",
       "added": [[3, 5]], "hunks": [[1, 8]]}]}
    added: the head's lines the change added or changed; hunks: the diff
    hunks with context; [first, last], 1-based. [] for a deleted file;
    null when unknown (a binary file, or with "complete": false a file
    left out of a patch too large to send whole, the largest first). Both
    CHANGED variables are unset in a whole-tree review (--all): the whole tree
    is the change.`,
};

export function commandUsage(name: string): string {
  return COMMAND_USAGE[name] ?? USAGE;
}
