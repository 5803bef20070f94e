// What a new user meets running each command bare or wrong in a fresh repository: a message that
// says what is missing, in git's words, the exit code of design §4, and the repository as it was.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BIN,
  createTestRepo,
  createTrailingSpaceRepo,
  repoState,
  repoTracker,
  runUnchanged,
} from "../helpers/repo.js";

const repos = repoTracker();

describe("an option given without its value", () => {
  const cases: [string[], string, string][] = [
    [["--timeout"], "--timeout", "-h"],
    [["-m"], "-m, --question", "-h"],
    [["export", "-o"], "-o, --output", "export -h"],
    [["prune", "--expire"], "--expire", "prune -h"],
  ];
  it.each(cases)("%j names the option as the user may type it", (args, option, help) => {
    const repo = createTrailingSpaceRepo(repos);
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toBe(
      `git-review-remote: option '${option}' needs a value\nhint: see 'git review-remote ${help}'\n`,
    );
  });
});

describe("hook with no hook named", () => {
  it("says what it takes and who runs it, exit 2", () => {
    const repo = createTrailingSpaceRepo(repos);
    const result = runUnchanged(repo, ["hook"], 2);
    expect(result.stderr).toBe(
      "git-review-remote: hook needs the hook's name: git review-remote hook pre-push <remote> <url>\n" +
        "hint: git runs it from its pre-push hook, which git review-remote install-hook installs\n",
    );
  });

  it("still names an unknown one", () => {
    const repo = createTrailingSpaceRepo(repos);
    const result = runUnchanged(repo, ["hook", "pre-commit"], 2);
    expect(result.stderr).toBe(
      "git-review-remote: unknown hook 'pre-commit': only pre-push is supported\n" +
        "hint: see 'git review-remote hook -h'\n",
    );
  });
});

describe("a snapshot with no files", () => {
  it.each([[["--worktree"]], [["export", "--worktree"]], [["export", "--list", "--worktree"]]])(
    "%j in an empty work tree says so, not that every file was excluded",
    (args) => {
      const repo = repos.add(createTestRepo());
      const result = runUnchanged(repo, args, 1);
      expect(result.stderr).toBe(
        "git-review-remote: nothing would leave: the work tree has no files\n" +
          "hint: --worktree sends the tracked files and the untracked ones that are not ignored: add a file first\n",
      );
    },
  );

  it.each([[[]], [["--all"]], [["export"]], [["export", "--list"]]])(
    "%j of a commit of an empty tree says so",
    (args) => {
      const repo = repos.add(createTestRepo());
      repo.commit("empty");
      const result = runUnchanged(repo, args, 1);
      expect(result.stderr).toBe(
        "git-review-remote: nothing would leave: the commit has no files\n" +
          "hint: name a commit that has files, or review uncommitted files with --worktree\n",
      );
    },
  );

  it("whose every file is excluded is listed by --list, which fails as export would", () => {
    const repo = repos.add(createTestRepo());
    repo.write(".env", "TOKEN=1\n");
    repo.commit("only a secret file");
    const head = repo.git("rev-parse", "HEAD").trim();
    const result = runUnchanged(repo, ["export", "--list"], 1);
    expect(result.stdout).toMatch(
      new RegExp(`^Would send no files from ${head}\\.\\nWould keep back 1 path:\\n  \\.env  secret name: `),
    );
    expect(result.stderr).toBe("git-review-remote: nothing would leave: every file was excluded\n");
  });

  it("whose every file is excluded still says that", () => {
    const repo = repos.add(createTestRepo());
    repo.write(".env", "TOKEN=1\n");
    repo.commit("only a secret file");
    const result = runUnchanged(repo, ["export"], 1);
    expect(result.stderr).toBe(
      "git-review-remote: nothing would leave: every file was excluded\n" +
        "hint: run `git review-remote export --list` to see why each file stays\n",
    );
  });
});

