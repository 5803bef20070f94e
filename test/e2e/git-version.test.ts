// The git version floor on the real git: a supported git runs every command without being asked its
// version (start-up is measured), and the check itself passes there.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, createTrailingSpaceRepo, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();
const dir = mkdtempSync(join(tmpdir(), "rr-git-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** PATH first holds a `git` that writes its arguments to `log`, then runs the real git with them. */
function loggingGit(log: string): string {
  const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  const bin = mkdtempSync(join(dir, "bin-"));
  writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  return bin;
}

describe("a supported git", () => {
  it("runs the review, export, list and merge without being asked its version", () => {
    const repo = createTrailingSpaceRepo(repos);
    const log = join(dir, "calls.log");
    const env = { ...repo.env, PATH: `${loggingGit(log)}:${repo.env.PATH}` };
    const run = (args: string[]) => {
      const result = spawnSync(process.execPath, [BIN, ...args], { cwd: repo.dir, env, encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };
    const { id } = JSON.parse(run(["--json"])) as { id: string };
    run(["export"]);
    run(["list"]);
    repo.write("other.ts", "export const b = 2;\n");
    repo.commit("another commit, so that the merge previews with merge-tree");
    run(["merge", id]);
    const calls = readFileSync(log, "utf8").split("\n");
    expect(calls.some((call) => call.startsWith("merge-tree --write-tree"))).toBe(true);
    expect(calls.filter((call) => call === "version" || call === "--version")).toEqual([]);
  });
});
