import { describe, expect, it } from "vitest";
import { applyFixes } from "../../src/worker/formats/apply-fixes.js";
import { convertReport } from "../../src/worker/formats/convert.js";
import { DEFAULT_FORMAT_LIMITS, type ReportFormat } from "../../src/worker/formats/types.js";
import { convertOk, TREE_ROOT } from "../helpers/reviewer-formats.js";

type Json = Record<string, unknown>;

const rdjson = (diagnostics: Json[], extra: Json = {}) =>
  Buffer.from(JSON.stringify({ diagnostics, ...extra }));

const diagnostic = (extra: Json = {}): Json => ({
  message: "m",
  location: { path: "a.js", range: { start: { line: 2, column: 1 } } },
  code: { value: "r" },
  ...extra,
});

const range = (startLine: number, startColumn?: number, endLine?: number, endColumn?: number) => ({
  start: { line: startLine, ...(startColumn ? { column: startColumn } : {}) },
  ...(endLine ? { end: { line: endLine, ...(endColumn ? { column: endColumn } : {}) } } : {}),
});

async function convertError(format: ReportFormat, bytes: Buffer): Promise<string> {
  const outcome = await convertReport(format, bytes, { treeRoot: TREE_ROOT, limits: DEFAULT_FORMAT_LIMITS });
  if (outcome.ok) throw new Error("expected the report to be refused");
  return outcome.error;
}

/** The report's fixes applied to one file `a.js`. */
async function applied(content: string, suggestions: Json[], extra: Json = {}) {
  const report = await convertOk("rdjson", rdjson([diagnostic({ suggestions, ...extra })]));
  const result = applyFixes(report.fixes, new Map([["a.js", Buffer.from(content)]]), DEFAULT_FORMAT_LIMITS);
  const changed = result.files.get("a.js");
  return { text: changed && Buffer.from(changed).toString("utf8"), report, comments: result.comments };
}

describe("rdjson: invalid reports", () => {
  it("names the format and the first problem", async () => {
    const bad = rdjson([diagnostic(), diagnostic(), diagnostic({ location: { path: 7 } })]);
    expect(await convertError("rdjson", bad)).toBe(
      "rdjson: diagnostics.2.location.path: must be a string, not a number",
    );
    expect(await convertError("rdjson", Buffer.from("[]"))).toBe(
      "rdjson: report: must be an object, not an array",
    );
    expect(await convertError("rdjson", Buffer.from(""))).toMatch(/^rdjson: not valid JSON: empty document/);
  });

  it("refuses unknown fields as reviewdog does, so another format is not read as an empty report", async () => {
    const sarifLog = Buffer.from('{"version":"2.1.0","runs":[]}');
    expect(await convertError("rdjson", sarifLog)).toBe("rdjson: version: unknown field");
    const withOriginal = rdjson([diagnostic({ original_output: "{}", originalOutput: "{}" })]);
    expect((await convertOk("rdjson", withOriginal)).comments).toHaveLength(1);
  });
});

