import { describe, expect, it } from "vitest";
import { convertReport } from "../../src/worker/formats/convert.js";
import { DEFAULT_FORMAT_LIMITS, type FormatLimits } from "../../src/worker/formats/types.js";
import { convertOk, TREE_ROOT } from "../helpers/reviewer-formats.js";

const hunk = "@@ -1,2 +1,2 @@\n keep\n-old\n+new\n";
const plain = (name: string, body = hunk) => `--- a/${name}\n+++ b/${name}\n${body}`;

async function convertError(text: string | Uint8Array, limits: Partial<FormatLimits> = {}): Promise<string> {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const outcome = await convertReport("diff", bytes, {
    treeRoot: TREE_ROOT,
    limits: { ...DEFAULT_FORMAT_LIMITS, ...limits },
  });
  if (outcome.ok) throw new Error("expected the diff to be refused");
  return outcome.error;
}

const patchOf = async (text: string, limits: Partial<FormatLimits> = {}) =>
  convertOk("diff", Buffer.from(text), limits);

describe("diff: what becomes a patch", () => {
  it("gives a ---/+++ section a git header and drops the timestamps diff -u writes", async () => {
    const report = await patchOf(`--- a/x.sh\t2024-01-01 00:00:00\n+++ b/x.sh\t2024-01-02 00:00:00\n${hunk}`);
    expect(report.patch).toEqual({
      text: `diff --git a/x.sh b/x.sh\n--- a/x.sh\n+++ b/x.sh\n${hunk}`,
      files: ["x.sh"],
    });
  });

  it("reads names without a/ and b/ as they are, as gofmt -d, black --diff and ruff write them", async () => {
    const gofmt = `diff args.go.orig args.go\n--- args.go.orig\n+++ args.go\n${hunk}diff doc/util.go.orig doc/util.go\n--- doc/util.go.orig\n+++ doc/util.go\n${hunk}`;
    const report = await patchOf(gofmt);
    expect(report.patch).toEqual({
      text: `diff --git a/args.go b/args.go\n--- a/args.go\n+++ b/args.go\n${hunk}diff --git a/doc/util.go b/doc/util.go\n--- a/doc/util.go\n+++ b/doc/util.go\n${hunk}`,
      files: ["args.go", "doc/util.go"],
    });
    expect(report.warnings).toEqual([]);
    const black = await patchOf(
      `--- src/m.py\t2026-12-04 21:40:01.123456+00:00\n+++ src/m.py\t2026-12-04 21:40:02.654321+00:00\n${hunk}`,
    );
    expect(black.patch?.text).toBe(
      `diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n${hunk}`,
    );
    const absolute = await patchOf(`--- ${TREE_ROOT}/./lib/a.rs\n+++ ${TREE_ROOT}/lib/a.rs\n${hunk}`);
    expect(absolute.patch?.files).toEqual(["lib/a.rs"]);
    const created = await patchOf("--- /dev/null\n+++ new.txt\n@@ -0,0 +1 @@\n+hello\n");
    expect(created.patch?.text).toContain("new file mode 100644\n--- /dev/null\n+++ b/new.txt\n");
  });

  it("passes git diff output as it is", async () => {
    const git = `diff --git a/src/a.js b/src/a.js\nindex 1234567..89abcde 100644\n--- a/src/a.js\n+++ b/src/a.js\n${hunk}`;
    const report = await patchOf(`${git}${git.replaceAll("src/a.js", "b c.js")}`);
    expect(report.patch?.text).toBe(`${git}${git.replaceAll("src/a.js", "b c.js")}`);
    expect(report.patch?.files).toEqual(["src/a.js", "b c.js"]);
  });

  it("marks files created from /dev/null and deleted to it", async () => {
    const created = await patchOf("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n");
    expect(created.patch?.text).toBe(
      "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n",
    );
    const deleted = await patchOf("--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n");
    expect(deleted.patch?.text).toContain("deleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n");
    expect(deleted.patch?.files).toEqual(["old.txt"]);
  });

  it("counts hunk lines, so a removed '-- x' and an added '++ y' are not file headers", async () => {
    const body = "@@ -1,2 +1,2 @@\n--- x\n+++ y\n keep\n";
    const report = await patchOf(plain("a.txt", body));
    expect(report.patch?.files).toEqual(["a.txt"]);
    expect(report.patch?.text).toBe(`diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n${body}`);
  });

  it("keeps CR in content lines and the no-newline marker", async () => {
    const body = "@@ -1 +1 @@\n-one\r\n+One\r\n\\ No newline at end of file\n";
    expect((await patchOf(plain("w.txt", body))).patch?.text).toBe(
      `diff --git a/w.txt b/w.txt\n--- a/w.txt\n+++ b/w.txt\n${body}`,
    );
  });

  it("sets aside text between files with a warning, blank lines quietly", async () => {
    const report = await patchOf(`Checking...\n${plain("a.txt")}\n\nOnly in b: c\n${plain("b.txt")}\n`);
    expect(report.patch?.files).toEqual(["a.txt", "b.txt"]);
    expect(report.warnings).toEqual(["diff: line 1: text outside the diff ignored"]);
  });

  it("is an empty report when the tool found nothing to change", async () => {
    expect(await patchOf("")).toEqual({ comments: [], overLimit: 0, fixes: [], warnings: [] });
    expect(await patchOf("\n\n")).toEqual({ comments: [], overLimit: 0, fixes: [], warnings: [] });
  });
});

