// The command line as users mistype it: a misspelt command, words too many, a bare repository.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createTestRepo,
  createTrailingSpaceRepo,
  repoState,
  repoTracker,
  runUnchanged,
  type TestRepo,
} from "../helpers/repo.js";

const repos = repoTracker();

const committedRepo = (): TestRepo => createTrailingSpaceRepo(repos);

describe("a mistyped command", () => {
  it("gets git's 'did you mean', exit 2, and nothing changes", () => {
    const repo = committedRepo();
    const result = runUnchanged(repo, ["shwo", "abc"], 2);
    expect(result.stderr).toBe(
      "git: 'review-remote shwo' is not a git review-remote command or a revision. See 'git review-remote -h'.\n" +
        "\nThe most similar command is\n\tshow\n",
    );
    expect(existsSync(join(repo.dir, ".git", "review-remote"))).toBe(false);
  });

  it("lists every command equally close, also outside a repository", () => {
    const repo = committedRepo();
    const result = repo.run(["i"], { cwd: repo.home });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("The most similar commands are\n\tinstall-hook\n\timport\n");
  });

  it("is still a revision when a branch has that name", () => {
    const repo = committedRepo();
    repo.git("branch", "shwo");
    const result = repo.run(["shwo", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).target.head).toBe(repo.git("rev-parse", "shwo").trim());
  });
});

describe("-h", () => {
  it("prints the usage on stdout and exits 129, as git's own commands do; help and --help exit 0", () => {
    const repo = committedRepo();
    // The reference: git itself, for a command and a subcommand's -h.
    expect(spawnSync("git", ["commit", "-h"], { cwd: repo.dir, encoding: "utf8" }).status).toBe(129);
    expect(spawnSync("git", ["worktree", "add", "-h"], { cwd: repo.dir, encoding: "utf8" }).status).toBe(129);
    const before = repoState(repo);
    const top = repo.run(["-h"]);
    expect(top.status).toBe(129);
    expect(top.stdout).toMatch(/^usage: git review-remote /);
    expect(top.stderr).toBe("");
    for (const args of [
      ["merge", "-h"],
      ["merge", "0123456789ab", "-h"],
      ["HEAD", "-h"],
      ["-qh"],
      ["prune", "-nh"],
    ]) {
      const result = repo.run(args);
      expect(result.status, args.join(" ")).toBe(129);
      expect(result.stdout, args.join(" ")).toMatch(/^usage: git review-remote /);
    }
    expect(repoState(repo)).toEqual(before);
    expect(repo.run(["help"]).status).toBe(0);
    expect(repo.run(["help", "merge"]).status).toBe(0);
    // `git review-remote --help` is git's own (`git help review-remote`); a command's is the tool's.
    expect(repo.run(["merge", "--help"]).status).toBe(0);
  });
});

describe("help <command>", () => {
  it("prints that command's -h text, as git help names one; an unknown one is a usage error", () => {
    const repo = committedRepo();
    const help = repo.run(["help", "merge"]);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toBe(repo.run(["merge", "-h"]).stdout);
    expect(help.stdout).toMatch(/^usage: git review-remote merge /);
    expect(repo.run(["help"]).stdout).toBe(repo.run(["-h"]).stdout);
    const unknown = runUnchanged(repo, ["help", "mrege"], 2);
    expect(unknown.stderr).toBe(
      "git-review-remote: no help on 'mrege': help takes one command's name\nhint: see 'git review-remote -h'\n",
    );
    expect(unknown.stdout).toBe("");
  });
});

describe("extra arguments", () => {
  const cases: [string, string[]][] = [
    ["review", ["HEAD", "HEAD~1"]],
    ["export", ["export", "HEAD", "HEAD~1"]],
    ["list", ["list", "extra"]],
    ["list", ["list", "--", "src"]],
    ["show", ["show", "a", "b"]],
    ["merge", ["merge", "a", "b"]],
    ["drop", ["drop", "a", "b"]],
    ["verify", ["verify", "a", "b"]],
    ["prune", ["prune", "extra"]],
    ["import", ["import", "a.json", "b.json", "--request", "x"]],
    ["audit", ["audit", "extra"]],
    ["install-hook", ["install-hook", "extra"]],
    ["hook", ["hook", "pre-push", "origin", "url", "extra"]],
    ["worker", ["worker", "extra"]],
  ];
  it.each(cases)("are a usage error for %s (exit 2), and nothing changes", (name, args) => {
    const repo = committedRepo();
    const result = runUnchanged(repo, args, 2);
    expect(result.stderr).toMatch(new RegExp(`^git-review-remote: too many arguments for ${name}: `));
    expect(result.stderr).toContain(`hint: see 'git review-remote ${name === "review" ? "" : `${name} `}-h'`);
  });
});

describe("--json on a command that prints no JSON", () => {
  it.each([["merge"], ["drop"], ["install-hook"], ["hook"]])(
    "is an unknown option for %s (exit 2), not text where a script expects JSON; nothing changes",
    (name) => {
      const repo = committedRepo();
      const review = repo.run(["--json"]);
      expect(review.status, review.stderr).toBe(0);
      const { id } = JSON.parse(review.stdout) as { id: string };
      const args = { merge: [id], drop: [id], "install-hook": [], hook: ["pre-push", "origin", "url"] }[name];
      const result = runUnchanged(repo, [name, "--json", ...(args ?? [])], 2);
      expect(result.stderr).toBe(
        `git-review-remote: unknown option '--json'\nhint: see 'git review-remote ${name} -h'\n`,
      );
      expect(result.stdout).toBe("");
    },
  );
});

