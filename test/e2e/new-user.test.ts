// What a new user meets first: mistyped revisions, a review dropped after its merge, the store and
// the repository left as they were by a refusal.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import {
  BIN,
  createTestRepo,
  createTrailingSpaceRepo,
  repoState,
  repoTracker,
  runUnchanged,
  type TestRepo,
} from "../helpers/repo.js";

const repos = repoTracker();

const committedRepo = (): TestRepo => createTrailingSpaceRepo(repos);

describe("an unknown revision", () => {
  const cases: [string, string[]][] = [
    ["a review", ["no-such-rev"]],
    ["a range review", ["no-such-rev..HEAD"]],
    ["an export", ["export", "no-such-rev"]],
    ["an export listing", ["export", "--list", "no-such-rev"]],
    ["a range's export listing", ["export", "--list", "no-such-rev..HEAD"]],
  ];
  it.each(cases)("in %s is a usage error whose hint fits every command", (_, args) => {
    const repo = committedRepo();
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toBe(
      "git-review-remote: unknown revision: no-such-rev\n" +
        "hint: name a commit, branch or tag, such as HEAD~1 or main (git log --oneline lists commits)\n",
    );
  });
});

/** The processes whose command line or environment names `text`. */
/**
 * The processes naming `text` once those still ending have had time to end: the workspace root's
 * guard, a detached shell that rmdirs the root when its pipe closes, may outlive the client a moment.
 */
async function settledProcessesNaming(text: string): Promise<string[]> {
  for (let i = 0; i < 200 && processesNaming(text).length > 0; i++) await sleep(50);
  return processesNaming(text);
}

function processesNaming(text: string): string[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) =>
      ["cmdline", "environ"].some((file) => {
        try {
          return readFileSync(join("/proc", pid, file), "latin1").includes(text);
        } catch {
          return false; // gone meanwhile, or not ours to read
        }
      }),
    );
}

describe("an unknown revision in a repository without main", () => {
  it("is hinted with a branch the repository has: origin's default, else HEAD's", () => {
    const repo = committedRepo();
    repo.git("branch", "-m", "master");
    const hint = (branch: string) =>
      `hint: name a commit, branch or tag, such as HEAD~1 or ${branch} (git log --oneline lists commits)\n`;
    expect(runUnchanged(repo, ["main..HEAD"], 2).stderr).toContain(hint("master"));
    repo.git("update-ref", "refs/remotes/origin/trunk", "HEAD");
    repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk");
    expect(runUnchanged(repo, ["main..HEAD"], 2).stderr).toContain(hint("origin/trunk"));
  });
});

