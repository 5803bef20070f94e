// Ranges, questions, work-tree snapshots and the local worker, as users run them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const ECHO = join(FIXTURES, "workers", "echo-worker.mjs");

const repos = repoTracker();
function newRepo(): TestRepo {
  const repo = createTestRepo();
  repos.add(repo);
  return repo;
}

function asked(repo: TestRepo, args: string[]) {
  const result = repo.run(["--worker", "echo", "--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(JSON.parse(result.stdout).summary);
}

describe("what the request carries", () => {
  it("focuses a range on its changed paths and their patch, never on files kept back", () => {
    const repo = newRepo();
    configureWorker(repo, "echo", shellWords("node", ECHO));
    repo.write("src/a.ts", "a\n");
    repo.write("src/b.ts", "b\n");
    repo.write(".env", "TOKEN=one\n");
    const base = repo.commit("base");
    repo.write("src/a.ts", "a changed\n");
    repo.write(".env", "TOKEN=two\n");
    repo.commit("change");
    const seen = asked(repo, [`${base}..HEAD`]);
    expect(seen.range.paths).toEqual(["src/a.ts"]);
    expect(seen.range.patch).toContain("+a changed");
    expect(seen.range.patch).not.toContain("TOKEN");
    // The default is the last commit's change; only --all sends no range.
    expect(asked(repo, []).range.paths).toEqual(["src/a.ts"]);
    expect(asked(repo, ["--all"]).range).toBeNull();
  });

  it("asks the question from -m, else review-remote.question, else the policy file", () => {
    const repo = newRepo();
    configureWorker(repo, "echo", shellWords("node", ECHO));
    repo.write("a.txt", "a\n");
    repo.commit();
    repo.write(
      ".review-remote.json",
      JSON.stringify({ question: "From the policy?", limits: { maxCommits: 3 } }),
    );
    expect(asked(repo, []).question).toBe("From the policy?");
    expect(asked(repo, []).limits.maxCommits).toBe(3);
    repo.git("config", "review-remote.question", "From config?");
    expect(asked(repo, []).question).toBe("From config?");
    expect(asked(repo, ["-m", "From the flag?"]).question).toBe("From the flag?");
  });

  it("raises result limits from git config up to their ceilings; the policy file still lowers them", () => {
    const repo = newRepo();
    configureWorker(repo, "echo", shellWords("node", ECHO));
    repo.write("a.txt", "a\n");
    repo.commit();
    repo.git("config", "review-remote.maxPatchBytes", "4m");
    repo.git("config", "review-remote.maxComments", "2000");
    repo.git("config", "review-remote.maxCommits", "50");
    const raised = asked(repo, []).limits;
    expect(raised).toMatchObject({ maxPatchBytes: 4 * 1024 * 1024, maxComments: 2000, maxCommits: 50 });
    // The result must be able to carry what the raised limits allow.
    expect(raised.maxResultBytes).toBeGreaterThan(2 * 4 * 1024 * 1024);
    repo.write(".review-remote.json", JSON.stringify({ limits: { maxCommits: 3, maxPatchBytes: 1000 } }));
    expect(asked(repo, []).limits).toMatchObject({ maxPatchBytes: 1000, maxComments: 2000, maxCommits: 3 });

    repo.git("config", "review-remote.maxPatchBytes", "1g");
    const before = repoState(repo);
    const over = repo.run(["--worker", "echo"]);
    expect(over.status).toBe(2);
    expect(over.stderr).toBe(
      "git-review-remote: bad config value '1g' for review-remote.maxPatchBytes: expected a size in bytes from 1 to 32m (k, m and g multiply by 1024: 8m)\n" +
        "hint: change or remove it where it is set (git config --show-origin --get-all review-remote.maxPatchBytes names the file)\n",
    );
    expect(repoState(repo)).toEqual(before);
  });
});

describe("the local worker", () => {
  it("reviews HEAD with no configuration and proposes the hygiene fixes as review/<id>", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;   \nexport const b = 2;");
    repo.write("src/merge.ts", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n");
    repo.commit();
    const before = repoState(repo);
    const result = repo.run(["--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.worker).toBe("local");
    expect(json.comments).toContainEqual(
      expect.objectContaining({ path: "src/merge.ts", line: 1, severity: "error" }),
    );
    expect(repo.git("show", `${json.branch}:src/app.ts`)).toBe("export const a = 1;\nexport const b = 2;\n");
    expect({ ...repoState(repo), refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    const clean = newRepo();
    clean.write("a.txt", "fine\n");
    clean.commit();
    const nothing = clean.run([]);
    expect(nothing.status, nothing.stderr).toBe(0);
    expect(nothing.stdout).toContain("Nothing to propose.");
  });

  it("lists a review with one proposal as one commit, and its branch only while it exists", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;   \n");
    repo.commit();
    const result = repo.run(["--json"]);
    expect(result.status, result.stderr).toBe(0);
    const { id } = JSON.parse(result.stdout);
    expect(repo.run(["list"]).stdout).toMatch(
      new RegExp(`^${id} .* review/${id} +0 comments \\(0 errors\\), 1 proposed commit$`, "m"),
    );
    // Merged, its branch is gone (the record stays): the list says so rather than name it.
    expect(repo.run(["merge", id]).status).toBe(0);
    expect(repo.git("branch", "--list", `review/${id}`)).toBe("");
    expect(repo.run(["list"]).stdout).toMatch(new RegExp(`^${id} +merged .* - +0 comments`, "m"));
  });

  it("shows a work-tree review's proposals, not the uncommitted changes, with the diff it suggests", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.commit();
    repo.write("src/app.ts", "export const a = 1;\nexport const b = 2;   \n");
    const result = repo.run(["--worktree"]);
    expect(result.status, result.stderr).toBe(0);
    const suggested = /^ {2}git (diff [0-9a-f]{12} review\/[0-9a-f]{12})\b/m.exec(result.stdout);
    expect(suggested, result.stdout).not.toBeNull();
    const changed = repo
      .git(...(suggested?.[1] ?? "").split(" "))
      .split("\n")
      .filter((line) => /^[-+](?![-+]{2} )/.test(line));
    expect(changed).toEqual(["-export const b = 2;   ", "+export const b = 2;"]);
    // The next steps' comments stand in one column, the longer diff line's included.
    const next = result.stdout.slice(result.stdout.indexOf("Next:"));
    const columns = next.split("\n").flatMap((line) => (line.includes("#") ? [line.indexOf("#")] : []));
    expect(columns).toHaveLength(4);
    expect(new Set(columns).size, next).toBe(1);
  });

  it("reviews the work tree, keeps its snapshot reachable, and merges the proposals into the work tree", () => {
    const repo = newRepo();
    repo.write("src/app.ts", "export const a = 1;\n");
    repo.commit();
    repo.write("src/app.ts", "export const a = 2;   \n");
    repo.write("src/new.ts", "export const n = 1;");
    const before = repoState(repo);
    const result = repo.run(["--worktree", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.branch).toBe(`review/${json.id}`);
    expect(repo.git("rev-parse", `refs/review-remote/${json.id}/snapshot^{commit}`).trim()).toMatch(
      /^[0-9a-f]{40}$/,
    );
    expect(repo.git("show", `${json.branch}:src/new.ts`)).toBe("export const n = 1;\n");
    expect({ ...repoState(repo), refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    expect(repo.git("fsck", "--no-dangling").trim()).toBe("");
    const merged = repo.run(["merge", json.id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(repo.dir, "src/app.ts"), "utf8")).toBe("export const a = 2;\n");
    expect(readFileSync(join(repo.dir, "src/new.ts"), "utf8")).toBe("export const n = 1;\n");
    expect(repo.git("rev-parse", "HEAD")).toBe(`${before.head}\n`);
  });
});
