import { describe, expect, it } from "vitest";
import type { ConvertedReport } from "../../src/worker/formats/types.js";
import {
  applyToTree,
  asText,
  convertOk,
  ESLINT_PLACES,
  fixedFiles,
  places,
  readReport,
  TREE_ROOT,
} from "../helpers/reviewer-formats.js";

/** The report's fixes, applied to the tree, make exactly what the tool's own write mode made. */
function expectToolsOwnFixes(report: ConvertedReport, tool: string): void {
  const applied = applyToTree(report);
  expect(applied.comments).toEqual([]);
  expect(applied.changed).toEqual(asText(fixedFiles(tool)));
}

describe("real reports: ESLint 10 with eslint-formatter-rdjson", () => {
  it("makes comments with ESLint's rule ids on the right lines, paths made relative to the tree", async () => {
    const report = await convertOk("rdjson", readReport("eslint.rdjson"));
    expect(report.tool).toEqual({ name: "eslint" });
    expect(places(report.comments)).toEqual(ESLINT_PLACES);
    expect(report.comments[0]).toMatchObject({
      severity: "error",
      message: "Unexpected var, use let or const instead.",
    });
    expect(report.comments[2]?.severity).toBe("warning");
    expect(report.warnings).toEqual([]);
  });

  it("applies its suggestions (UTF-8 byte columns, CRLF, an insertion at EOF) exactly as eslint --fix", async () => {
    const report = await convertOk("rdjson", readReport("eslint.rdjson"));
    expect(report.fixes.map((fix) => fix.rule)).toEqual([
      "no-var",
      "prefer-const",
      "prefer-const",
      "prefer-const",
      "prefer-const",
      "prefer-const",
      "eol-last",
    ]);
    expectToolsOwnFixes(report, "eslint");
  });

  it("drops every diagnostic when the tree root does not match the report's absolute paths", async () => {
    const report = await convertOk("rdjson", readReport("eslint.rdjson", "/elsewhere"), {}, TREE_ROOT);
    expect(report.comments).toEqual([]);
    expect(report.fixes).toEqual([]);
    expect(report.warnings).toEqual([
      'rdjson: 12 locations outside the tree dropped (first: "/elsewhere/src/app.js": not inside the tree)',
    ]);
  });
});

describe("real reports: Biome 2.6 --reporter=rdjson", () => {
  it("makes comments with Biome's rule categories, severities as reported", async () => {
    const report = await convertOk("rdjson", readReport("biome.rdjson"));
    expect(report.tool).toEqual({ name: "Biome" });
    expect(places(report.comments)).toContain("src/app.js:3 lint/suspicious/noDoubleEquals");
    expect(places(report.comments)).toContain("src/crlf.js:2 lint/style/useConst");
    expect(report.comments.find((c) => c.rule === "lint/suspicious/noDoubleEquals")?.severity).toBe("error");
    expect(report.comments.find((c) => c.rule === "lint/style/useConst")?.severity).toBe("warning");
    expect(report.comments).toHaveLength(10);
  });

  it("applies its suggestions, counted in code points, exactly as biome lint --write --unsafe", async () => {
    const report = await convertOk("rdjson", readReport("biome.rdjson"));
    expect(report.fixes).toHaveLength(10);
    expectToolsOwnFixes(report, "biome");
  });
});

describe("real reports: ast-grep 0.51 scan --format=sarif", () => {
  it("makes comments from results with the rule id, level and message", async () => {
    const report = await convertOk("sarif", readReport("ast-grep.sarif"));
    expect(report.tool).toEqual({ name: "ast-grep", version: "0.51.1" });
    expect(report.comments).toEqual([
      {
        path: "src/crlf.js",
        line: 3,
        severity: "warning",
        message: "Use logger.info instead of console.log",
        rule: "no-console-log",
      },
      {
        path: "src/app.js",
        line: 4,
        severity: "warning",
        message: "Use logger.info instead of console.log",
        rule: "no-console-log",
      },
    ]);
  });

  it("applies the rule's fix: by byte offsets, exactly as ast-grep scan --update-all", async () => {
    const report = await convertOk("sarif", readReport("ast-grep.sarif"));
    expect(report.fixes.map((fix) => fix.edits[0]?.range.kind)).toEqual(["bytes", "bytes"]);
    expectToolsOwnFixes(report, "ast-grep");
  });
});

describe("real reports: ShellCheck 0.9 -f diff", () => {
  it("becomes a git diff of the one script it fixes", async () => {
    const report = await convertOk("diff", readReport("shellcheck.diff"));
    expect(report.comments).toEqual([]);
    expect(report.fixes).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.patch?.files).toEqual(["scripts/deploy.sh"]);
    const original = readReport("shellcheck.diff").toString("utf8");
    expect(report.patch?.text).toBe(
      `diff --git a/scripts/deploy.sh b/scripts/deploy.sh\n${original.trimEnd()}\n`,
    );
  });
});

describe("rdjsonl", () => {
  it("reads ESLint's diagnostics one a line the same as the rdjson document", async () => {
    const document = JSON.parse(readReport("eslint.rdjson").toString("utf8")) as { diagnostics: unknown[] };
    const lines = `${document.diagnostics.map((diagnostic) => JSON.stringify(diagnostic)).join("\n")}\n`;
    const fromLines = await convertOk("rdjsonl", Buffer.from(lines));
    const fromDocument = await convertOk("rdjson", readReport("eslint.rdjson"));
    expect(fromLines.comments).toEqual(fromDocument.comments);
    expect(fromLines.fixes).toEqual(fromDocument.fixes);
  });
});
