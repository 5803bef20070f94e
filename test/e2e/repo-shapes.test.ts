// Repositories of other shapes than the usual: a path with ':' (git splits alternates on it), file
// names with control characters (no patch may carry them), a submodule and SHA-256 object names. The whole flow runs on them: export, review on the local worker, merge.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/** A repo whose one file has trailing whitespace: the built-in reviewer proposes one commit. */
function untidyRepo(options: Parameters<typeof createTestRepo>[0]): TestRepo {
  const repo = repos.add(createTestRepo(options));
  repo.write("a.txt", "tidy\nuntidy  \n");
  repo.write("b.txt", "other\n");
  repo.commit("base");
  return repo;
}

function reviewId(repo: TestRepo, args: string[] = []): string {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  const json = JSON.parse(result.stdout) as { id: string; status: string; commits: number };
  expect(json).toMatchObject({ status: "imported", commits: 1 });
  return json.id;
}

describe("a repository whose path contains ':'", () => {
  it("merges a review after HEAD moved, without a false conflict", () => {
    const repo = untidyRepo({ name: "co:lon" });
    expect(repo.dir).toContain(":");
    const id = reviewId(repo);
    repo.write("b.txt", "moved on\n");
    const head = repo.commit("meanwhile");
    const merged = repo.run(["merge", id]);
    expect(merged.stderr).not.toContain("conflict");
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(`Merged review ${id} into HEAD.`);
    expect(repo.git("rev-parse", "HEAD^1").trim()).toBe(head);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe("tidy\nuntidy\n");
  });

  it("applies a work-tree review to the work tree", () => {
    const repo = untidyRepo({ name: "co:lon" });
    repo.write("c.txt", "new  \n");
    const id = reviewId(repo, ["--worktree"]);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(repo.dir, "c.txt"), "utf8")).toBe("new\n");
  });
});