describe("no git on PATH", () => {
  it.each([[["list"]], [["export"]], [[]]])("%j is said as such, exit 2, not as a bug", (args) => {
    const repo = createTrailingSpaceRepo(repos);
    // PATH holds node alone: the CLI run directly, as git-review-remote, where no git is installed.
    const bin = mkdtempSync(join(tmpdir(), "rr-nogit-"));
    try {
      symlinkSync(process.execPath, join(bin, "node"));
      const before = repoState(repo);
      const result = spawnSync(process.execPath, [BIN, ...args], {
        cwd: repo.dir,
        env: { ...repo.env, PATH: bin },
        encoding: "utf8",
      });
      expect(result.status, result.stderr).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        "git-review-remote: needs git 2.38 or later; there is no git on PATH\n" +
          "hint: install git (https://git-scm.com/downloads), or add the directory that holds it to PATH\n",
      );
      expect(repoState(repo)).toEqual(before);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("export --list with -o", () => {
  it("is refused: the listing writes no bundle to copy", () => {
    const repo = createTrailingSpaceRepo(repos);
    const result = runUnchanged(repo, ["export", "--list", "-o", "out.tar.gz"], 2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "git-review-remote: --list and -o, --output cannot be used together: --list writes no bundle\n" +
        "hint: see 'git review-remote export -h'\n",
    );
    expect(existsSync(join(repo.dir, "out.tar.gz"))).toBe(false);
  });
});

describe("hook pre-push run by hand", () => {
  it("says on a terminal that it waits for git's ref updates, and not when git pipes them", () => {
    const repo = createTrailingSpaceRepo(repos);
    const before = repoState(repo);
    // util-linux's script gives the hook a terminal; its stdin at EOF ends the input there.
    const onTerminal = spawnSync(
      "script",
      ["-qec", "git review-remote hook pre-push origin url", "/dev/null"],
      {
        cwd: repo.dir,
        env: { ...repo.env, TERM: "dumb" },
        encoding: "utf8",
        input: "",
      },
    );
    expect(onTerminal.status, onTerminal.stdout).toBe(0);
    expect(onTerminal.stdout.replace(/\r/g, "")).toBe(
      "git-review-remote: waiting for git's ref updates on stdin: git push runs this from its pre-push hook (git review-remote install-hook installs it; Ctrl-D ends this)\n",
    );
    expect(repo.run(["hook", "pre-push", "origin", "url"], { input: "" })).toEqual({
      status: 0,
      stdout: "",
      stderr: "",
    });
    expect(repoState(repo)).toEqual(before);
  });
});

describe("a file that cannot be read or written", () => {
  it("is said in the system's words, not as an errno code", () => {
    const repo = createTrailingSpaceRepo(repos);
    repo.git("config", "review-remote.gone.command", "false");
    expect(repo.run(["--worker", "gone"]).status).toBe(3);
    const [review] = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string }[];
    const missing = runUnchanged(repo, ["import", "missing.json", "--request", review?.id ?? ""], 2);
    expect(missing.stderr).toBe("git-review-remote: cannot read missing.json: No such file or directory\n");
    const unwritable = repo.run(["export", "-o", "no/such/dir/out.tar.gz"]);
    expect(unwritable.status).toBe(1);
    expect(unwritable.stderr).toBe(
      `git-review-remote: cannot write ${join(repo.dir, "no/such/dir/out.tar.gz")}: No such file or directory\n`,
    );
  });
});

describe("import of a file that is no result", () => {
  const cases: [string, string, string][] = [
    [
      "an empty file",
      "",
      "  result: not valid JSON: empty document (line 1, column 1)\n" +
        "hint: answer.json is empty: import takes the result document the worker printed on stdout\n",
    ],
    [
      "a page of text",
      "<html>Not Found</html>\n",
      "  result: not valid JSON: unexpected character '<' (line 1, column 1)\n" +
        'hint: answer.json holds "<html>Not Found</html>" (line 1), which is no part of a result: import takes the result document alone, as the worker printed it on stdout\n',
    ],
  ];
  it.each(cases)("(%s) names the file, not the worker's command or its stdout", (_, content, said) => {
    const repo = createTrailingSpaceRepo(repos);
    repo.git("config", "review-remote.gone.command", "false");
    expect(repo.run(["--worker", "gone"]).status).toBe(3);
    const [review] = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string }[];
    repo.write("answer.json", content);
    const result = runUnchanged(repo, ["import", "answer.json", "--request", review?.id ?? ""], 4);
    expect(result.stderr).toBe(
      `git-review-remote: rejected the result of worker 'gone'; nothing was imported\n${said}` +
        `hint: review ${review?.id} still waits for its answer: nothing of this file was kept, and the right one can be imported\n`,
    );
  });
});

describe("audit --verify before the first review", () => {
  it("says nothing was sent and nothing is stored, not that all stored bundles hash right", () => {
    const repo = createTrailingSpaceRepo(repos);
    expect(runUnchanged(repo, ["audit", "--verify"], 0).stdout).toBe(
      "Nothing has been sent from this repository, and no bundle is stored.\n",
    );
  });
});

describe("audit --verify after the first review", () => {
  it("counts one send as one", () => {
    const repo = createTrailingSpaceRepo(repos);
    expect(repo.run([]).status).toBe(0);
    expect(repo.run(["audit", "--verify"])).toEqual({
      status: 0,
      stdout: "All stored bundles hash to their names (1 send recorded).\n",
      stderr: "",
    });
  });
});
