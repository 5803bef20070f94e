import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, createBaseRepo, FIXTURES, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
const outputs = mkdtempSync(join(tmpdir(), "rr-reuse-"));
afterAll(() => rmSync(outputs, { recursive: true, force: true }));

interface ExportJson {
  sha256: string;
  bytes: number;
  path: string;
  files: number;
  excluded: { path: string; reason: string }[];
}

const REUSED = "export: reused the stored bundle";

/** One export with its debug lines: what it printed, and whether it read a stored bundle back. */
function exportOnce(repo: TestRepo, args: string[] = []): { json: ExportJson; reused: boolean } {
  const result = repo.run(["export", "--json", ...args], { env: { REVIEW_REMOTE_DEBUG: "1" } });
  expect(result.status, result.stderr).toBe(0);
  const json = JSON.parse(result.stdout) as ExportJson;
  const reused = result.stderr.includes(`${REUSED} ${json.sha256}`);
  // Either read back, or built: never both, never neither.
  expect(reused).toBe(!result.stderr.includes("export: archived"));
  return { json, reused };
}

function sha256sum(path: string): string {
  return execFileSync("sha256sum", [path], { encoding: "utf8" }).split(" ")[0] as string;
}

function manifestOf(bundle: string): { sha256: string; files: unknown[] } {
  return JSON.parse(readFileSync(bundle.replace(/\.tar\.gz$/, ".manifest.json"), "utf8"));
}

function demoRepo(): TestRepo {
  const repo = createTestRepo();
  repos.add(repo);
  repo.write("src/app.ts", "export const a = 1;\n");
  repo.write("src/gen/table.ts", "export const table = [1, 2, 3];\n");
  repo.write("docs/guide.md", "# guide\n");
  repo.write(".env", "TOKEN=abc\n");
  repo.commit("base");
  return repo;
}

describe("export reuse", () => {
  it("reads the same commit's stored bundle back, byte for byte the bytes its manifest names", () => {
    const repo = demoRepo();
    const first = exportOnce(repo, ["-o", join(outputs, "first.tar.gz")]);
    expect(first.reused).toBe(false);
    const before = repoState(repo);
    const second = exportOnce(repo, ["-o", join(outputs, "second.tar.gz")]);
    expect(second.reused).toBe(true);
    // The same bundle, written to another file.
    expect(second.json).toEqual({ ...first.json, output: join(outputs, "second.tar.gz") });
    expect(readFileSync(join(outputs, "second.tar.gz"))).toEqual(readFileSync(join(outputs, "first.tar.gz")));
    expect(sha256sum(second.json.path)).toBe(second.json.sha256);
    expect(manifestOf(second.json.path).sha256).toBe(second.json.sha256);
    expect(manifestOf(second.json.path).files).toHaveLength(second.json.files);
    expect(repoState(repo)).toEqual(before);
  });

  it("exports again when the policy, its allow list, the pathspecs or the commit change", () => {
    const repo = demoRepo();
    const plain = exportOnce(repo);
    expect(plain.reused).toBe(false);

    // The policy file is read from the work tree: the same commit under another policy.
    repo.write(".review-remote.json", JSON.stringify({ exclude: ["gen/"] }));
    const excluding = exportOnce(repo);
    expect(excluding.reused).toBe(false);
    expect(excluding.json.sha256).not.toBe(plain.json.sha256);
    expect(excluding.json.excluded).toContainEqual({
      path: "src/gen/table.ts",
      reason: "policy exclude: gen/",
    });
    expect(exportOnce(repo).reused).toBe(true);

    // An allow list changes no byte of this bundle, but it is another scan: not read back.
    repo.write(
      ".review-remote.json",
      JSON.stringify({
        exclude: ["gen/"],
        secrets: { allow: [{ rule: "aws-access-token", path: "docs/**" }] },
      }),
    );
    const allowing = exportOnce(repo);
    expect(allowing.reused).toBe(false);
    expect(allowing.json.sha256).toBe(excluding.json.sha256);

    const selected = exportOnce(repo, ["--", "docs"]);
    expect(selected.reused).toBe(false);
    expect(selected.json.files).toBe(1);

    repo.write("docs/guide.md", "# guide, second edition\n");
    repo.commit("second");
    const next = exportOnce(repo);
    expect(next.reused).toBe(false);
    expect(next.json.sha256).not.toBe(allowing.json.sha256);
    // The first commit under the first policy is still remembered.
    rmSync(join(repo.dir, ".review-remote.json"));
    expect(exportOnce(repo, ["HEAD~1"]).reused).toBe(true);
  });

  it("exports again when the stored bundle is no longer what its name and manifest say", () => {
    const repo = demoRepo();
    const first = exportOnce(repo).json;
    chmodSync(first.path, 0o644);
    const altered = readFileSync(first.path);
    altered[altered.length - 5] = (altered[altered.length - 5] as number) ^ 0xff;
    writeFileSync(first.path, altered);
    const again = exportOnce(repo);
    expect(again.reused).toBe(false);
    expect(again.json).toEqual(first);
    expect(sha256sum(again.json.path)).toBe(first.sha256);

    // A manifest that names other bytes: exported again, not served.
    const manifest = first.path.replace(/\.tar\.gz$/, ".manifest.json");
    chmodSync(manifest, 0o644);
    writeFileSync(manifest, JSON.stringify({ sha256: "0".repeat(64), files: [] }));
    expect(exportOnce(repo).reused).toBe(false);
    expect(manifestOf(first.path).sha256).toBe(first.sha256);
    expect(exportOnce(repo).reused).toBe(true);
  });

  it("serves a second question from the stored bundle, and builds it again under --no-cache", () => {
    const repo = createBaseRepo();
    repos.add(repo);
    const result = join(repo.home, "result.json");
    writeFileSync(result, readFileSync(join(FIXTURES, "results", "01-benign-result.json")));
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, result));
    const ask = (args: string[]) => {
      const run = repo.run(["--worker", "fake", "--json", ...args], { env: { REVIEW_REMOTE_DEBUG: "1" } });
      expect(run.status, run.stderr).toBe(0);
      return run.stderr.includes(REUSED);
    };
    expect(ask(["-m", "first question"])).toBe(false);
    expect(ask(["-m", "second question"])).toBe(true);
    expect(ask(["-m", "third question", "--no-cache"])).toBe(false);
  });
});
