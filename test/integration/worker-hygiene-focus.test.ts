// The built-in reviewer on a focused request, as the worker receives it: the range's patch is real
// `git diff-tree -p` output, and only what the change added may be fixed.
import { describe, expect, it } from "vitest";
import { envelope, parseResult, runWorkerOn, useBundledRepo, useWorkspaceRoot } from "./worker-helpers.js";

const workspaces = useWorkspaceRoot();
let base: string;
/** Its snapshot is the change's head; `base` is the commit before. */
const target = useBundledRepo((repo) => {
  repo.write(".git/info/attributes", "* -text -filter -ident -export-subst -working-tree-encoding\n");
  repo.write("src/app.ts", "const kept = 1;   \nconst also = 2;\n");
  repo.write("notes.md", "Title\n");
  repo.write("generated.txt", "x\n");
  repo.write("data.bin", "a\n");
  repo.write("style.css", "a {}\n");
  repo.write("fixed-format.txt", "old");
  repo.write(
    ".gitattributes",
    "generated.txt -whitespace\ndata.bin binary\nstyle.css whitespace=-blank-at-eol\n",
  );
  repo.write(".editorconfig", "root = true\n[*.txt]\ninsert_final_newline = false\n");
  base = repo.commit("base");
  repo.write("src/app.ts", "const kept = 1;   \nconst also = 2;\nconst added = 3;  \n");
  repo.write("notes.md", "Title\nhard break  \nsoft space \n");
  repo.write("generated.txt", "x\ny  \n");
  repo.write("data.bin", "a\nb  \n");
  repo.write("style.css", "a {}\nb {}  ");
  repo.write("fixed-format.txt", "old\nnew  ");
  repo.write("src/__snapshots__/app.ts.snap", "exports[`x`] = `  \n`;\n");
  repo.write("test/fixtures/input.txt", "spaced  ");
  return repo.commit("change");
});

/** The change's whole patch, as the export makes it. */
function fullPatch(): string {
  return target.repo.git("diff-tree", "-p", "--no-renames", base, target.snapshot);
}

function focusedRequest(patch?: string) {
  const head = target.snapshot;
  const paths = target.repo
    .git("diff-tree", "-r", "-z", "--name-only", "--no-renames", base, head)
    .split("\0")
    .filter(Boolean);
  return target.request({ range: { base, head, paths, patch: patch ?? fullPatch() } });
}

/** Each file the proposal changes, as `git diff -U0` lines of it. */
function changedLines(patch: string): Record<string, string[]> {
  const files: Record<string, string[]> = {};
  let current = "";
  for (const line of patch.split("\n")) {
    const header = /^diff --git a\/(\S+) /.exec(line);
    if (header) {
      current = header[1] as string;
      files[current] = [];
    } else if (/^[-+](?![-+]{2} )/.test(line)) files[current]?.push(line);
  }
  return files;
}

describe("hygiene on a focused review", () => {
  it("fixes only the lines the change added, as git's rules and .editorconfig allow", async () => {
    const run = await runWorkerOn(envelope(focusedRequest(), target.bundle));
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.commits).toHaveLength(1);
    expect(changedLines(result.commits[0]?.patch ?? "")).toEqual({
      // .editorconfig: no final newline for *.txt; the trailing spaces still go.
      "fixed-format.txt": ["-new  ", "+new"],
      // The hard break stays; the single space goes.
      "notes.md": ["-soft space ", "+soft space"],
      "src/app.ts": ["-const added = 3;  ", "+const added = 3;"],
      // whitespace=-blank-at-eol: the spaces stay, the final newline of the line it wrote is added.
      "style.css": ["-b {}  ", "+b {}  "],
    });
    expect(workspaces.leftovers()).toEqual([]);
  });

  it("fixes nothing when the patch was too large to send, and says why", async () => {
    const run = await runWorkerOn(envelope(focusedRequest(""), target.bundle));
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.commits).toEqual([]);
    expect(result.summary).toContain("the change's lines were not sent");
  });

  it("fixes the files whose sections were sent when the rest were left out, and says so", async () => {
    const whole = fullPatch();
    const appOnly = whole.slice(whole.indexOf("diff --git a/src/app.ts "));
    const cut = appOnly.slice(0, appOnly.indexOf("\ndiff --git ") + 1 || appOnly.length);
    const run = await runWorkerOn(envelope(focusedRequest(cut), target.bundle));
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(changedLines(result.commits[0]?.patch ?? "")).toEqual({
      "src/app.ts": ["-const added = 3;  ", "+const added = 3;"],
    });
    // The files left out that hygiene would have fixed are named; generated.txt (-whitespace) is not.
    expect(result.summary).toBe(
      "Hygiene: fixed whitespace in 1 file; whitespace not fixed in 3 files whose lines were not sent (patch too large): fixed-format.txt, notes.md, style.css.",
    );
  });

  it("follows the core.whitespace the worker is given", async () => {
    const run = await runWorkerOn(envelope(focusedRequest(), target.bundle), {
      coreWhitespace: "-trailing-space",
    });
    const result = parseResult(run.stdout);
    // Trailing spaces are no error under that rule: only a final newline is left to add.
    expect(changedLines(result.commits[0]?.patch ?? "")).toEqual({ "style.css": ["-b {}  ", "+b {}  "] });
  });

  it("fixes every line in a whole-tree review, and still leaves snapshots, fixtures and attributes alone", async () => {
    const result = parseResult((await runWorkerOn(envelope(target.request(), target.bundle))).stdout);
    expect(Object.keys(changedLines(result.commits[0]?.patch ?? ""))).toEqual([
      "fixed-format.txt",
      "notes.md",
      "src/app.ts",
      "style.css",
    ]);
    expect(changedLines(result.commits[0]?.patch ?? "")["src/app.ts"]).toEqual([
      "-const kept = 1;   ",
      "+const kept = 1;",
      "-const added = 3;  ",
      "+const added = 3;",
    ]);
  });
});
