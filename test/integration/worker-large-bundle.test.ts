import { describe, expect, it } from "vitest";
import { HYGIENE_COMMIT_TITLE } from "../../src/worker/reviewers/hygiene.js";
import { wantsWritingThread } from "../../src/worker/unpack.js";
import { envelope, parseResult, startWorker, useBundledRepo, useWorkspaceRoot } from "./worker-helpers.js";

const workspaces = useWorkspaceRoot();

const FILES = 2100;

// A bundle large enough for the unpack's writing thread, which the worker keeps only when the
// machine had a core to spare while the bundle came: either way, every file is written and reviewed.
const target = useBundledRepo((repo) => {
  for (let i = 0; i < FILES; i++) repo.write(`dir${i % 30}/file${i}.ts`, `export const v${i} = ${i};\n`);
  repo.write("dir7/trailing.ts", "const a = 1;   \n");
  return repo.commit("many files");
});

describe("a worker given a bundle of more than 2,000 files", () => {
  it("writes the whole tree and reviews it, whether on a writing thread or not", async () => {
    expect(wantsWritingThread(FILES + 1)).toBe(true);
    const { child, done } = startWorker(["--sandbox=auto"], {
      root: workspaces.root,
      env: { REVIEW_REMOTE_DEBUG: "1" },
    });
    child.stdin?.end(envelope(target.request(), target.bundle));
    const run = await done;
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status).toBe("ok");
    expect(result.commits.map((commit) => commit.message.split("\n")[0])).toEqual([HYGIENE_COMMIT_TITLE]);
    const tree = target.applyProposals(result.commits.map((commit) => commit.patch));
    expect(target.fileInTree(tree, "dir7/trailing.ts")).toBe("const a = 1;\n");
    expect(target.fileInTree(tree, `dir${(FILES - 1) % 30}/file${FILES - 1}.ts`)).toBe(
      `export const v${FILES - 1} = ${FILES - 1};\n`,
    );
    // Where the machine's CPU time could be read over the bundle's arrival, the worker said which way.
    const said = /worker: -?[\d.]+ cores to spare: the tree is written (inline|on a thread)/.exec(run.stderr);
    if (said) expect(["inline", "on a thread"]).toContain(said[1]);
  });
});