describe("a repository with a space, non-ASCII letters, a newline and a tab in file names", () => {
  it("proposes the fixes of the names a patch can carry, and leaves the others out with a warning", () => {
    const repo = repos.add(createTestRepo({ name: "sp ace ünï" }));
    const names = { plain: "sp ace/ünï/fïle name.ts", newline: "new\nline.ts", tab: "tab\tname.ts" };
    for (const name of Object.values(names)) repo.write(name, "a\n");
    repo.commit("base");
    for (const name of Object.values(names)) repo.write(name, "a\nb  \n");
    repo.commit("trailing spaces");
    const result = repo.run(["--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      branch: string;
      comments: { path: string; message: string }[];
    };
    const proposed = repo.git("diff", "-z", "--name-only", "HEAD", json.branch).split("\0").filter(Boolean);
    expect(proposed).toEqual([names.plain]);
    expect(json.comments.map((comment) => comment.path).sort()).toEqual([names.newline, names.tab].sort());
    for (const comment of json.comments)
      expect(comment.message).toMatch(/left out: .* contains a control character/);
  });
});

describe("a repository with a submodule", () => {
  it("merges a review beside a submodule with edits of its own at another commit, keeping both", () => {
    // Like git merge: the submodule is an uncommitted change to a path the proposals do not touch.
    const dep = repos.add(createTestRepo({ name: "dep" }));
    dep.write("d.txt", "dep\n");
    dep.commit("dep");
    const repo = untidyRepo({ name: "super" });
    repo.git("-c", "protocol.file.allow=always", "submodule", "-q", "add", dep.dir, "dep");
    repo.commit("add the submodule");
    repo.write("a.txt", "tidy\nuntidy  \nmore  \n");
    repo.commit("more untidy");
    const id = reviewId(repo);
    const inDep = (...args: string[]) =>
      execFileSync("git", args, { cwd: join(repo.dir, "dep"), env: repo.env, encoding: "utf8" });
    writeFileSync(join(repo.dir, "dep", "d.txt"), "moved on in the submodule\n");
    inDep("commit", "-qam", "moved on");
    const moved = inDep("rev-parse", "HEAD").trim();
    writeFileSync(join(repo.dir, "dep", "d.txt"), "edited in the submodule\n");
    const recorded = repo.git("rev-parse", "HEAD:dep").trim();
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe("tidy\nuntidy  \nmore\n");
    expect(inDep("rev-parse", "HEAD").trim()).toBe(moved);
    expect(readFileSync(join(repo.dir, "dep", "d.txt"), "utf8")).toBe("edited in the submodule\n");
    expect(repo.git("rev-parse", "HEAD:dep").trim()).toBe(recorded);
    expect(repo.git("status", "--porcelain", "--", "dep")).toBe(" M dep\n");
  });
});

describe("merge-tree failing for another reason than a conflict", () => {
  it("exits 1 with git's reason, not 5, and changes nothing", () => {
    const repo = untidyRepo({});
    const id = reviewId(repo);
    repo.write("b.txt", "moved on\n");
    repo.commit("meanwhile");
    // The proposal's tree goes missing: merge-tree cannot read it (exit 128), which is no conflict.
    const tree = repo.git("rev-parse", `review/${id}^{tree}`).trim();
    rmSync(join(repo.dir, ".git", "objects", tree.slice(0, 2), tree.slice(2)));
    const merged = runUnchanged(repo, ["merge", id], 1);
    expect(merged.stderr).toContain("git-review-remote: git merge-tree failed:");
    expect(merged.stderr).not.toContain("conflict");
  });
});

describe("a SHA-256 repository", () => {
  it("lists and exports its bundle", () => {
    const repo = untidyRepo({ objectFormat: "sha256" });
    const head = repo.git("rev-parse", "HEAD").trim();
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    const list = repo.run(["export", "--list", "--json"]);
    expect(list.status, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as { snapshot: { commit: string }; files: { path: string }[] };
    expect(listed.snapshot.commit).toBe(head);
    expect(listed.files.map((file) => file.path)).toEqual(["a.txt", "b.txt"]);
    const exported = repo.run(["export", "--json", "--", "a.txt"]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ files: 1, excluded: [{ path: "b.txt" }] });
  });

  it("reviews on the local worker, imports the proposal and merges it", () => {
    const repo = untidyRepo({ objectFormat: "sha256" });
    const base = repo.git("rev-parse", "HEAD").trim();
    const id = reviewId(repo);
    const tip = repo.git("rev-parse", `review/${id}`).trim();
    expect(tip).toMatch(/^[0-9a-f]{64}$/);
    expect(repo.git("rev-parse", `review/${id}^`).trim()).toBe(base);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(tip);
    expect(readFileSync(join(repo.dir, "a.txt"), "utf8")).toBe("tidy\nuntidy\n");
    expect(repo.git("fsck", "--no-dangling").trim()).toBe("");
  });

  it("reviews a range and a work tree, and merges the work-tree review with an undo point", () => {
    const repo = untidyRepo({ objectFormat: "sha256" });
    repo.write("b.txt", "other  \n");
    repo.commit("second");
    expect(reviewId(repo, ["HEAD~1..HEAD"])).toMatch(/^[0-9a-f]{12}$/);
    repo.write("c.txt", "new  \n");
    const id = reviewId(repo, ["--worktree", "--no-cache"]);
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(repo.dir, "c.txt"), "utf8")).toBe("new\n");
    const undo = repo.git("rev-parse", `refs/review-remote/${id}/pre-merge`).trim();
    expect(undo).toMatch(/^[0-9a-f]{64}$/);
    // A merged review keeps its undo point through drop; an unmerged one's refs all go.
    expect(repo.run(["drop", id]).status).toBe(0);
    expect(repo.git("rev-parse", `refs/review-remote/${id}/pre-merge`).trim()).toBe(undo);
    repo.write("c.txt", "newer  \n");
    const other = reviewId(repo, ["--worktree", "--no-cache"]);
    expect(repo.git("for-each-ref", `refs/review-remote/${other}/`)).not.toBe("");
    const dropped = repo.run(["drop", other]);
    expect(dropped.status, dropped.stderr).toBe(0);
    expect(repo.git("for-each-ref", `refs/review-remote/${other}/`)).toBe("");
  });
});