describe("an unknown revision with the local worker started first", () => {
  it("stops that worker: no output of it, no process, no workspace, the exit code and repo as before", async () => {
    const repo = committedRepo();
    const scratch = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "rr-early-"));
    // The worker's workspaces go here: a worker not stopped, or stopped without its cleanup, leaves one.
    const workspaces = join(scratch, "workspaces");
    mkdirSync(workspaces);
    chmodSync(scratch, 0o755);
    chmodSync(workspaces, 0o755);
    // unshare, which makes the worker's namespaces, says that it ran: the worker did start.
    const shims = join(scratch, "bin");
    const started = join(scratch, "started");
    const real = spawnSync("sh", ["-c", "command -v unshare"], { encoding: "utf8" }).stdout.trim();
    mkdirSync(shims);
    writeFileSync(join(shims, "unshare"), `#!/bin/sh\necho started >> '${started}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    });
    try {
      const env = { REVIEW_REMOTE_WORKER_TMPDIR: workspaces, PATH: `${shims}:${repo.env.PATH}` };
      const result = runUnchanged(repo, ["no-such-rev"], 2, { env });
      expect(result.stderr).toBe(
        "git-review-remote: unknown revision: no-such-rev\n" +
          "hint: name a commit, branch or tag, such as HEAD~1 or main (git log --oneline lists commits)\n",
      );
      expect(result.stdout).toBe("");
      expect(existsSync(started)).toBe(true);
      expect(await settledProcessesNaming(workspaces)).toEqual([]);
      expect(readdirSync(workspaces)).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("drop", () => {
  function reviewed(repo: TestRepo): string {
    const review = repo.run(["--json"]);
    expect(review.status, review.stderr).toBe(0);
    return JSON.parse(review.stdout).id;
  }
  const stateOf = (repo: TestRepo, id: string) =>
    JSON.parse(repo.run(["list", "--json"]).stdout).find((r: { id: string }) => r.id === id).state;

  it("of a merged review keeps it merged, keeps its undo point and deletes no branch it lacks", () => {
    const repo = committedRepo();
    const id = reviewed(repo);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(repo.git("for-each-ref", "--format=%(refname)", `refs/review-remote/${id}/`)).toContain(
      "pre-merge",
    );
    const dropped = runUnchanged(repo, ["drop", id], 0);
    expect(dropped.stdout).toBe(`Review ${id} is merged and has no branch left: nothing to drop.\n`);
    expect(dropped.stderr).toBe("");
    expect(stateOf(repo, id)).toBe("merged");
  });

  it("of a merged review whose branch was restored deletes only the branch", () => {
    const repo = committedRepo();
    const id = reviewed(repo);
    const tip = repo.git("rev-parse", `review/${id}`).trim();
    expect(repo.run(["merge", id]).status).toBe(0);
    repo.git("branch", `review/${id}`, tip);
    const dropped = repo.run(["drop", id]);
    expect(dropped.status, dropped.stderr).toBe(0);
    expect(dropped.stdout).toBe(`Deleted branch review/${id} of review ${id}; the review stays merged.\n`);
    expect(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/review/")).toBe("");
    expect(repo.git("for-each-ref", "--format=%(refname)", `refs/review-remote/${id}/`)).toContain(
      "pre-merge",
    );
    expect(stateOf(repo, id)).toBe("merged");
  });

  it("of a review, then its branch restored as the hint says, lets it merge after all", () => {
    const repo = committedRepo();
    const id = reviewed(repo);
    const tip = repo.git("rev-parse", `review/${id}`).trim();
    expect(repo.run(["drop", id]).status).toBe(0);
    const restore = `git branch review/${id} ${tip}`;
    expect(repo.run(["show", id]).stdout).toContain(
      `branch   review/${id} (deleted; to restore it: ${restore})\n`,
    );
    const refused = runUnchanged(repo, ["merge", id], 1);
    expect(refused.stderr).toBe(
      `git-review-remote: review ${id} has no proposals to merge (dropped)\n` +
        `hint: to merge it after all, restore its branch first: ${restore}\n`,
    );
    repo.git("branch", `review/${id}`, tip);
    expect(repo.run(["show", id]).stdout).toContain(`branch   review/${id}\n`);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(stateOf(repo, id)).toBe("merged");
    expect(repo.git("merge-base", "--is-ancestor", tip, "HEAD")).toBe("");
    expect(repo.run(["show", id]).stdout).toContain(
      `branch   review/${id} (deleted; to restore it: ${restore})\n`,
    );
  });

  it("a second time names no branch it did not delete and says it was dropped already", () => {
    const repo = committedRepo();
    const id = reviewed(repo);
    const first = repo.run(["drop", id]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(`Dropped review ${id}: deleted branch review/${id}.\n`);
    expect(first.stderr).toContain(
      `hint: the commits stay reachable until git gc; to restore it: git branch review/${id} `,
    );
    const again = runUnchanged(repo, ["drop", id], 0);
    expect(again.stdout).toBe(`Review ${id} is dropped already and has no branch left: nothing to drop.\n`);
    expect(again.stderr).toBe("");
    expect(stateOf(repo, id)).toBe("dropped");
  });
});

describe("export --list --worktree", () => {
  it("names the uncommitted files kept back by name, with their rule, and sends none of them", () => {
    const repo = committedRepo();
    repo.write(".review-remote.json", JSON.stringify({ exclude: ["*.sqlite"] }));
    repo.commit("policy");
    repo.write("src/app.ts", "export const a = 2;\n");
    repo.write(".env", "SECRET=abc\n");
    repo.write("config/prod.key", "not a key\n");
    repo.write("data/cache.sqlite", "rows\n");
    repo.write("src/new.ts", "export const b = 1;\n");
    const listed = runUnchanged(repo, ["export", "--list", "--worktree", "--json"], 0);
    const { files, excluded } = JSON.parse(listed.stdout);
    expect(files.map((file: { path: string }) => file.path)).toEqual([
      ".review-remote.json",
      "src/app.ts",
      "src/new.ts",
    ]);
    expect(excluded).toEqual([
      { path: ".env", reason: expect.stringMatching(/^secret name: /) },
      { path: "config/prod.key", reason: expect.stringMatching(/^secret name: /) },
      { path: "data/cache.sqlite", reason: "policy exclude: *.sqlite" },
    ]);
    const text = runUnchanged(repo, ["export", "--list", "--worktree"], 0);
    expect(text.stdout).toMatch(/^Would keep back 3 paths:\n {2}\.env +secret name: /m);
    const exported = repo.run(["export", "--worktree"]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("Exported 3 files");
    expect(exported.stderr).toContain("3 paths kept back");
  });
});

describe("Ctrl-C during the export of a review", () => {
  it("stops with exit 130 and 'interrupted', not a git failure or a bug; the next review works", async () => {
    const repo = committedRepo();
    repo.write("src/app.ts", "export const a = 3;\n");
    // A file-system monitor the user configured: git asks it while it snapshots the work tree. This
    // one says when it is asked, then holds git there, so Ctrl-C lands in the middle of the export.
    const ready = join(repo.home, "asked");
    const monitor = join(repo.home, "fsmonitor");
    writeFileSync(monitor, `#!/bin/sh\n[ -z "$HOLD" ] && exit 1\ntouch '${ready}'\nexec sleep 60\n`, {
      mode: 0o755,
    });
    repo.git("config", "core.fsmonitor", monitor);
    const before = repoState(repo);
    // Ctrl-C signals the terminal's whole foreground process group: the CLI, its git, the monitor.
    const child = spawn(process.execPath, [BIN, "--worktree"], {
      cwd: repo.dir,
      env: { ...repo.env, HOLD: "1" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    while (!existsSync(ready)) await sleep(20);
    process.kill(-(child.pid as number), "SIGINT");
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain("git-review-remote: interrupted; nothing was imported\n");
    expect(stderr).not.toMatch(/failed|internal error/);
    expect(repoState(repo)).toEqual(before);
    repo.git("config", "--unset", "core.fsmonitor");
    const next = repo.run(["--worktree"]);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stdout).toContain("Reviewing the uncommitted changes against HEAD");
  });
});

