// The export's progress, as the review's progress line shows it: the archive may start ahead, on
// the whole snapshot, while its listing is filtered, and be thrown away when a file is left out.
// What the user sees must only ever move forward, and end at the size of the bundle's archive.
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBundle } from "../../src/export/bundle.js";
import { resolveRepo } from "../../src/repo.js";
import { createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();

/**
 * Enough files that the archive is well under way before the listing is filtered, and symlinks,
 * whose targets the filter reads, to make that take a while.
 */
function bigRepo(extra: Record<string, string>): TestRepo {
  const repo = repos.add(createTestRepo());
  const line = "const value = 'some ordinary source text for the archive to carry';\n";
  for (let dir = 0; dir < 40; dir++)
    for (let file = 0; file < 100; file++) {
      repo.write(`src/d${dir}/f${file}.ts`, line.repeat(20 + file));
      symlinkSync(`f${file}.ts`, join(repo.dir, `src/d${dir}/l${file}.ts`));
    }
  for (const [path, content] of Object.entries(extra)) repo.write(path, content);
  repo.commit();
  return repo;
}

async function exportProgress(repo: TestRepo): Promise<{ shown: number[]; files: number }> {
  const shown: number[] = [];
  const bundle = await createBundle(await resolveRepo(repo.dir), {
    rev: "HEAD",
    policy: {},
    reuse: false,
    onProgress: (bytes) => shown.push(bytes),
  });
  return { shown, files: bundle.files.length };
}

function isNonDecreasing(values: readonly number[]): boolean {
  return values.every((value, index) => index === 0 || value >= (values[index - 1] as number));
}

describe("the export's progress", () => {
  it("never goes back when the archive started ahead is thrown away for a file left out", async () => {
    // Late in the tree's order: the archive started ahead has gone a long way when it is dropped.
    const repo = bigRepo({ "zz/.env": "API_KEY=placeholder\n" });
    const { shown, files } = await exportProgress(repo);
    expect(files).toBe(8000);
    expect(shown.length).toBeGreaterThan(0);
    expect(isNonDecreasing(shown)).toBe(true);
  });

  it("goes on from where it was when the archive started ahead is the bundle", async () => {
    const repo = bigRepo({});
    const { shown, files } = await exportProgress(repo);
    expect(files).toBe(8000);
    expect(shown.length).toBeGreaterThan(0);
    expect(isNonDecreasing(shown)).toBe(true);
  });
});
