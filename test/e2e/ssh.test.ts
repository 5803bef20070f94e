// The ssh transport for real: a throwaway sshd on 127.0.0.1 (started by the global setup), and the
// worker reached as `ssh ... git-review-remote worker`, configured the way users configure theirs.
import { describe, expect, inject, it } from "vitest";
import { shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoState, repoTracker } from "../helpers/repo.js";

const sshd = inject("sshd");
if (!sshd) console.warn(`ssh transport tests skipped: ${inject("sshdReason")}`);

const repos = repoTracker();

describe.skipIf(!sshd)("ssh transport", () => {
  it("brings back a stored, schema-valid result from a worker over ssh", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("src/app.ts", "export const a = 1;   \n");
    repo.write("src/conflict.ts", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n");
    repo.commit();
    const config = sshd?.config as string;
    repo.git(
      "config",
      "review-remote.box.command",
      `ssh -F ${shellWords(config)} worker ${shellWords(process.execPath, BIN)} worker`,
    );
    const before = repoState(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.status).toBe("imported");
    expect(json.comments).toContainEqual(
      expect.objectContaining({ path: "src/conflict.ts", severity: "error" }),
    );
    expect(repo.git("show", `${json.branch}:src/app.ts`)).toBe("export const a = 1;\n");
    expect({ ...repoState(repo), refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    const audit = JSON.parse(repo.run(["audit", "--json"]).stdout);
    expect(audit[0]).toMatchObject({ worker: "box", reviewId: json.id });
    expect(audit[0].command).toContain("ssh -F");
  });

  it("reports an unreachable host as a worker failure, exit 3, with ssh's own words", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a\n");
    repo.commit();
    repo.git(
      "config",
      "review-remote.gone.command",
      `ssh -F ${shellWords(sshd?.config as string)} -p 1 worker true`,
    );
    const before = repoState(repo);
    const result = repo.run(["--worker", "gone"]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/remote: .*(refused|Connection)/);
    expect(repoState(repo)).toEqual(before);
  });
});