describe("rdjson: diagnostics to comments", () => {
  it("maps severities by name or number, else the document's, else warning", async () => {
    const report = await convertOk(
      "rdjson",
      rdjson(
        [
          diagnostic({ severity: "ERROR" }),
          diagnostic({ severity: "INFO" }),
          diagnostic({ severity: 2 }),
          diagnostic({ severity: "UNKNOWN_SEVERITY" }),
          diagnostic(),
        ],
        { severity: "INFO" },
      ),
    );
    expect(report.comments.map((c) => c.severity)).toEqual(["error", "info", "warning", "info", "info"]);
    const plain = await convertOk("rdjson", rdjson([diagnostic()]));
    expect(plain.comments[0]?.severity).toBe("warning");
  });

  it("takes lines from the range, an exclusive end at column 1 ending on the line before", async () => {
    const report = await convertOk(
      "rdjson",
      rdjson([
        diagnostic({ location: { path: "a.js", range: range(3, 2, 6, 5) } }),
        diagnostic({ location: { path: "a.js", range: range(3, 2, 6, 1) } }),
        diagnostic({ location: { path: "a.js" } }),
        diagnostic({ location: undefined, message: "", code: { value: "whole" } }),
      ]),
    );
    expect(report.comments).toEqual([
      { path: "a.js", line: 3, endLine: 6, severity: "warning", message: "m", rule: "r" },
      { path: "a.js", line: 3, endLine: 5, severity: "warning", message: "m", rule: "r" },
      { path: "a.js", severity: "warning", message: "m", rule: "r" },
      { severity: "warning", message: "whole", rule: "whole" },
    ]);
  });

  it("drops ESLint's word that it ignored a file it was given, as 8 and 9 print it", async () => {
    // eslint-formatter-rdjson's diagnostics for files ESLint did not lint: ESLint 8 (eslintrc) for a
    // dotfile, node_modules and an .eslintignore pattern; ESLint 9 for a README and an ignore pattern.
    const ignored = (message: string, path: string): Json => ({
      message,
      location: { path, range: { start: { column: 0 } } },
      severity: "WARNING",
      code: { value: null, url: "" },
    });
    const notices = [
      ignored(
        "File ignored by default.  Use a negated ignore pattern (like \"--ignore-pattern '!<relative/path/to/filename>'\") to override.",
        ".hidden/c.js",
      ),
      ignored(
        "File ignored by default. Use \"--ignore-pattern '!node_modules/*'\" to override.",
        "node_modules/x/d.js",
      ),
      ignored(
        'File ignored because of a matching ignore pattern. Use "--no-ignore" to override.',
        "dist/b.js",
      ),
      ignored("File ignored because no matching configuration was supplied.", "README.md"),
      ignored(
        'File ignored because of a matching ignore pattern. Use "--no-ignore" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning.',
        "dist/b.js",
      ),
    ];
    const parseError = {
      ...ignored("Parsing error: Unexpected character '#'", "README.md"),
      severity: "ERROR",
    };
    const eslint = { source: { name: "eslint", url: "https://eslint.org/" } };
    const report = await convertOk("rdjson", rdjson([...notices, parseError, diagnostic()], eslint));
    expect(report.comments.map((c) => c.message)).toEqual(["Parsing error: Unexpected character '#'", "m"]);
    // Another tool's message of the same words, or one with a rule, is its finding.
    const other = await convertOk("rdjson", rdjson(notices.slice(0, 1), { source: { name: "biome" } }));
    expect(other.comments).toHaveLength(1);
    const ruled = await convertOk("rdjson", rdjson([{ ...notices[3], code: { value: "r" } }], eslint));
    expect(ruled.comments).toHaveLength(1);
  });

  it("keeps paths inside the tree and drops the rest with one warning", async () => {
    const paths = [
      `${TREE_ROOT}/src/a.js`,
      "./src/b.js",
      "../up.js",
      "/etc/passwd",
      ".git/hooks/pre-commit",
      "src\\c.js",
    ];
    const report = await convertOk(
      "rdjson",
      rdjson(paths.map((path) => diagnostic({ location: { path, range: range(1) } }))),
    );
    expect(report.comments.map((c) => c.path)).toEqual(["src/a.js", "src/b.js"]);
    expect(report.warnings).toEqual([
      'rdjson: 4 locations outside the tree dropped (first: "../up.js": climbs out of the tree with ..)',
    ]);
  });
});