describe("install-hook in a clone whose husky is not set up yet", () => {
  it("installs the hook, and says that husky will take the hooks over once set up", () => {
    const repo = committedRepo();
    repo.write(".husky/pre-commit", "npm test\n");
    repo.commit("husky");
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(
      `Installed the pre-push hook in ${join(repo.dir, ".git", "hooks", "pre-push")}\n`,
    );
    expect(installed.stderr).toBe(
      "warning: this repository has .husky/: once husky is set up (an npm install runs it), git runs its hooks from there and not this one\n" +
        'hint: add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"\n',
    );
    const plain = committedRepo();
    const quiet = plain.run(["install-hook"]);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
  });

  it("says so too when no .husky/ is committed but package.json's prepare script sets husky up", () => {
    // As axios's: husky 8, "prepare": "husky install && ...", no .husky/ in the tree.
    const repo = committedRepo();
    repo.write(
      "package.json",
      `${JSON.stringify({ scripts: { prepare: "husky install && npm run prepare:hooks" }, devDependencies: { husky: "^8.0.3" } })}\n`,
    );
    repo.commit("husky by script");
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(
      `Installed the pre-push hook in ${join(repo.dir, ".git", "hooks", "pre-push")}\n`,
    );
    expect(installed.stderr).toBe(
      "warning: this repository's package.json sets husky up (its prepare script, which an npm install runs): git then runs its hooks from .husky/ and not this one\n" +
        'hint: add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"\n',
    );
    // A script that names another tool whose name starts so is not husky's.
    repo.write("package.json", `${JSON.stringify({ scripts: { prepare: "husky-init --no-op" } })}\n`);
    repo.commit("not husky");
    const again = repo.run(["install-hook"]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toBe("");
  });

  it("does not ask for the husky line when .husky/pre-push has it already", () => {
    const repo = committedRepo();
    repo.write(".husky/pre-push", 'git review-remote hook pre-push "$@"\n');
    repo.commit("husky");
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(
      `Installed the pre-push hook in ${join(repo.dir, ".git", "hooks", "pre-push")}\n`,
    );
    expect(installed.stderr).toBe("");
  });

  it("still asks for it when the line there is commented out, indented or not", () => {
    for (const line of [
      '  # git review-remote hook pre-push "$@"',
      '# git review-remote hook pre-push "$@"',
    ]) {
      const repo = committedRepo();
      repo.write(".husky/pre-push", `npm test\n${line}\n`);
      repo.commit("husky");
      const installed = repo.run(["install-hook"]);
      expect(installed.status, installed.stderr).toBe(0);
      expect(installed.stderr, line).toContain(
        'hint: add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"\n',
      );
    }
  });
});

describe("<command> --help", () => {
  /** Runs `git review-remote args` on a terminal (util-linux's script), the manual paged by cat. */
  function onTerminal(repo: TestRepo, args: string[], status = 0): string {
    const command = ["git", "review-remote", ...args].join(" ");
    const result = spawnSync("script", ["-qec", command, "/dev/null"], {
      cwd: repo.dir,
      env: { ...repo.env, MANPAGER: "cat", PAGER: "cat", MANWIDTH: "80", TERM: "dumb" },
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(status);
    return result.stdout;
  }

  it.each([["merge"], ["show"], ["export"], ["install-hook"], ["worker"]])(
    "opens the manual on a terminal for %s, as git's own commands do; -h stays the short text",
    (name) => {
      const repo = committedRepo();
      expect(onTerminal(repo, [name, "--help"])).toMatch(/^GIT-REVIEW-REMOTE\(1\) +Git Manual /);
      const short = onTerminal(repo, [name, "-h"], 129);
      expect(short).toMatch(new RegExp(`^usage: git review-remote ${name}`));
      expect(short).not.toContain("GIT-REVIEW-REMOTE(1)");
      // Not on a terminal (a pipe, a script): the command's own usage, as before.
      const piped = repo.run([name, "--help"]);
      expect(piped.status).toBe(0);
      expect(piped.stdout).toMatch(new RegExp(`^usage: git review-remote ${name}`));
    },
  );
});

describe("a range that starts where it ends", () => {
  it.each([["HEAD..HEAD"], ["main..HEAD"], ["HEAD~1..HEAD~1"]])(
    "%s is a usage error: nothing is exported or sent, and the hint names a range that changes something",
    (spec) => {
      const repo = committedRepo();
      const result = runUnchanged(repo, [spec], 2);
      const commit = repo.git("rev-parse", spec.split("..")[1] as string).trim();
      expect(result.stderr).toBe(
        `git-review-remote: nothing to review: ${spec} starts and ends at ${commit.slice(0, 10)}, so it changes nothing\n` +
          "hint: name the commits to review, e.g. git review-remote HEAD~3..HEAD, or review the whole tree with --all <rev>\n",
      );
      expect(result.stdout).toBe("");
      expect(existsSync(join(repo.dir, ".git", "review-remote", "audit.jsonl"))).toBe(false);
    },
  );

  it.each([[["export"]], [["export", "--list"]]])(
    "given to %j is refused with a hint export takes (it has no --all)",
    (args) => {
      const repo = committedRepo();
      const result = runUnchanged(repo, [...args, "HEAD..HEAD"], 2);
      const commit = repo.git("rev-parse", "HEAD").trim();
      expect(result.stderr).toBe(
        `git-review-remote: nothing to export: HEAD..HEAD starts and ends at ${commit.slice(0, 10)}, so it changes nothing\n` +
          "hint: name the commits whose change to export, e.g. git review-remote export HEAD~3..HEAD, or export the tree of one commit: git review-remote export <rev>\n",
      );
      expect(result.stdout).toBe("");
      expect(existsSync(join(repo.dir, ".git", "review-remote", "bundles"))).toBe(false);
    },
  );
});

describe("a range typed the wrong way round", () => {
  it("is reviewed as git diff reads it, with a warning and a hint that names the range the right way round", () => {
    const repo = committedRepo();
    repo.git("branch", "old", "HEAD~1");
    const backwards = repo.run(["HEAD..old"]);
    expect(backwards.status).toBe(0);
    expect(backwards.stderr).toContain(
      "warning: HEAD..old goes backwards: old is behind HEAD, so this reviews the undoing of HEAD's commits since old (git log HEAD..old lists none)\n" +
        "hint: to review what HEAD added since old: git review-remote old..HEAD\n",
    );
    // The undoing removes the trailing spaces: nothing for hygiene to propose.
    expect(backwards.stdout).toContain("0 proposed commits");
    // The right way round: no warning, and hygiene's fix of the spaces the change added.
    const forwards = repo.run(["old..HEAD"]);
    expect(forwards.status).toBe(0);
    expect(forwards.stderr).not.toContain("goes backwards");
    expect(forwards.stdout).toContain("1 proposed commit");
  });
});

describe("a bad config value met by the pre-push hook", () => {
  it("stops the push with the value, what was expected, and where to look for the setting", () => {
    const repo = committedRepo();
    const remote = repos.add(createTestRepo({ bare: true, name: "remote.git" }));
    repo.git("remote", "add", "origin", remote.dir);
    expect(repo.run(["install-hook"]).status).toBe(0);
    repo.git("config", "review-remote.prePush", "blok");
    const before = repoState(repo);
    const pushed = spawnSync("git", ["push", "-q", "origin", "main"], {
      cwd: repo.dir,
      env: repo.env,
      encoding: "utf8",
    });
    expect(pushed.status).not.toBe(0);
    expect(pushed.stderr).toContain(
      "git-review-remote: bad config value 'blok' for review-remote.prePush: expected off, warn or block\n" +
        "hint: change or remove it where it is set (git config --show-origin --get-all review-remote.prePush names the file)\n",
    );
    expect(repoState(repo)).toEqual(before);
    expect(remote.git("for-each-ref")).toBe("");
  });
});

describe("export counts", () => {
  it("say one file and one path in the singular", () => {
    const repo = repos.add(createTestRepo());
    repo.write("app.ts", "export const a = 1;\n");
    repo.write(".env", "SECRET=abc\n");
    repo.commit("one file and a secret");
    const listed = runUnchanged(repo, ["export", "--list"], 0);
    expect(listed.stdout).toMatch(/^Would send 1 file \(20 B\) from [0-9a-f]{40}:\n/);
    expect(listed.stdout).toContain("\nWould keep back 1 path:\n  .env  secret name: ");
    const exported = repo.run(["export"]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^Exported 1 file \([^)]+ compressed\); 1 path kept back /);
  });

  it("say nothing was kept back, with no pointer to a why", () => {
    const repo = repos.add(createTestRepo());
    repo.write("app.ts", "export const a = 1;\n");
    repo.commit("one file");
    const exported = repo.run(["export"]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^Exported 1 file \([^)]+ compressed\); nothing kept back\.\n$/);
  });
});

describe("a worker configured with an empty command", () => {
  it.each([[""], ["   "]])("(%j) is a configuration error before anything is exported or sent", (command) => {
    const repo = committedRepo();
    repo.git("config", "review-remote.box.command", command);
    const result = runUnchanged(repo, ["--worker", "box"], 2);
    expect(result.stderr).toBe(
      "git-review-remote: review-remote.box.command is empty: worker 'box' has no command to run\n" +
        "hint: configure it with: git config review-remote.box.command 'ssh <host> git-review-remote worker'\n",
    );
    expect(existsSync(join(repo.dir, ".git", "review-remote", "audit.jsonl"))).toBe(false);
  });
});

describe("Ctrl-C during a git push that the hook reviews", () => {
  it("says interrupted (not timed out), stops the push and the worker, and marks the review failed", async () => {
    const repo = committedRepo();
    const remote = repos.add(createTestRepo({ bare: true, name: "remote.git" }));
    repo.git("remote", "add", "origin", remote.dir);
    expect(repo.run(["install-hook"]).status).toBe(0);
    // A worker that says where it runs, then takes its time.
    const pidFile = join(repo.home, "worker.pid");
    repo.git("config", "review-remote.slow.command", `echo $$ > '${pidFile}'; exec sleep 60`);
    repo.git("config", "review-remote.worker", "slow");
    const push = spawn("git", ["push", "origin", "main"], {
      cwd: repo.dir,
      env: repo.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    push.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Closed once every process holding its stderr has ended: git, the hook and what it started.
    const closed = new Promise<void>((resolve) => push.on("close", () => resolve()));
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await sleep(20);
    const worker = Number(readFileSync(pidFile, "utf8").trim());
    // Ctrl-C: git push and the hook get it from the terminal, and the hook once more from git.
    process.kill(-(push.pid as number), "SIGINT");
    await closed;
    expect(stderr).toMatch(
      /^review-remote: refs\/heads\/main \(0000000\.\.[0-9a-f]{7}\): interrupted \(Ctrl-C\); the push stops$/m,
    );
    expect(stderr).not.toContain("timed out");
    expect(remote.git("for-each-ref")).toBe("");
    expect(() => process.kill(worker, 0)).toThrow(/ESRCH/);
    const [review] = JSON.parse(repo.run(["list", "--json"]).stdout);
    expect(review.state).toBe("failed");
  });
});

describe("a worker command that prints nothing", () => {
  it("is rejected (exit 4) with a hint at the command, the repository unchanged", () => {
    const repo = committedRepo();
    repo.git("config", "review-remote.box.command", "cat >/dev/null");
    const result = runUnchanged(repo, ["--worker", "box"], 4);
    expect(result.stderr).toBe(
      "git-review-remote: rejected the result of worker 'box'; nothing was imported\n" +
        "  result: not valid JSON: empty document (line 1, column 1)\n" +
        "hint: the worker printed nothing on stdout: its command must run git-review-remote worker (git config review-remote.box.command)\n",
    );
  });

  it("gets no such hint when it printed something that is not a result", () => {
    const repo = committedRepo();
    repo.git("config", "review-remote.box.command", "cat >/dev/null; echo hello");
    const result = runUnchanged(repo, ["--worker", "box"], 4);
    expect(result.stderr).not.toContain("printed nothing");
  });

  it("is listed with why it was rejected, not with counts of nothing", () => {
    const repo = committedRepo();
    repo.git("config", "review-remote.box.command", "cat >/dev/null");
    runUnchanged(repo, ["--worker", "box"], 4);
    const [line] = repo.run(["list"]).stdout.split("\n");
    expect(line).toMatch(/^[0-9a-f]{12} {2}rejected {2}box {9}/);
    expect(line?.endsWith("  result: not valid JSON: empty document (line 1, column 1)")).toBe(true);
  });
});

describe("--worktree with nothing uncommitted that would leave", () => {
  const said =
    "git-review-remote: nothing to review: the work tree has no uncommitted change that would leave (git review-remote export --list --worktree shows what stays)\n" +
    "hint: review the last commit with git review-remote, or the whole work tree with --worktree --all\n";

  it.each([
    ["a clean work tree", (_repo: TestRepo) => undefined],
    ["only an untracked .env", (repo: TestRepo) => repo.write(".env", "SECRET=abc\n")],
  ])("(%s) is a usage error; no worker is asked", (_, dirty) => {
    const repo = committedRepo();
    dirty(repo);
    const result = runUnchanged(repo, ["--worktree"], 2);
    expect(result.stderr).toBe(said);
    expect(existsSync(join(repo.dir, ".git", "review-remote", "audit.jsonl"))).toBe(false);
    const whole = repo.run(["--worktree", "--all"]);
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stdout).toContain("Reviewing the whole work tree");
  });
});

describe("<a>...<head>", () => {
  /** main moved on after feature forked from it; HEAD is feature. */
  function forkedRepo(): { repo: TestRepo; fork: string; main: string; feature: string } {
    const repo = committedRepo();
    const fork = repo.git("rev-parse", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write("src/feature.ts", "export const f = 1;   \n");
    const feature = repo.commit("feature");
    repo.git("checkout", "-q", "main");
    repo.write("src/main-only.ts", "export const m = 1;\n");
    const main = repo.commit("main moves on");
    repo.git("checkout", "-q", "feature");
    return { repo, fork, main, feature };
  }

  it("reviews what <head> changed since it forked from <a>, as git diff a...head shows it", () => {
    const { repo, fork, main, feature } = forkedRepo();
    const forked = repo.run(["main...HEAD", "--json"]);
    expect(forked.status, forked.stderr).toBe(0);
    expect(JSON.parse(forked.stdout).target).toMatchObject({ kind: "range", base: fork, head: feature });
    // Two dots stay the diff between the two trees, main's own newer commit included.
    const twoDots = repo.run(["main..HEAD", "--json"]);
    expect(twoDots.status, twoDots.stderr).toBe(0);
    expect(JSON.parse(twoDots.stdout).target).toMatchObject({ kind: "range", base: main, head: feature });
  });

  it("is refused with exit 2 when the two share no history, and nothing changes", () => {
    const { repo } = forkedRepo();
    repo.git("checkout", "-q", "--orphan", "other");
    repo.commit("unrelated");
    const result = runUnchanged(repo, ["feature...HEAD"], 2);
    expect(result.stderr).toBe(
      "git-review-remote: feature...HEAD: the two commits share no history, so there is no fork point\n" +
        "hint: name a range as <base>..<head>, e.g. git review-remote main..HEAD\n",
    );
  });
});

describe("an empty question", () => {
  it.each([[["-m", ""]], [["--question", "  "]], [["-m", "", "--worktree"]]])(
    "(%j) is a usage error before anything is exported",
    (args) => {
      const repo = committedRepo();
      const result = runUnchanged(repo, args, 2);
      expect(result.stderr).toBe(
        "git-review-remote: -m, --question is empty\n" +
          "hint: ask something (git review-remote -m 'Is the retry loop correct?'), or leave -m out for the default question\n",
      );
      expect(existsSync(join(repo.dir, ".git", "review-remote"))).toBe(false);
    },
  );
});

describe("a question no reviewer's environment can carry", () => {
  it("is a usage error before anything is exported, from the policy file or git config", () => {
    const repo = committedRepo();
    repo.write(".review-remote.json", JSON.stringify({ question: "why\u0000this" }));
    const nul = runUnchanged(repo, [], 2);
    expect(nul.stderr).toBe(
      "git-review-remote: the question must not hold a NUL character: a reviewer gets it in its environment\n" +
        "hint: ask it shorter and without NUL characters, with -m, review-remote.question or the policy file's question\n",
    );
    repo.git("config", "review-remote.question", "q".repeat(70_000));
    const long = runUnchanged(repo, [], 2);
    expect(long.stderr).toMatch(/^git-review-remote: the question must be at most 65536 bytes: /);
    expect(existsSync(join(repo.dir, ".git", "review-remote"))).toBe(false);
  });
});

describe("a policy that forbids more globs than a worker takes", () => {
  it("is a configuration error before anything is exported", () => {
    const repo = committedRepo();
    const globs = Array.from({ length: 513 }, (_, i) => `generated/${i}/**`);
    repo.write(".review-remote.json", JSON.stringify({ forbiddenPaths: globs }));
    const result = runUnchanged(repo, [], 2);
    expect(result.stderr).toContain("forbiddenPaths: must not list more than 512 globs");
    expect(existsSync(join(repo.dir, ".git", "review-remote"))).toBe(false);
  });
});

/** An AWS access key id the scanner finds, built from parts so this file holds none itself. */
const fakeKey = (last: string) => ["AK", "IA", "IOSFODNN7EXAMPL", last].join("");

describe("a refused export's allow hint", () => {
  it("names the finding's own fingerprint, and that line in the policy lets the review go", () => {
    const repo = committedRepo();
    repo.write("src/keys.ts", `export const key = "${fakeKey("F")}";\n`);
    repo.commit("a key");
    const refused = runUnchanged(repo, [], 6);
    const fingerprint = /\[fingerprint ([0-9a-f]+)\]/.exec(refused.stderr)?.[1];
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const allow = `{"fingerprint": "${fingerprint}"}`;
    expect(refused.stderr).toContain(`hint: or, for a false positive, add ${allow} to secrets.allow there`);
    const listed = runUnchanged(repo, ["export", "--list"], 6);
    expect(listed.stderr).toContain(`add ${allow} to secrets.allow`);
    repo.write(".review-remote.json", `{"secrets": {"allow": [${allow}]}}\n`);
    repo.commit("allow the false positive");
    const allowed = repo.run(["HEAD~1"]);
    expect(allowed.status, allowed.stderr).toBe(0);
  });

  it("keeps a placeholder when the findings have several fingerprints", () => {
    const repo = committedRepo();
    repo.write("src/keys.ts", `export const a = "${fakeKey("F")}";\nexport const b = "${fakeKey("G")}";\n`);
    repo.commit("two keys");
    const refused = runUnchanged(repo, [], 6);
    expect(refused.stderr).toContain('add {"fingerprint": "<fp>"} to secrets.allow');
  });
});

describe("every usage error of a command", () => {
  const cases: [string[], string][] = [
    [["export", "--list", "--worktree", "HEAD~1"], "hint: see 'git review-remote export -h'"],
    [["--all", "HEAD~1..HEAD"], "hint: see 'git review-remote -h'"],
    [["show", "abc", "--format=yaml"], "hint: see 'git review-remote show -h'"],
    [["import"], "hint: see 'git review-remote import -h'"],
    [["import", "result.json"], "hint: list reviews with: git review-remote list"],
    [["hook", "pre-commit"], "hint: see 'git review-remote hook -h'"],
    [["prune", "--bogus"], "hint: see 'git review-remote prune -h'"],
  ];
  it.each(cases)("(%j) ends with a hint", (args, hint) => {
    const repo = committedRepo();
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toMatch(/^git-review-remote: /);
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(hint);
  });
});

describe("a secret the change leaves in place", () => {
  it("is one finding, at the tree's line, though the patch carries it too", () => {
    const repo = committedRepo();
    repo.write("src/keys.ts", `export const key = "${fakeKey("F")}";\nexport const a = 1;\n`);
    repo.commit("a key");
    repo.write("src/keys.ts", `// keys\nexport const key = "${fakeKey("F")}";\nexport const a = 2;\n`);
    repo.commit("the key stays");
    // The base's version of the file, scanned for the patch's context lines, holds it as well.
    const listed = runUnchanged(repo, ["export", "--list", "HEAD~1..HEAD"], 6);
    expect(listed.stdout.match(/aws-access-token/g)).toHaveLength(1);
    expect(listed.stdout).toMatch(/^ {2}src\/keys\.ts:2: aws-access-token: /m);
    expect(listed.stderr).toContain("the export would be refused: 1 possible secret found");
    expect(listed.stderr).toContain('hint: keep the file out with an "exclude" glob');
    const refused = runUnchanged(repo, [], 6);
    expect(refused.stderr.match(/aws-access-token/g)).toHaveLength(1);
    expect(refused.stderr).toContain("1 possible secret");
  });
});

describe("the commit that removes a secret", () => {
  it("is refused (its patch carries the removed lines) with a hint at --all, which reviews it", () => {
    const repo = committedRepo();
    repo.write("src/keys.ts", `export const key = "${fakeKey("F")}";\n`);
    repo.commit("a key");
    repo.write("src/keys.ts", "export const key = process.env.KEY;\n");
    repo.commit("the key goes");
    const refused = runUnchanged(repo, [], 6);
    expect(refused.stderr).toMatch(/^ {2}src\/keys\.ts:1: aws-access-token: /m);
    expect(refused.stderr.trimEnd().split("\n").slice(-2)).toEqual([
      "hint: the change removes these lines, and its patch would carry them: send the tree alone (review with --all <rev>, export <rev>)",
      expect.stringMatching(
        /^hint: or, for a false positive, add \{"fingerprint": "[0-9a-f]+"\} to secrets\.allow \(no marker reaches a removed line\)$/,
      ),
    ]);
    const whole = repo.run(["--all"]);
    expect(whole.status, whole.stderr).toBe(0);
    // The commit that added it keeps the usual hints: the tree itself holds the secret.
    const added = runUnchanged(repo, ["HEAD~1"], 6);
    expect(added.stderr).toContain('hint: keep the file out with an "exclude" glob');
  });

  it("is listed by export --list of the range with the same hint; the tree alone lists no finding", () => {
    const repo = committedRepo();
    repo.write("src/keys.ts", `export const key = "${fakeKey("F")}";\n`);
    repo.commit("a key");
    repo.write("src/keys.ts", "export const key = process.env.KEY;\n");
    repo.commit("the key goes");
    const listed = runUnchanged(repo, ["export", "--list", "HEAD~1..HEAD"], 6);
    expect(listed.stdout).toMatch(
      /^and the change [0-9a-f]{10}\.\.[0-9a-f]{10}: 1 changed path, their patch /m,
    );
    // Line 1 of the base's src/keys.ts, not of the file listed above: the finding says so.
    expect(listed.stdout).toMatch(/^ {2}src\/keys\.ts:1: aws-access-token: .*\] \(in the range's base\)$/m);
    const fingerprint = /\[fingerprint ([0-9a-f]+)\]/.exec(listed.stdout)?.[1];
    expect(listed.stderr).toBe(
      "git-review-remote: the export would be refused: 1 possible secret found (listed above)\n" +
        "hint: the change removes these lines, and its patch would carry them: send the tree alone (review with --all <rev>, export <rev>)\n" +
        `hint: or, for a false positive, add {"fingerprint": "${fingerprint}"} to secrets.allow (no marker reaches a removed line)\n`,
    );
    const json = JSON.parse(runUnchanged(repo, ["export", "--list", "--json", "HEAD~1...HEAD"], 6).stdout);
    expect(json.range.paths).toEqual(["src/keys.ts"]);
    expect(listed.stdout).toContain(`1 changed path, their patch ${json.range.patchBytes} B\n`);
    expect(json.findings).toEqual([expect.objectContaining({ path: "src/keys.ts", line: 1, inBase: true })]);
    // The export of the range is refused the same way; the tree of HEAD alone leaves.
    const exported = runUnchanged(repo, ["export", "HEAD~1..HEAD"], 6);
    expect(exported.stderr.trimEnd().split("\n").at(-1)).toBe(listed.stderr.trimEnd().split("\n").at(-1));
    const tree = repo.run(["export", "--list"]);
    expect(tree.status, tree.stderr).toBe(0);
    expect(tree.stdout).not.toContain("and the change");
    expect(tree.stdout).not.toContain("content scan");
  });
});

describe("a review with uncommitted edits in the work tree", () => {
  it("says they were not reviewed and how to review them; a clean tree or --worktree says nothing", () => {
    const repo = committedRepo();
    const hint =
      "hint: the uncommitted changes to tracked files were not reviewed (a review is of commits): git review-remote --worktree reviews them\n";
    const clean = repo.run([]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain("uncommitted");
    repo.write("src/app.ts", "export const a = 2;\n");
    const dirty = repo.run([]);
    expect(dirty.status, dirty.stderr).toBe(0);
    expect(dirty.stdout).toMatch(/^Reviewing the change of commit /);
    expect(dirty.stderr.endsWith(hint)).toBe(true);
    const worktree = repo.run(["--worktree"]);
    expect(worktree.status, worktree.stderr).toBe(0);
    expect(worktree.stderr).not.toContain("uncommitted");
    expect(repo.run(["HEAD"]).stderr).not.toContain("uncommitted");
  });
});

/** `git push <args>` in the repository, as a user runs it: the pre-push hook's words on stderr. */
function gitPush(repo: TestRepo, ...args: string[]) {
  return spawnSync("git", ["push", ...args], { cwd: repo.dir, env: repo.env, encoding: "utf8" });
}

describe("a push git knows no base for", () => {
  it("says the whole tree was reviewed and how to give later pushes a base; a known base says nothing", () => {
    const repo = committedRepo();
    const remote = repos.add(createTestRepo({ bare: true, name: "fork.git" }));
    repo.git("remote", "add", "fork", remote.dir);
    expect(repo.run(["install-hook"]).status).toBe(0);
    const push = (...args: string[]) => gitPush(repo, ...args);
    const first = push("fork", "main");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^review-remote: refs\/heads\/main \(0000000\.\.[0-9a-f]{7}\): review [0-9a-f]{12}/m,
    );
    expect(first.stderr).toContain(
      "hint: no commit of 'fork' is known here to start from, so the whole tree was reviewed (git fetch fork gives later pushes a base)\n",
    );
    repo.git("fetch", "-q", "fork");
    repo.git("checkout", "-q", "-b", "topic");
    repo.write("src/topic.ts", "export const t = 1;\n");
    repo.commit("topic");
    repo.git("remote", "set-head", "fork", "main");
    const second = push("fork", "topic");
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("whole tree");
  });

  /** A repository whose main is on origin, with a fork remote that has nothing yet. */
  function publishedAndForked(): TestRepo {
    const repo = committedRepo();
    const origin = repos.add(createTestRepo({ bare: true, name: "origin.git" }));
    const fork = repos.add(createTestRepo({ bare: true, name: "fork.git" }));
    repo.git("remote", "add", "origin", origin.dir);
    repo.git("push", "-q", "origin", "main");
    repo.git("remote", "add", "fork", fork.dir);
    return repo;
  }

  it("reviews a fork's first push from what another remote already has, not the whole tree", () => {
    const repo = publishedAndForked();
    const published = repo.git("rev-parse", "HEAD").trim();
    repo.write("src/topic.ts", "export const t = 1;   \n");
    repo.commit("topic");
    expect(repo.run(["install-hook"]).status).toBe(0);
    const pushed = gitPush(repo, "fork", "main");
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain("whole tree");
    const [review] = JSON.parse(repo.run(["list", "--json"]).stdout);
    expect(review.range).toEqual({ base: published, head: repo.git("rev-parse", "HEAD").trim() });
  });

  it("has nothing new to review in a fork's first push of a commit another remote has", () => {
    const repo = publishedAndForked();
    expect(repo.run(["install-hook"]).status).toBe(0);
    const head = repo.git("rev-parse", "HEAD").trim();
    const pushed = gitPush(repo, "fork", "main");
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain(
      `review-remote: refs/heads/main (0000000..${head.slice(0, 7)}): nothing new to review\n`,
    );
    expect(pushed.stderr).not.toContain("whole tree");
    expect(JSON.parse(repo.run(["list", "--json"]).stdout)).toEqual([]);
    expect(repo.git("ls-remote", "fork", "refs/heads/main").split("\t")[0]).toBe(head);
  });
});

describe("git review-remote worker run by hand", () => {
  it("says on a terminal that it waits for a request, and not when a client pipes one", () => {
    const repo = committedRepo();
    // util-linux's script gives the worker a terminal; its stdin at EOF ends the input there.
    const onTerminal = spawnSync("script", ["-qec", "git review-remote worker", "/dev/null"], {
      cwd: repo.dir,
      env: { ...repo.env, TERM: "dumb" },
      encoding: "utf8",
      input: "",
    });
    expect(onTerminal.status).toBe(2);
    expect(onTerminal.stdout.replace(/\r/g, "")).toBe(
      "git-review-remote worker: waiting for a request on stdin: git review-remote sends one through a worker's command (git config review-remote.<name>.command; Ctrl-D ends this)\n" +
        "git-review-remote worker: empty input: no request line\n",
    );
    const piped = repo.run(["worker"], { input: "" });
    expect(piped.status).toBe(2);
    expect(piped.stderr).toBe("git-review-remote worker: empty input: no request line\n");
  });
});
