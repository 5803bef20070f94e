// The pre-push hook as users meet it: a real `git push` to a local bare remote, with the shipped
// shim installed by `install-hook` or called from husky's `.husky/pre-push`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { okResult, useResultWorker } from "../helpers/fixtures.js";
import { createTestRepo, PROJECT_ROOT, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/** A clone with a bare remote `origin`, the shipped hook installed, and one pushed commit. */
function pushableRepo(): TestRepo {
  const repo = createTestRepo();
  repos.add(repo);
  const bare = join(repo.home, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", bare], { env: repo.env });
  repo.git("remote", "add", "origin", bare);
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.commit("base");
  repo.git("push", "-q", "origin", "HEAD:main");
  repo.git("fetch", "-q", "origin");
  return repo;
}

function push(repo: TestRepo, env: Record<string, string> = {}, args: string[] = ["origin", "HEAD:main"]) {
  const result = spawnSync("git", ["push", ...args], {
    cwd: repo.dir,
    env: { ...repo.env, ...env },
    encoding: "utf8",
  });
  return { status: result.status, stderr: result.stderr };
}

function remoteHead(repo: TestRepo): string {
  return repo.git("ls-remote", "origin", "refs/heads/main").split("\t")[0] as string;
}

/** A push reviewed by a worker that never answers, with `limit` (a time limit setting) at 1 s. */
function pushToSlowWorker(limit: string) {
  const repo = pushableRepo();
  repo.run(["install-hook"]);
  repo.git("config", "review-remote.worker", "slow");
  repo.git("config", "review-remote.slow.command", "sleep 30");
  repo.git("config", limit, "1");
  repo.write("src/b.ts", "export const b = 2;\n");
  const head = repo.commit("b");
  return { repo, head, result: push(repo) };
}

function commitConflictMarker(repo: TestRepo): string {
  repo.write("src/merge.ts", "<<<<<<< HEAD\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> feature\n");
  return repo.commit("add a conflict marker");
}

describe("pre-push hook", () => {
  it("installs the shim where git looks, and never clobbers a hook that is not ours", () => {
    const repo = pushableRepo();
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    const hook = join(repo.dir, ".git", "hooks", "pre-push");
    expect(readFileSync(hook, "utf8")).toContain("git review-remote hook pre-push");
    expect(repo.run(["install-hook"]).stdout).toBe(`The pre-push hook in ${hook} is up to date\n`);
    // An older shim's block is replaced, the rest of the hook kept.
    writeFileSync(hook, readFileSync(hook, "utf8").replace("hook pre-push", "hook pre-push --old"));
    expect(repo.run(["install-hook"]).stdout).toBe(`Updated the pre-push hook in ${hook}\n`);
    expect(readFileSync(hook, "utf8")).not.toContain("--old");
    writeFileSync(hook, "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const refused = repo.run(["install-hook"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("exists and is not ours");
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(repo.run(["install-hook", "--force"]).status).toBe(0);
    expect(readFileSync(hook, "utf8")).toContain("git review-remote hook pre-push");
  });

  it("stops a push with what to do when git-review-remote is not on PATH", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    const before = remoteHead(repo);
    repo.write("src/b.ts", "export const b = 2;\n");
    repo.commit("b");
    // A PATH with git and nothing of ours, as after an uninstall or under another node.
    const bin = join(repo.home, "git-only");
    mkdirSync(bin);
    symlinkSync(execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim(), join(bin, "git"));
    const stopped = push(repo, { PATH: bin });
    expect(stopped.status).not.toBe(0);
    expect(stopped.stderr).toContain(
      "review-remote: git-review-remote is not on PATH: the push stops rather than go unreviewed\n" +
        "hint: install it (npm install -g git-review-remote), push once with REVIEW_REMOTE_SKIP=1 git push,\n" +
        "hint: or remove the git-review-remote lines from ",
    );
    expect(stopped.stderr).not.toContain("is not a git command");
    expect(remoteHead(repo)).toBe(before);
    const skipped = push(repo, { PATH: bin, REVIEW_REMOTE_SKIP: "1" });
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(remoteHead(repo)).not.toBe(before);
  });

  it("blocks a push with a committed conflict marker in block mode", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "block");
    const before = remoteHead(repo);
    commitConflictMarker(repo);
    const result = push(repo);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("src/merge.ts:1 error");
    expect(result.stderr).toContain(
      "review-remote: push blocked: 1 error found (review-remote.prePush=block)\n",
    );
    expect(remoteHead(repo)).toBe(before);
  });

  it("counts a finding in several pushed branches once in the block's line", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "block");
    const before = remoteHead(repo);
    commitConflictMarker(repo);
    // A branch on top: its range holds the same commit, so its review finds the same marker.
    repo.git("branch", "feature");
    repo.git("checkout", "-q", "feature");
    repo.write("src/c.ts", "export const c = 3;\n");
    repo.commit("c");
    const result = push(repo, {}, ["origin", "feature~1:main", "feature"]);
    expect(result.status).not.toBe(0);
    const lines = result.stderr.split("\n");
    expect(
      lines.filter((line) => line.endsWith("src/merge.ts:1 error Unresolved merge conflict markers.")),
    ).toHaveLength(2);
    expect(result.stderr).toContain(
      "review-remote: push blocked: 1 error found (review-remote.prePush=block)\n",
    );
    expect(remoteHead(repo)).toBe(before);
  });

  it("says on the ref's line what was dropped of a worker's result, and lets the push go", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    useResultWorker(
      repo,
      okResult("One good comment, one bad.", [
        { path: "src/app.ts", line: 2, severity: "warning", message: "Good." },
        { path: "src/app.ts", line: 900, severity: "warning", message: "Out of range." },
      ]),
    );
    repo.write("src/app.ts", "export const a = 1;\nexport const b = 2;\n");
    repo.commit("b");
    const pushed = push(repo);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(
      /^review-remote: refs\/heads\/main \([0-9a-f]{7}\.\.[0-9a-f]{7}\): review ([0-9a-f]{12}): 1 comment \(1 comment dropped: git review-remote show \1\)$/m,
    );
    expect(pushed.stderr).toContain("src/app.ts:2 warning Good.");
  });

  it("prints the comments' paths as git prints paths, core.quotePath deciding", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    const names = ["caf\u00e9.ts", "tab\there.ts", "new\nline.ts"];
    const comments = names.map((path) => ({ path, line: 1, severity: "warning", message: "Look here." }));
    useResultWorker(repo, okResult("Paths.", comments));
    for (const [quotePath, cafe] of [
      ["true", '"caf\\303\\251.ts"'],
      ["false", "caf\u00e9.ts"],
    ] as const) {
      repo.git("config", "core.quotePath", quotePath);
      for (const name of names) repo.write(name, `${quotePath}\n`);
      repo.commit(`quotePath ${quotePath}`);
      const pushed = push(repo);
      expect(pushed.status, pushed.stderr).toBe(0);
      expect(pushed.stderr).toContain(
        [
          `review-remote:   ${cafe}:1 warning Look here.`,
          'review-remote:   "tab\\there.ts":1 warning Look here.',
          'review-remote:   "new\\nline.ts":1 warning Look here.',
        ].join("\n"),
      );
    }
  });

  it("reports and lets the push go in warn mode, and answers a re-push from the cache", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    const head = commitConflictMarker(repo);
    const first = push(repo, {}, ["origin", "HEAD:refs/heads/feature"]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain("src/merge.ts:1 error");
    repo.git("push", "-q", "origin", ":refs/heads/feature");
    const again = push(repo, {}, ["origin", "HEAD:refs/heads/feature"]);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain("(cached)");
    expect(repo.git("ls-remote", "origin", "refs/heads/feature")).toContain(head);
  });

  it("is skipped with REVIEW_REMOTE_SKIP=1", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "block");
    const head = commitConflictMarker(repo);
    const result = push(repo, { REVIEW_REMOTE_SKIP: "1" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("review-remote:");
    expect(remoteHead(repo)).toBe(head);
  });

  it("warns in one line and lets the push go when the worker is unreachable; failClosed blocks it", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.worker", "down");
    repo.git(
      "config",
      "review-remote.down.command",
      "echo 'ssh: Could not resolve hostname box' >&2; exit 255",
    );
    repo.write("src/b.ts", "export const b = 2;\n");
    const head = repo.commit("b");
    const warned = push(repo, {}, ["origin", "HEAD:refs/heads/warned"]);
    expect(warned.status, warned.stderr).toBe(0);
    // The worker named once, then what it said (the hook shows no line as it comes) and what to check.
    expect(warned.stderr).toMatch(
      /^review-remote: refs\/heads\/warned \(0000000\.\.[0-9a-f]{7}\): no review: worker 'down' exited with status 255\nreview-remote: {3}remote: ssh: Could not resolve hostname box\nreview-remote: {3}hint: check the command: git config review-remote\.down\.command\n/m,
    );
    repo.git("config", "review-remote.failClosed", "true");
    const blocked = push(repo);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain(
      "push blocked: no review could be obtained (review-remote.failClosed=true)",
    );
    expect(remoteHead(repo)).not.toBe(head);
  });

  it("blocks with failClosed when a secret stops the export, and warns without it", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.write("src/settings.ts", `export const key = "${["AK", "IA", "QYLPMN5HFIQR7XYZ"].join("")}";\n`);
    const head = repo.commit("a key");
    const warned = push(repo, {}, ["origin", "HEAD:refs/heads/warned"]);
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toContain("src/settings.ts:1: aws-access-token");
    // The refusal's hints follow its findings, as in a review's refusal: what to add to allow it.
    expect(warned.stderr).toMatch(
      /^review-remote: {3}hint: keep the file out with an "exclude" glob in \.review-remote\.json,$/m,
    );
    expect(warned.stderr).toMatch(
      /^review-remote: {3}hint: or, for a false positive, add \{"fingerprint": "[0-9a-f]{16}"\}/m,
    );
    repo.git("config", "review-remote.failClosed", "true");
    const blocked = push(repo);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain("push blocked: no review could be obtained");
    expect(remoteHead(repo)).not.toBe(head);
  });

  it("skips deletions, and says so in the ref's line", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "block");
    repo.git("push", "-q", "--no-verify", "origin", "HEAD:refs/heads/tmp");
    const head = repo.git("rev-parse", "HEAD").trim();
    const result = push(repo, {}, ["origin", ":refs/heads/tmp"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `review-remote: refs/heads/tmp (${head.slice(0, 7)}..0000000): deleted, nothing to review\n`,
    );
    expect(repo.git("ls-remote", "origin", "refs/heads/tmp")).toBe("");
  });

  it("has nothing new to review in a forced push that moves the branch back", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.write("src/b.ts", "export const b = 2;   \n");
    const ahead = repo.commit("b");
    expect(push(repo, {}, ["origin", "HEAD:main"]).status).toBe(0);
    const reviews = repo.run(["list", "--json"]).stdout;
    repo.git("reset", "-q", "--hard", "HEAD~1");
    const back = repo.git("rev-parse", "HEAD").trim();
    const result = push(repo, {}, ["--force", "origin", "HEAD:main"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `review-remote: refs/heads/main (${ahead.slice(0, 7)}..${back.slice(0, 7)}): nothing new to review\n`,
    );
    expect(result.stderr).not.toContain("goes backwards");
    // No review was run for it: the list is the first push's alone.
    expect(repo.run(["list", "--json"]).stdout).toBe(reviews);
    expect(remoteHead(repo)).toBe(back);
  });

  it("prints one line per pushed ref, 'nothing to report' included", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    const base = repo.git("rev-parse", "HEAD").trim();
    repo.write("src/b.ts", "export const b = 2;\n");
    const head = repo.commit("b");
    const result = push(repo, {}, ["origin", "HEAD:main", "HEAD:refs/heads/copy", "HEAD~1:refs/heads/old"]);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("review-remote:"));
    const range = `${base.slice(0, 7)}..${head.slice(0, 7)}`;
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^review-remote: refs/heads/main \\(${range}\\): review [0-9a-f]{12}: nothing to report$`),
      ),
      expect.stringMatching(
        new RegExp(
          `^review-remote: refs/heads/copy \\(0000000\\.\\.${head.slice(0, 7)}\\): review [0-9a-f]{12}: nothing to report$`,
        ),
      ),
      `review-remote: refs/heads/old (0000000..${base.slice(0, 7)}): nothing new to review`,
    ]);
    expect(remoteHead(repo)).toBe(head);
  });

  it("says the push review timed out, naming review-remote.prePushTimeout, and lets the push go", () => {
    const { repo, head, result } = pushToSlowWorker("review-remote.prePushTimeout");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^review-remote: refs\/heads\/main \([0-9a-f]{7}\.\.[0-9a-f]{7}\): timed out after 1 s \(review-remote\.prePushTimeout\)$/m,
    );
    expect(result.stderr).toContain(
      "hint: give the push's reviews more time: git config review-remote.prePushTimeout <seconds>",
    );
    expect(remoteHead(repo)).toBe(head);
    // Its record says the time ran out, not that someone pressed Ctrl-C.
    const [review] = JSON.parse(repo.run(["list", "--json"]).stdout);
    expect(review.state).toBe("failed");
    expect(review.problems).toEqual([
      "timed out after 1 s (review-remote.prePushTimeout); the worker was stopped and nothing was imported",
    ]);
  });

  it("gives a worker past review-remote.timeout the config that gives it more time, not a flag", () => {
    const { repo, head, result } = pushToSlowWorker("review-remote.timeout");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("did not answer within 1 s (review-remote.timeout)");
    expect(result.stderr).toContain(
      "hint: give the worker more time: git config review-remote.timeout <seconds> (the policy's limits.timeoutSeconds caps it)",
    );
    expect(result.stderr).not.toContain("--timeout");
    expect(remoteHead(repo)).toBe(head);
  });
});

/** A review branch made the way users make one: a review whose worker proposed a fix. */
function withReviewBranch(repo: TestRepo): string {
  repo.write("src/b.ts", "export const b = 2;   \n");
  repo.commit("b, with trailing spaces");
  const reviewed = repo.run([]);
  expect(reviewed.status, reviewed.stderr).toBe(0);
  const branch = /branch (review\/[0-9a-f]{12})/.exec(reviewed.stdout)?.[1];
  expect(branch, reviewed.stdout).toBeDefined();
  return branch as string;
}

describe("pre-push hook and review branches", () => {
  it("refuses git push --all with a review branch: nothing is published, nothing reviewed", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    const branch = withReviewBranch(repo);
    const reviews = repo.run(["list", "--json"]).stdout;
    const before = repo.git("ls-remote", "origin");
    const result = push(repo, {}, ["--all", "origin"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`review-remote: refs/heads/${branch} (0000000..`);
    expect(result.stderr).toContain("): refused: review branches stay local\n");
    expect(result.stderr).toMatch(
      /^review-remote: refs\/heads\/main \(.*\): not pushed: the push is refused$/m,
    );
    expect(result.stderr).toContain("hint: to publish one anyway: REVIEW_REMOTE_SKIP=1 git push");
    expect(result.stderr).toContain(
      "hint: push your branches by name (git push origin <branch>), not with --all or --mirror;\n",
    );
    expect(repo.git("ls-remote", "origin")).toBe(before);
    expect(repo.git("ls-remote", "origin", "refs/heads/review/*")).toBe("");
    expect(repo.run(["list", "--json"]).stdout).toBe(reviews);
    // The hint names the remote pushed to, as the user must type it.
    repo.git("remote", "add", "fork", repo.git("remote", "get-url", "origin").trim());
    const fork = push(repo, {}, ["--all", "fork"]);
    expect(fork.status).not.toBe(0);
    expect(fork.stderr).toContain("hint: push your branches by name (git push fork <branch>),");
    expect(repo.git("ls-remote", "origin")).toBe(before);
  });

  it("refuses git push --mirror, which would also carry the tool's own refs/review-remote/*", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.write("src/b.ts", "export const b = 2;   \n");
    const result = repo.run(["--worktree", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { id, branch } = JSON.parse(result.stdout);
    repo.git("branch", "-D", branch);
    expect(repo.git("for-each-ref", "--format=%(refname)", "refs/review-remote/")).toContain(id);
    const before = repo.git("ls-remote", "origin");
    const mirrored = push(repo, {}, ["--mirror", "origin"]);
    expect(mirrored.status).not.toBe(0);
    expect(mirrored.stderr).toMatch(
      new RegExp(
        `^review-remote: refs/review-remote/${id}/\\S+ \\(0000000\\.\\.[0-9a-f]{7}\\): refused: review branches stay local$`,
        "m",
      ),
    );
    expect(repo.git("ls-remote", "origin")).toBe(before);
  });

  it("refuses a review branch pushed by name or onto one, even with prePush=off; deleting one is fine", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "off");
    const branch = withReviewBranch(repo);
    const byName = push(repo, {}, ["origin", branch]);
    expect(byName.status).not.toBe(0);
    expect(byName.stderr).toContain("refused: review branches stay local");
    const onto = push(repo, {}, ["origin", "HEAD:refs/heads/review/mine"]);
    expect(onto.status).not.toBe(0);
    expect(repo.git("ls-remote", "origin", "refs/heads/review/*")).toBe("");
    const skipped = push(repo, { REVIEW_REMOTE_SKIP: "1" }, ["origin", branch]);
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(repo.git("ls-remote", "origin", `refs/heads/${branch}`)).not.toBe("");
    const deleted = push(repo, {}, ["origin", `:${branch}`]);
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(repo.git("ls-remote", "origin", "refs/heads/review/*")).toBe("");
  });

  it("lets a push from a bare repository go, unreviewed, saying so per ref", () => {
    const repo = pushableRepo();
    const mirror = join(repo.home, "mirror.git");
    execFileSync("git", ["clone", "-q", "--bare", repo.dir, mirror], { env: repo.env });
    // A hook set for every repository, as a global core.hooksPath does it.
    const hooks = join(repo.home, "hooks");
    mkdirSync(hooks);
    writeFileSync(join(hooks, "pre-push"), readFileSync(join(PROJECT_ROOT, "hooks", "pre-push")), {
      mode: 0o755,
    });
    const bareGit = (...args: string[]) =>
      spawnSync("git", args, { cwd: mirror, env: repo.env, encoding: "utf8" });
    bareGit("config", "core.hooksPath", hooks);
    const refs = bareGit("for-each-ref").stdout;
    const pushed = bareGit("push", "origin", "main:refs/heads/from-mirror");
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(
      /^review-remote: refs\/heads\/from-mirror \(0000000\.\.[0-9a-f]{7}\): not reviewed: a bare repository has no work tree$/m,
    );
    expect(bareGit("for-each-ref").stdout).toBe(refs);
    expect(existsSync(join(mirror, "review-remote"))).toBe(false);
  });

  it("installs where git runs hooks, and prints that path as git would", () => {
    const repo = pushableRepo();
    mkdirSync(join(repo.dir, "sub"));
    // Relative to the top of the work tree, with a trailing space that is part of the name.
    repo.git("config", "core.hooksPath", "team hooks ");
    const installed = repo.run(["install-hook"], { cwd: join(repo.dir, "sub") });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(`Installed the pre-push hook in ${repo.dir}/team hooks /pre-push\n`);
    expect(existsSync(join(repo.dir, "team hooks ", "pre-push"))).toBe(true);
    expect(existsSync(join(repo.dir, "team hooks"))).toBe(false);
    // git runs it from there.
    repo.write("src/b.ts", "export const b = 2;\n");
    repo.commit("b");
    const pushed = push(repo);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(/^review-remote: refs\/heads\/main \([0-9a-f]{7}\.\.[0-9a-f]{7}\): /m);
    // A name with a line break or a non-ASCII letter is quoted, as git quotes paths (core.quotePath).
    repo.git("config", "core.hooksPath", "hooks\nnew");
    expect(repo.run(["install-hook"]).stdout).toBe(
      `Installed the pre-push hook in "${repo.dir}/hooks\\nnew/pre-push"\n`,
    );
    expect(existsSync(join(repo.dir, "hooks\nnew", "pre-push"))).toBe(true);
    repo.git("config", "core.hooksPath", "crochets-\u00e9");
    expect(repo.run(["install-hook"]).stdout).toBe(
      `Installed the pre-push hook in "${repo.dir}/crochets-\\303\\251/pre-push"\n`,
    );
    repo.git("config", "core.quotePath", "false");
    expect(repo.run(["install-hook"]).stdout).toBe(
      `The pre-push hook in ${repo.dir}/crochets-\u00e9/pre-push is up to date\n`,
    );
  });

  it("in a hooks directory the repository tracks: says the hook is untracked, and how to keep or share it", () => {
    const repo = pushableRepo();
    // A team's hooks, committed, that core.hooksPath names (as vuejs/core's .vite-hooks/_).
    repo.write(".githooks/pre-commit", "#!/bin/sh\nexit 0\n");
    repo.commit("team hooks");
    repo.git("config", "core.hooksPath", ".githooks");
    mkdirSync(join(repo.dir, "sub"));
    const installed = repo.run(["install-hook"], { cwd: join(repo.dir, "sub") });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(`Installed the pre-push hook in ${repo.dir}/.githooks/pre-push\n`);
    expect(installed.stderr).toBe(
      [
        "hint: ../.githooks/pre-push is untracked in ../.githooks, a hooks directory this repository tracks: git status lists it",
        `hint: keep it to this clone: echo /.githooks/pre-push >> ${repo.dir}/.git/info/exclude`,
        "hint: or share it (every clone then needs git-review-remote to push): git add ../.githooks/pre-push && git commit",
        "",
      ].join("\n"),
    );
    expect(repo.git("status", "--porcelain")).toBe("?? .githooks/pre-push\n");
    // The team's hook is as it was.
    expect(readFileSync(join(repo.dir, ".githooks", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
    // Kept out as the hint says, or shared: nothing more to say.
    execFileSync("sh", ["-c", "echo /.githooks/pre-push >> .git/info/exclude"], { cwd: repo.dir });
    expect(repo.git("status", "--porcelain")).toBe("");
    expect(repo.run(["install-hook"]).stderr).toBe("");
    writeFileSync(join(repo.dir, ".git", "info", "exclude"), "");
    repo.git("add", ".githooks/pre-push");
    repo.commit("share the review hook");
    expect(repo.run(["install-hook"]).stderr).toBe("");
  });

  it("in a global core.hooksPath, warns that every repository runs it and says how one opts out", () => {
    const repo = pushableRepo();
    const shared = join(repo.home, "all-hooks");
    mkdirSync(shared);
    repo.git("config", "--global", "core.hooksPath", shared);
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(`Installed the pre-push hook in ${shared}/pre-push\n`);
    expect(installed.stderr).toBe(
      `warning: core.hooksPath is set in ${repo.home}/.gitconfig, not in this repository: the hook runs on every push of every repository that uses it\n` +
        "hint: in a repository it should leave alone: git config review-remote.prePush off (or give that repository a core.hooksPath of its own)\n",
    );
    // The repository's own core.hooksPath is its own business: no warning.
    repo.git("config", "core.hooksPath", ".githooks");
    expect(repo.run(["install-hook"]).stderr).toBe("");
  });

  it("with a relative core.hooksPath, names the linked work trees whose own copy has no hook", () => {
    const repo = pushableRepo();
    repo.git("config", "core.hooksPath", ".githooks");
    const linked = join(repo.home, "linked");
    repo.git("worktree", "add", "-q", "-b", "side", linked);
    const installed = repo.run(["install-hook"]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).toBe(
      `warning: core.hooksPath is relative: the linked work tree ${linked} runs the pre-push of its own checkout, which does not run the review\n` +
        `hint: install it there too: git -C ${linked} review-remote install-hook\n`,
    );
    // As the hint says: then neither says more, and a push from the linked work tree is reviewed.
    const there = repo.run(["install-hook"], { cwd: linked });
    expect(there.status, there.stderr).toBe(0);
    expect(there.stderr).toBe("");
    expect(repo.run(["install-hook"]).stderr).toBe("");
    const pushed = spawnSync("git", ["push", "origin", "side"], {
      cwd: linked,
      env: repo.env,
      encoding: "utf8",
    });
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(/^review-remote: refs\/heads\/side \(/m);
  });

  it("in a tracked hooks directory, leaves a pre-push of the team's as it is, tracked or not", () => {
    const repo = pushableRepo();
    repo.write(".githooks/pre-push", "#!/bin/sh\nnpm test\n");
    repo.commit("the team's pre-push");
    repo.git("config", "core.hooksPath", ".githooks");
    const refused = runUnchanged(repo, ["install-hook"], 1);
    expect(refused.stderr).toContain(
      `${repo.dir}/.githooks/pre-push exists and is not ours; leaving it as it is`,
    );
    // The line to add is the way; --force is named with what it does to a hook every clone shares.
    expect(refused.stderr).toContain(
      'hint: add this line to it: git review-remote hook pre-push "$@" || exit $?\n',
    );
    expect(refused.stderr).toContain(
      "hint: the repository tracks it: replacing it (install-hook --force) changes the hook of every clone once committed\n",
    );
    expect(readFileSync(join(repo.dir, ".githooks", "pre-push"), "utf8")).toBe("#!/bin/sh\nnpm test\n");
    expect(repo.git("status", "--porcelain")).toBe("");
    repo.git("rm", "-q", "--cached", ".githooks/pre-push");
    repo.git("commit", "-q", "-m", "untrack it");
    expect(repo.git("status", "--porcelain")).toBe("?? .githooks/\n");
    const untracked = runUnchanged(repo, ["install-hook"], 1);
    expect(untracked.stderr).toContain("exists and is not ours; leaving it as it is");
    expect(untracked.stderr).toContain("hint: or replace it: git review-remote install-hook --force\n");
    expect(readFileSync(join(repo.dir, ".githooks", "pre-push"), "utf8")).toBe("#!/bin/sh\nnpm test\n");
  });

  it("with husky 4 or older, whose hooks its installs rewrite: --force, or its pre-push command", () => {
    const repo = pushableRepo();
    const hook = join(repo.dir, ".git", "hooks", "pre-push");
    // What husky 4 writes for every hook, a pre-push included, whatever its configuration names.
    const runner = '#!/bin/sh\n# husky\n\n# Created by Husky v4.3.8\n. "$(dirname "$0")/husky.sh"\n';
    writeFileSync(hook, runner, { mode: 0o755 });
    const configure = (hooks: Record<string, string>) =>
      writeFileSync(join(repo.dir, "package.json"), JSON.stringify({ husky: { hooks } }));
    configure({ "pre-commit": "lint-staged" });
    const idle = runUnchanged(repo, ["install-hook"], 1);
    expect(idle.stderr).toBe(
      `git-review-remote: ${hook} is husky's (husky 4 or older), which its next install rewrites: a line added there would not last; leaving it as it is\n` +
        "hint: husky runs no pre-push here and keeps a hook it did not write: replace it: git review-remote install-hook --force\n",
    );
    expect(readFileSync(hook, "utf8")).toBe(runner);
    // A pre-push of the team's in husky's configuration: --force would drop it, so its command is the way.
    configure({ "pre-push": "npm test" });
    const busy = runUnchanged(repo, ["install-hook"], 1);
    expect(busy.stderr).toContain(
      `hint: husky runs a pre-push here: add to its command (package.json's "husky" hooks, or .huskyrc): && printf '%s\\n' "$HUSKY_GIT_STDIN" | git review-remote hook pre-push $HUSKY_GIT_PARAMS\n`,
    );
    expect(readFileSync(hook, "utf8")).toBe(runner);
    configure({
      "pre-push": `npm test && printf '%s\\n' "$HUSKY_GIT_STDIN" | git review-remote hook pre-push $HUSKY_GIT_PARAMS`,
    });
    const done = repo.run(["install-hook"]);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toBe(
      `husky's pre-push (${hook}) runs git review-remote hook pre-push already, as its configuration says\n`,
    );
    expect(readFileSync(hook, "utf8")).toBe(runner);
  });

  it("warns when the project's simple-git-hooks would delete the hook at its next install", () => {
    const repo = pushableRepo();
    const hook = join(repo.dir, ".git", "hooks", "pre-push");
    // As vuejs/core configures it: the hooks it names, none kept that it does not.
    const configure = (hooks: Record<string, unknown>) =>
      writeFileSync(join(repo.dir, "package.json"), JSON.stringify({ "simple-git-hooks": hooks }));
    configure({ "pre-commit": "pnpm lint-staged" });
    const warned = repo.run(["install-hook"]);
    expect(warned.status, warned.stderr).toBe(0);
    expect(readFileSync(hook, "utf8")).toContain("git review-remote hook pre-push");
    expect(warned.stderr).toContain(
      "warning: this repository's simple-git-hooks deletes the hooks its configuration does not name when it installs",
    );
    expect(warned.stderr).toContain(
      'hint: keep it: add "preserveUnused": ["pre-push"] to the "simple-git-hooks" configuration, or name it there: "pre-push": "git review-remote hook pre-push \\"$@\\""\n',
    );
    for (const kept of [
      { "pre-commit": "x", preserveUnused: ["pre-push"] },
      { "pre-commit": "x", preserveUnused: true },
      { "pre-push": 'git review-remote hook pre-push "$@"' },
    ]) {
      configure(kept);
      const quiet = repo.run(["install-hook"]);
      expect(quiet.status, quiet.stderr).toBe(0);
      expect(quiet.stderr, JSON.stringify(kept)).toBe("");
    }
  });

  it("works the husky way, from .husky/pre-push through core.hooksPath", () => {
    const repo = pushableRepo();
    mkdirSync(join(repo.dir, ".husky", "_"), { recursive: true });
    // What husky 9 generates: core.hooksPath=.husky/_ whose shims run .husky/<hook>.
    writeFileSync(
      join(repo.dir, ".husky", "_", "pre-push"),
      '#!/bin/sh\nexec sh "$(dirname "$0")/../pre-push" "$@"\n',
      {
        mode: 0o755,
      },
    );
    const huskyHook = join(repo.dir, ".husky", "pre-push");
    writeFileSync(huskyHook, "npm test\n# git review-remote hook pre-push\n");
    repo.git("config", "core.hooksPath", ".husky/_");
    repo.git("config", "review-remote.prePush", "block");
    commitConflictMarker(repo);
    const refused = repo.run(["install-hook"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "git-review-remote: this repository runs its hooks through husky\n" +
        'hint: add a line to .husky/pre-push instead: git review-remote hook pre-push "$@"\n',
    );
    expect(readFileSync(huskyHook, "utf8")).toBe("npm test\n# git review-remote hook pre-push\n");
    // Once the line is there, as the hint says, installing again says so rather than repeat it.
    writeFileSync(huskyHook, 'npm test\ngit review-remote hook pre-push "$@"\n');
    const again = repo.run(["install-hook"]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${huskyHook} runs git review-remote hook pre-push already; husky runs it\n`);
    expect(again.stderr).toBe("");
    expect(readFileSync(huskyHook, "utf8")).toBe('npm test\ngit review-remote hook pre-push "$@"\n');
    expect(existsSync(join(repo.dir, ".git", "hooks", "pre-push"))).toBe(false);
    const before = remoteHead(repo);
    const blocked = push(repo);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain("push blocked");
    expect(remoteHead(repo)).toBe(before);
    expect(push(repo, { REVIEW_REMOTE_SKIP: "1" }).status).toBe(0);
  });
});