describe("show --json with another --format", () => {
  it("is a usage error (exit 2) naming both, not one of them quietly; --format=json beside it is fine", () => {
    const repo = committedRepo();
    const review = repo.run(["--json"]);
    expect(review.status, review.stderr).toBe(0);
    const { id } = JSON.parse(review.stdout) as { id: string };
    for (const format of ["sarif", "text"]) {
      const result = runUnchanged(repo, ["show", id, "--json", `--format=${format}`], 2);
      expect(result.stderr).toBe(
        `git-review-remote: --json and --format=${format} cannot be used together\nhint: see 'git review-remote show -h'\n`,
      );
      expect(result.stdout).toBe("");
    }
    const both = repo.run(["show", id, "--format=json", "--json"]);
    expect(both.status, both.stderr).toBe(0);
    expect(both.stdout).toBe(repo.run(["show", id, "--json"]).stdout);
    expect(JSON.parse(both.stdout)).toBeTypeOf("object");
  });
});

describe("a bare repository", () => {
  function bareClone(): TestRepo {
    const source = committedRepo();
    const bare = repos.add(createTestRepo({ init: false, name: "bare.git" }));
    execFileSync("git", ["clone", "-q", "--bare", source.dir, bare.dir], { env: bare.env });
    return bare;
  }

  const refused: string[][] = [
    [],
    ["HEAD"],
    ["--all"],
    ["export"],
    ["export", "--list"],
    ["merge", "0123456789ab"],
    ["import", "result.json", "--request", "0123456789ab"],
    ["install-hook"],
  ];
  it.each(refused.map((args) => [args.join(" ") || "(no arguments)", args]))(
    "is refused by %s with exit 2 and a hint; nothing is written",
    (_name, args) => {
      const bare = bareClone();
      const refs = bare.git("for-each-ref");
      const result = bare.run(args as string[]);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        /^git-review-remote: .* is a bare repository: a review needs a work tree/,
      );
      expect(result.stderr).toContain("hint: run it in a clone or a worktree of it");
      expect(bare.git("for-each-ref")).toBe(refs);
      expect(existsSync(join(bare.dir, "review-remote"))).toBe(false);
      expect(existsSync(join(bare.dir, "hooks", "pre-push"))).toBe(false);
    },
  );

  it("names a work tree it has, and the same command run there, when it refuses", () => {
    const bare = bareClone();
    const dir = join(bare.home, "linked tree");
    bare.git("worktree", "add", "-q", dir, "main");
    const refs = bare.git("for-each-ref");
    const result = bare.run(["merge", "0123456789ab"]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `hint: run it in a work tree of it (git worktree list lists them): git -C '${dir}' review-remote merge 0123456789ab\n`,
    );
    expect(bare.git("for-each-ref")).toBe(refs);
    expect(existsSync(join(bare.dir, "review-remote"))).toBe(false);
  });

  it("still answers -h, --version, list and the worker's -h", () => {
    const bare = bareClone();
    expect(bare.run(["-h"]).status).toBe(129);
    expect(bare.run(["--version"]).stdout).toMatch(/^git-review-remote version /);
    expect(bare.run(["list"]).status).toBe(0);
    expect(bare.run(["worker", "-h"]).status).toBe(129);
  });

  it("gives only hints that work there: a review in a work tree of it, a merge's way out in its own", () => {
    const bare = bareClone();
    const empty = bare.run(["list"]);
    expect(empty.stdout).toBe(
      "No reviews yet. A review runs in a work tree: git worktree add <dir> <branch>, then git -C <dir> review-remote\n",
    );
    // Followed as it says, with a directory whose name the shell would split.
    const dir = join(bare.home, "linked tree");
    bare.git("worktree", "add", "-q", dir, "main");
    writeFileSync(join(dir, "notes.txt"), "uncommitted   \n");
    const reviewed = spawnSync("git", ["-C", dir, "review-remote", "--worktree", "--json"], {
      env: bare.env,
      encoding: "utf8",
    });
    expect(reviewed.status, reviewed.stderr).toBe(0);
    const { id } = JSON.parse(reviewed.stdout);
    // A work-tree merge killed after its journal: the bare repository's commands say how to go on.
    const killed = bare.run(["merge", id], { cwd: dir, env: { REVIEW_REMOTE_TEST_MERGE_SIGNAL: "1:KILL" } });
    expect(killed.status).toBe(137);
    const abort = `git -C '${dir}' review-remote merge --abort ${id}`;
    for (const args of [["list"], ["drop", id]]) {
      const result = bare.run(args);
      expect(result.stderr, args.join(" ")).toContain(`hint: to roll back: ${abort}\n`);
      expect(result.stderr).toContain(
        `hint: to finish: git -C '${dir}' review-remote merge --continue ${id}\n`,
      );
    }
    const rolledBack = spawnSync("sh", ["-c", abort], { cwd: bare.dir, env: bare.env, encoding: "utf8" });
    expect(rolledBack.status, rolledBack.stderr).toBe(0);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("uncommitted   \n");
    // In the work tree the merge ran in, the hints stay plain.
    expect(
      bare.run(["merge", id], { cwd: dir, env: { REVIEW_REMOTE_TEST_MERGE_SIGNAL: "1:KILL" } }).status,
    ).toBe(137);
    expect(bare.run(["list"], { cwd: dir }).stderr).toContain(
      `hint: to roll back: git review-remote merge --abort ${id}\n`,
    );
  });

  it("is refused inside a git directory too", () => {
    const repo = committedRepo();
    const result = repo.run([], { cwd: join(repo.dir, ".git") });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("must run in the work tree, not inside");
  });
});
