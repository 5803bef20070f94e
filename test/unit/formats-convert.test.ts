import { describe, expect, it } from "vitest";
import { convertReport } from "../../src/worker/formats/convert.js";
import { treePathFromFile, treePathFromUri } from "../../src/worker/formats/tree-paths.js";
import { DEFAULT_FORMAT_LIMITS, isReportFormat, REPORT_FORMATS } from "../../src/worker/formats/types.js";
import { convertOk, TREE_ROOT } from "../helpers/reviewer-formats.js";

describe("report formats", () => {
  it("are the five the worker accepts, and nothing else", () => {
    expect(REPORT_FORMATS).toEqual(["comments", "sarif", "rdjson", "rdjsonl", "diff"]);
    expect(REPORT_FORMATS.every(isReportFormat)).toBe(true);
    expect(isReportFormat("json")).toBe(false);
    expect(isReportFormat("constructor")).toBe(false);
  });
});

describe("comments format", () => {
  it("reads the comment JSON Lines as the comments file always was, bad lines skipped with a warning", async () => {
    const text = '{"path":"a.js","line":2,"severity":"error","message":"m","rule":"r"}\nnot json\n';
    const report = await convertOk("comments", Buffer.from(text));
    expect(report.comments).toEqual([{ path: "a.js", line: 2, severity: "error", message: "m", rule: "r" }]);
    expect(report.fixes).toEqual([]);
    expect(report.warnings).toEqual(["comments line 2: not valid JSON; skipped"]);
  });

  it("reads a file over the size limit up to its last whole line", async () => {
    const line = '{"severity":"info","message":"m"}\n';
    const report = await convertOk("comments", Buffer.from(line.repeat(3)), {
      maxReportBytes: line.length * 2 + 5,
    });
    expect(report.comments).toHaveLength(2);
    expect(report.warnings).toEqual([
      `comments: the report is over ${line.length * 2 + 5} bytes; read up to the last whole line`,
    ]);
  });
});

describe("conversion never throws", () => {
  it("answers hostile input in every format with a report or one error line naming the format", async () => {
    const inputs = ["", "{", "[]", "null", '{"runs":[{}]}', "\u0000", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n"];
    const answers: Record<string, string[]> = {};
    for (const format of REPORT_FORMATS) {
      answers[format] = [];
      for (const input of inputs) {
        const outcome = await convertReport(format, Buffer.from(input), {
          treeRoot: TREE_ROOT,
          limits: DEFAULT_FORMAT_LIMITS,
        });
        answers[format].push(outcome.ok ? "ok" : (outcome.error.split(":")[0] ?? ""));
      }
    }
    expect(answers).toEqual({
      comments: ["ok", "ok", "ok", "ok", "ok", "ok", "ok"],
      sarif: ["sarif", "sarif", "sarif", "sarif", "sarif", "sarif", "sarif"],
      rdjson: ["rdjson", "rdjson", "rdjson", "rdjson", "rdjson", "rdjson", "rdjson"],
      rdjsonl: ["ok", "rdjsonl", "rdjsonl", "rdjsonl", "rdjsonl", "rdjsonl", "rdjsonl"],
      diff: ["ok", "diff", "diff", "diff", "diff", "diff", "diff"],
    });
  });
});

describe("tree paths", () => {
  it("reads file URIs with an empty or local host, dropping a query or fragment", () => {
    expect(treePathFromUri(`file://${TREE_ROOT}/a.js?x#y`, TREE_ROOT)).toEqual({ ok: true, path: "a.js" });
    expect(treePathFromUri(`FILE:${TREE_ROOT}/b.js`, TREE_ROOT)).toEqual({ ok: true, path: "b.js" });
  });

  it("refuses malformed escapes and escapes that hide a separator or a NUL", () => {
    expect(treePathFromUri("a%ZZ.js", TREE_ROOT)).toEqual({
      ok: false,
      reason: "has a malformed or forbidden %-escape",
    });
    expect(treePathFromUri("a%00.js", TREE_ROOT).ok).toBe(false);
    expect(treePathFromUri("..%2fx.js", TREE_ROOT).ok).toBe(false);
    expect(treePathFromUri("%C3%28.js", TREE_ROOT).ok).toBe(false);
  });

  it("refuses the tree itself, a sibling directory sharing its prefix, and .git look-alikes", () => {
    expect(treePathFromFile(TREE_ROOT, TREE_ROOT)).toEqual({ ok: false, reason: "not inside the tree" });
    expect(treePathFromFile(".", TREE_ROOT)).toEqual({
      ok: false,
      reason: "names the tree itself, not a file",
    });
    expect(treePathFromFile(`${TREE_ROOT}2/a.js`, TREE_ROOT).ok).toBe(false);
    expect(treePathFromFile("src/.GIT/config", TREE_ROOT).ok).toBe(false);
    expect(treePathFromFile(`${TREE_ROOT}/src/./x/../a.js`, TREE_ROOT)).toEqual({
      ok: true,
      path: "src/a.js",
    });
  });
});
