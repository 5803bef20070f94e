import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestRepo, type TestRepo } from "../helpers/repo.js";
import { convertOk, fixedFiles, readReport, treeFiles } from "../helpers/reviewer-formats.js";

let repo: TestRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

/** A repo holding `files`, committed, so git apply has the tree the report was made on. */
function repoWith(files: Map<string, Uint8Array>): TestRepo {
  const made = createTestRepo();
  made.git("config", "core.autocrlf", "false");
  for (const [path, bytes] of files) made.write(path, Buffer.from(bytes));
  made.commit("tree");
  return made;
}

function gitApply(target: TestRepo, patch: string): void {
  execFileSync("git", ["apply", "--whitespace=nowarn", "-"], {
    cwd: target.dir,
    env: target.env,
    input: patch,
  });
}

describe("diff reports applied by git", () => {
  it("ShellCheck's diff, made into git form, applies with git apply to exactly what GNU patch made of it", async () => {
    const report = await convertOk("diff", readReport("shellcheck.diff"));
    repo = repoWith(treeFiles());
    gitApply(repo, report.patch?.text ?? "");
    expect(repo.git("status", "--porcelain")).toBe(" M scripts/deploy.sh\n");
    const [[path, expected] = ["", new Uint8Array()]] = [...fixedFiles("shellcheck")];
    expect(readFileSync(join(repo.dir, path))).toEqual(Buffer.from(expected));
  });

  it("a plain diff creating, deleting and changing CRLF files without a final newline applies as written", async () => {
    const diff = [
      "--- /dev/null\t2024-01-01",
      "+++ b/docs/new.md\t2024-01-01",
      "@@ -0,0 +1 @@",
      "+# New",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-gone",
      "--- a/win.txt",
      "+++ b/win.txt",
      "@@ -1,2 +1,2 @@",
      " one\r",
      "-two",
      "\\ No newline at end of file",
      "+TWO",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    const report = await convertOk("diff", Buffer.from(diff));
    expect(report.patch?.files).toEqual(["docs/new.md", "old.txt", "win.txt"]);
    repo = repoWith(
      new Map([
        ["old.txt", Buffer.from("gone\n")],
        ["win.txt", Buffer.from("one\r\ntwo")],
      ]),
    );
    gitApply(repo, report.patch?.text ?? "");
    expect(repo.git("status", "--porcelain", "--untracked-files=all")).toBe(
      " D old.txt\n M win.txt\n?? docs/new.md\n",
    );
    expect(readFileSync(join(repo.dir, "win.txt"), "utf8")).toBe("one\r\nTWO");
    expect(readFileSync(join(repo.dir, "docs/new.md"), "utf8")).toBe("# New\n");
  });
});