describe("rdjson: suggestions", () => {
  it("counts columns in UTF-8 bytes, or in code points for Biome's reports", async () => {
    const content = "é🐶ab\n";
    const bytes = await applied(content, [{ range: range(1, 7, 1, 8), text: "A" }]);
    expect(bytes.text).toBe("é🐶Ab\n");
    const biome = await applied(content, [{ range: range(1, 3, 1, 4), text: "A" }], {
      source: { name: "Biome" },
    });
    expect(biome.text).toBe("é🐶Ab\n");
    const document = await convertOk(
      "rdjson",
      rdjson([diagnostic({ suggestions: [{ range: range(1, 3, 1, 4), text: "A" }] })], {
        source: { name: "Biome" },
      }),
    );
    expect(document.fixes[0]?.edits[0]?.range).toMatchObject({ unit: "codePoint" });
    expect(document.tool).toEqual({ name: "Biome" });
  });

  it("replaces whole lines when no column is given, and inserts when there is no end", async () => {
    expect((await applied("1\n2\n3\n", [{ range: range(2, undefined, 3), text: "x" }])).text).toBe("1\nx\n");
    expect((await applied("1\n2\n", [{ range: range(2) }])).text).toBe("1\n");
    expect((await applied("ab\n", [{ range: range(1, 2), text: "-" }])).text).toBe("a-b\n");
    expect((await applied("ab\ncd\n", [{ range: range(1, 2, 2), text: "" }])).text).toBe("acd\n");
  });

  it("applies all of a diagnostic's suggestions together", async () => {
    const quoted = await applied("echo $x\n", [
      { range: range(1, 6, 1, 6), text: '"' },
      { range: range(1, 8, 1, 8), text: '"' },
    ]);
    expect(quoted.text).toBe('echo "$x"\n');
    expect(quoted.report.fixes).toHaveLength(1);
  });

  it("drops suggestions it cannot place with a warning, keeping the comment", async () => {
    const report = await convertOk(
      "rdjson",
      rdjson([
        diagnostic({ suggestions: [{ range: { start: { column: 3 } }, text: "x" }] }),
        diagnostic({ location: undefined, suggestions: [{ range: range(1, 1), text: "x" }] }),
      ]),
    );
    expect(report.comments).toHaveLength(2);
    expect(report.fixes).toEqual([]);
    expect(report.warnings).toEqual([
      "rdjson: a fix was dropped: a suggestion without a start line",
      "rdjson: a fix was dropped: suggestions for a diagnostic without a file",
    ]);
  });
});

describe("rdjson: warnings", () => {
  it("stay few: details up to the cap, then the summaries, then how many more there were", async () => {
    const bad = { suggestions: [{ range: { start: { column: 1 } }, text: "x" }] };
    const diagnostics = [
      ...Array.from({ length: 12 }, () => diagnostic(bad)),
      diagnostic({ location: { path: "/etc/x" } }),
    ];
    const report = await convertOk("rdjson", rdjson(diagnostics));
    expect(report.comments).toHaveLength(12);
    expect(report.warnings).toEqual([
      ...Array.from({ length: 9 }, () => "rdjson: a fix was dropped: a suggestion without a start line"),
      'rdjson: 1 location outside the tree dropped (first: "/etc/x": not inside the tree)',
      "... and 3 more warnings",
    ]);
  });
});

describe("rdjsonl", () => {
  const line = (extra: Json = {}) => JSON.stringify(diagnostic(extra));

  it("reads one diagnostic a line, CRLF and blank lines included", async () => {
    const report = await convertOk(
      "rdjsonl",
      Buffer.from(`${line()}\r\n\n  \n${line({ source: { name: "tool" } })}`),
    );
    expect(report.comments).toHaveLength(2);
    expect(report.tool).toEqual({ name: "tool" });
  });

  it("refuses the report at its first bad line, naming the line", async () => {
    expect(await convertError("rdjsonl", Buffer.from(`${line()}\n{oops\n`))).toMatch(
      /^rdjsonl: line 2: not valid JSON: /,
    );
    expect(
      await convertError("rdjsonl", Buffer.from(`${line()}\n${line()}\n${line({ severity: "FATAL" })}\n`)),
    ).toMatch(/^rdjsonl: line 3: severity: /);
  });

  it("reads a report over the size limit up to its last whole line", async () => {
    const text = `${line()}\n${line()}\n${line()}\n`;
    const report = await convertOk("rdjsonl", Buffer.from(text), { maxReportBytes: text.length - 5 });
    expect(report.comments).toHaveLength(2);
    expect(report.warnings).toEqual([
      `rdjsonl: the report is over ${text.length - 5} bytes; read up to the last whole line`,
    ]);
  });
});
