// The archive pass's safety net: a tar entry the filter should have kept back (a secret's name) stops
// the export, and its refusal names the entry as git quotes paths, never with raw bytes.
import { describe, expect, it } from "vitest";
import { inspectArchive } from "../../src/export/archive.js";
import { createScratch } from "../../src/git/scratch.js";
import { resolveRepo } from "../../src/repo.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { createTestRepo, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();

describe("a secret's name in the archive, past the filter", () => {
  it("is refused, named as git quotes it", async () => {
    const repo = repos.add(createTestRepo());
    repo.write("caf\u00e9/\x1b[31m/.env", "A=1\n");
    const commit = repo.commit("unfiltered");
    const scratch = await createScratch(await resolveRepo(repo.dir));
    try {
      await expect(inspectArchive({ scratch, commit, scanner: createContentScanner() })).rejects.toThrow(
        'refusing to export "caf\\303\\251/\\033[31m/.env": it matches the secret name rule dotenv',
      );
    } finally {
      await scratch.dispose();
    }
  });
});