describe("diff: what is refused", () => {
  it("refuses output that is not a diff", async () => {
    expect(await convertError("All files pass.\n")).toBe(
      "diff: no file header (--- a/<path>) found in the reviewer's output",
    );
    expect(await convertError(Uint8Array.of(0x2d, 0x2d, 0x2d, 0x20, 0xff, 0x0a))).toBe(
      "diff: the report is not valid UTF-8 text",
    );
  });

  it("refuses paths outside the tree or into .git, at the report's line", async () => {
    expect(await convertError(`${plain("ok.txt")}${plain("../etc/passwd")}`)).toBe(
      'diff: line 7: path "../etc/passwd" has a ".." component',
    );
    expect(await convertError(plain(".git/config"))).toBe(
      'diff: line 1: path ".git/config" has a .git look-alike component',
    );
    expect(await convertError(`--- /etc/passwd\n+++ /etc/passwd\n${hunk}`)).toBe(
      'diff: line 1: file name "/etc/passwd": not inside the tree',
    );
    expect(await convertError(`--- x.go.orig\n+++ ../x.go\n${hunk}`)).toBe(
      'diff: line 1: file name "../x.go": climbs out of the tree with ..',
    );
    expect(await convertError(`--- .git/config.orig\n+++ .git/config\n${hunk}`)).toBe(
      'diff: line 1: path ".git/config" has a .git look-alike component',
    );
  });

  it("refuses binary patches, NUL bytes, renames by ---/+++ and broken hunks", async () => {
    expect(
      await convertError(
        "diff --git a/x b/x\nindex 1234567..89abcde 100644\nBinary files a/x and b/x differ\n",
      ),
    ).toBe("diff: line 3: binary patches are not accepted");
    expect(await convertError(plain("x.txt", "@@ -1 +1 @@\n-a\0\n+b\n"))).toBe(
      "diff: patch contains a NUL byte",
    );
    expect(await convertError(`--- a/x.txt\n+++ b/y.txt\n${hunk}`)).toBe(
      "diff: line 1: --- and +++ name different files (a rename needs git diff output)",
    );
    expect(await convertError(`--- x.txt\n+++ y.txt\n${hunk}`)).toBe(
      "diff: line 1: --- and +++ name different files (a rename needs git diff output)",
    );
    expect(await convertError(plain("x.txt", "@@ -1,3 +1,3 @@\n keep\n-old\n+new\n"))).toBe(
      "diff: line 6: patch ends inside a hunk (truncated?)",
    );
  });
});

describe("diff: limits", () => {
  it("leaves out the file being written when the report was cut at the size limit", async () => {
    const text = `${plain("a.txt")}${plain("b.txt")}`;
    const report = await patchOf(text, { maxReportBytes: text.length - 3 });
    expect(report.patch?.files).toEqual(["a.txt"]);
    expect(report.warnings).toEqual([
      `diff: the report is over ${text.length - 3} bytes; the last file in it was left out`,
    ]);
  });

  it("keeps the files that fit in the patch limit, in order", async () => {
    const report = await patchOf(`${plain("a.txt")}${plain("b.txt")}${plain("c.txt")}`, {
      maxPatchBytes: 150,
    });
    expect(report.patch?.files).toEqual(["a.txt"]);
    expect(report.warnings).toEqual(["diff: 2 files left out: the patch would be over 150 bytes"]);
    const none = await patchOf(plain("a.txt"), { maxPatchBytes: 10 });
    expect(none.patch).toBeUndefined();
    expect(none.warnings).toEqual(["diff: 1 file left out: the patch would be over 10 bytes"]);
  });
});
