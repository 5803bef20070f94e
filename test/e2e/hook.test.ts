// The pre-push hook as users meet it: a real `git push` to a local bare remote, with the shipped
// shim installed by `install-hook` or called from husky's `.husky/pre-push`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";

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
    expect(repo.run(["install-hook"]).stdout).toContain("Updated the pre-push hook");
    writeFileSync(hook, "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const refused = repo.run(["install-hook"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("exists and is not ours");
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(repo.run(["install-hook", "--force"]).status).toBe(0);
    expect(readFileSync(hook, "utf8")).toContain("git review-remote hook pre-push");
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
    expect(result.stderr).toContain("review-remote: push blocked: 1 error(s) found");
    expect(remoteHead(repo)).toBe(before);
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
    expect(warned.stderr).toMatch(
      /review-remote: no review from 'down': worker 'down' exited with status 255/,
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
    repo.git("config", "review-remote.failClosed", "true");
    const blocked = push(repo);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain("push blocked: no review could be obtained");
    expect(remoteHead(repo)).not.toBe(head);
  });

  it("skips deletions", () => {
    const repo = pushableRepo();
    repo.run(["install-hook"]);
    repo.git("config", "review-remote.prePush", "block");
    repo.git("push", "-q", "--no-verify", "origin", "HEAD:refs/heads/tmp");
    const result = push(repo, {}, ["origin", ":refs/heads/tmp"]);
    expect(result.status, result.stderr).toBe(0);
    expect(repo.git("ls-remote", "origin", "refs/heads/tmp")).toBe("");
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
    writeFileSync(join(repo.dir, ".husky", "pre-push"), 'git review-remote hook pre-push "$@"\n');
    repo.git("config", "core.hooksPath", ".husky/_");
    repo.git("config", "review-remote.prePush", "block");
    commitConflictMarker(repo);
    const refused = repo.run(["install-hook"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("husky");
    const before = remoteHead(repo);
    const blocked = push(repo);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stderr).toContain("push blocked");
    expect(remoteHead(repo)).toBe(before);
    expect(push(repo, { REVIEW_REMOTE_SKIP: "1" }).status).toBe(0);
  });
});
