// A tree's listing read as git writes it: many pipe reads, multi-byte names cut between them.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitError } from "../../src/errors.js";
import { cleanEnv } from "../../src/git/run.js";
import { listTree } from "../../src/git/trees.js";
import { createTestRepo, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();

describe("a tree's listing", () => {
  it("is every entry of ls-tree -r -z, across many pipe reads and names cut in their UTF-8", async () => {
    const repo = repos.add(createTestRepo());
    repo.write("blob", "content\n");
    const blob = repo.git("hash-object", "-w", "blob").trim();
    // ~4000 records of ~100 bytes: the listing spans several 64 KB reads, each name has 2- to
    // 4-byte characters, so some read ends inside one.
    const paths = Array.from(
      { length: 4000 },
      (_, i) => `dir-\u00e9${i % 17}/\u30d5\u30a1\u30a4\u30eb-${i}-\u{1f600}-\u00fc.txt`,
    );
    const info = paths.map((path, i) => `${i % 9 === 0 ? "100755" : "100644"} ${blob}\t${path}\n`).join("");
    const env = { ...repo.env, GIT_INDEX_FILE: join(repo.home, "index") };
    execFileSync("git", ["update-index", "--add", "--index-info"], { cwd: repo.dir, env, input: info });
    const tree = execFileSync("git", ["write-tree"], { cwd: repo.dir, env, encoding: "utf8" }).trim();
    const run = { cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) };

    const listed = await listTree(run, tree);

    const expected = repo
      .git("ls-tree", "-r", "-z", "--full-tree", tree)
      .split("\0")
      .filter((record) => record !== "")
      .map((record) => {
        const [meta = "", path = ""] = record.split("\t");
        const [mode, type, oid] = meta.split(" ");
        return { mode, type, oid, path };
      });
    expect(listed).toHaveLength(4000);
    expect(listed).toEqual(expected);
    expect(new Set(listed.map((entry) => entry.path))).toEqual(new Set(paths));
  });

  it("fails with git's own words for a tree-ish that is not there", async () => {
    const repo = repos.add(createTestRepo());
    const run = { cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) };
    const listing = listTree(run, "0".repeat(40));
    await expect(listing).rejects.toBeInstanceOf(GitError);
    await expect(listing).rejects.toThrow(/git ls-tree failed: fatal: not a tree object/);
  });
});
