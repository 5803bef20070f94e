import { describe, expect, it } from "vitest";
import { MAX_TEXT_LENGTH } from "../../src/protocol/result.js";
import { applyFixes } from "../../src/worker/formats/apply-fixes.js";
import { convertReport } from "../../src/worker/formats/convert.js";
import { DEFAULT_FORMAT_LIMITS } from "../../src/worker/formats/types.js";
import { convertOk, TREE_ROOT } from "../helpers/reviewer-formats.js";

type Json = Record<string, unknown>;

function sarif(results: Json[], run: Json = {}): Buffer {
  return Buffer.from(
    JSON.stringify({ version: "2.1.0", runs: [{ tool: { driver: { name: "probe" } }, results, ...run }] }),
  );
}

const at = (uri: string, region: Json = { startLine: 1 }, extra: Json = {}): Json => ({
  locations: [{ physicalLocation: { artifactLocation: { uri, ...extra }, region } }],
});

const result = (extra: Json = {}): Json => ({ ruleId: "r", message: { text: "m" }, ...at("a.js"), ...extra });

async function convertError(bytes: Buffer, limits = {}): Promise<string> {
  const outcome = await convertReport("sarif", bytes, {
    treeRoot: TREE_ROOT,
    limits: { ...DEFAULT_FORMAT_LIMITS, ...limits },
  });
  if (outcome.ok) throw new Error("expected the report to be refused");
  return outcome.error;
}

describe("sarif: invalid reports", () => {
  it("names the format and the first problem, field by field", async () => {
    const results = [result(), result(), result(), result({ locations: { physicalLocation: {} } })];
    expect(await convertError(sarif(results))).toBe(
      "sarif: runs.0.results.3.locations: must be an array, not an object",
    );
    expect(await convertError(Buffer.from('{"version":"2.0.0","runs":[]}'))).toBe(
      'sarif: version: must be "2.1.0" (got "2.0.0")',
    );
    expect(await convertError(Buffer.from('{"version":"2.1.0"}'))).toBe("sarif: runs: required");
    expect(await convertError(sarif([result({ level: "fatal" })]))).toMatch(
      /^sarif: runs\.0\.results\.0\.level: must be one of "none", "note", "warning", "error" \(got "fatal"\)$/,
    );
  });

  it("refuses what is not strict JSON, and a document over the size limit", async () => {
    expect(await convertError(Buffer.from("Linting... done\n"))).toMatch(
      /^sarif: not valid JSON: unexpected character/,
    );
    expect(await convertError(Buffer.from('{"version":"2.1.0","version":"2.1.0","runs":[]}'))).toMatch(
      /^sarif: not valid JSON: .*duplicate key/,
    );
    expect(await convertError(sarif([result()]), { maxReportBytes: 50 })).toBe(
      "sarif: the report is over 50 bytes; a JSON document cannot be read in part",
    );
  });
});

describe("sarif: results to comments", () => {
  it("maps levels, with SARIF's defaults from the rule and the result kind", async () => {
    const rules = [{ id: "strict", defaultConfiguration: { level: "error" } }, { id: "plain" }];
    const report = await convertOk(
      "sarif",
      sarif(
        [
          result({ level: "error" }),
          result({ level: "warning" }),
          result({ level: "note" }),
          result({ level: "none" }),
          result({ ruleId: "strict" }),
          result({ ruleId: undefined, ruleIndex: 0 }),
          result({ ruleId: "plain" }),
          result({ kind: "review" }),
          result({ kind: "pass" }),
          result({ kind: "notApplicable" }),
        ],
        { tool: { driver: { name: "probe", rules } } },
      ),
    );
    expect(report.comments.map((c) => `${c.rule} ${c.severity}`)).toEqual([
      "r error",
      "r warning",
      "r info",
      "r info",
      "strict error",
      "strict error",
      "plain warning",
      "r info",
    ]);
  });

  it("fills a message from the rule's message strings and arguments", async () => {
    const rules = [{ id: "r", messageStrings: { default: { text: "'{0}' is unused in {1}." } } }];
    const report = await convertOk(
      "sarif",
      sarif([result({ message: { id: "default", arguments: ["x", "f"] } })], {
        tool: { driver: { name: "p", rules } },
      }),
    );
    expect(report.comments[0]?.message).toBe("'x' is unused in f.");
  });

  it("reads lines from the region: an end at column 1 stops on the line before", async () => {
    const report = await convertOk(
      "sarif",
      sarif([
        result(at("a.js", { startLine: 3, endLine: 5, endColumn: 4 })),
        result(at("a.js", { startLine: 3, endLine: 5, endColumn: 1 })),
        result(at("a.js", { byteOffset: 10, byteLength: 2 })),
        result({ locations: [] }),
      ]),
    );
    expect(report.comments.map(({ path, line, endLine }) => ({ path, line, endLine }))).toEqual([
      { path: "a.js", line: 3, endLine: 5 },
      { path: "a.js", line: 3, endLine: 4 },
      { path: "a.js", line: undefined, endLine: undefined },
      { path: undefined, line: undefined, endLine: undefined },
    ]);
  });

  it("cuts what a result may not carry instead of refusing it", async () => {
    const report = await convertOk(
      "sarif",
      sarif([result({ ruleId: "x".repeat(300), message: { text: "y".repeat(MAX_TEXT_LENGTH + 10) } })]),
    );
    expect(report.comments[0]?.rule).toHaveLength(256);
    expect(report.comments[0]?.message).toHaveLength(MAX_TEXT_LENGTH);
    expect(report.comments[0]?.message.endsWith("…")).toBe(true);
  });

  it("keeps at most maxComments comments, the most severe of the report, and counts the others", async () => {
    const last = result({ level: "error", message: { text: "the worst, last" } });
    const report = await convertOk("sarif", sarif([result(), result(), result(), last]), {
      maxComments: 1,
    });
    expect(report.comments.map((comment) => comment.message)).toEqual(["the worst, last"]);
    expect(report.overLimit).toBe(3);
    // The result says how many were left out, once for every reviewer; the report's warnings do not.
    expect(report.warnings).toEqual([]);
  });

  it("names the tool and its version from the driver", async () => {
    const report = await convertOk(
      "sarif",
      sarif([], { tool: { driver: { name: "semgrep", semanticVersion: "1.2.3" } } }),
    );
    expect(report.tool).toEqual({ name: "semgrep", version: "1.2.3" });
  });
});

describe("sarif: artifact locations", () => {
  it("makes file URIs, absolute and %-escaped paths relative to the tree", async () => {
    const report = await convertOk(
      "sarif",
      sarif([
        result(at(`file://${TREE_ROOT}/src/a%20b.js`)),
        result(at(`file://localhost${TREE_ROOT}/src/c.js`)),
        result(at(`${TREE_ROOT}/src/d.js`)),
        result(at("./src/na%C3%AFve.js")),
        result(at("src/../src/e.js")),
      ]),
    );
    expect(report.comments.map((c) => c.path)).toEqual([
      "src/a b.js",
      "src/c.js",
      "src/d.js",
      "src/naïve.js",
      "src/e.js",
    ]);
    expect(report.warnings).toEqual([]);
  });

  it("resolves uriBaseId through originalUriBaseIds, an unknown base being the tree, a loop dropped", async () => {
    const originalUriBaseIds = {
      ROOT: { uri: `file://${TREE_ROOT}/` },
      SRC: { uri: "src/", uriBaseId: "ROOT" },
      LOOP: { uri: "x/", uriBaseId: "LOOP" },
    };
    const report = await convertOk(
      "sarif",
      sarif(
        [
          result(at("a.js", { startLine: 1 }, { uriBaseId: "SRC" })),
          result(at("b.js", { startLine: 1 }, { uriBaseId: "%SRCROOT%" })),
          result(at("c.js", { startLine: 1 }, { uriBaseId: "ROOT" })),
          result({ locations: [{ physicalLocation: { artifactLocation: { index: 0 } } }] }),
          result(at("d.js", { startLine: 1 }, { uriBaseId: "LOOP" })),
        ],
        { originalUriBaseIds, artifacts: [{ location: { uri: "listed.js", uriBaseId: "SRC" } }] },
      ),
    );
    expect(report.comments.map((c) => c.path)).toEqual(["src/a.js", "b.js", "c.js", "src/listed.js"]);
    expect(report.warnings).toEqual([
      'sarif: 1 location outside the tree dropped (first: "d.js": its uriBaseId chain does not end)',
    ]);
  });

  it("drops results outside the tree, or not plain files of it, with one warning", async () => {
    const report = await convertOk(
      "sarif",
      sarif([
        result(at("file:///etc/passwd")),
        result(at("../outside.js")),
        result(at("https://example.com/a.js")),
        result(at(`file://elsewhere${TREE_ROOT}/a.js`)),
        result(at(".git/config")),
        result(at("src%2F..%2F..%2Fx.js")),
        result(at(`${TREE_ROOT}-sibling/a.js`)),
        result(at("inside.js")),
      ]),
    );
    expect(report.comments.map((c) => c.path)).toEqual(["inside.js"]);
    expect(report.warnings).toEqual([
      'sarif: 7 locations outside the tree dropped (first: "file:///etc/passwd": not inside the tree)',
    ]);
  });
});

describe("sarif: fixes", () => {
  const withFix = (uri: string, replacements: Json[], extra: Json = {}): Json =>
    result({
      ...at(uri),
      fixes: [{ artifactChanges: [{ artifactLocation: { uri }, replacements }] }],
      ...extra,
    });

  async function fixOnce(content: string, replacements: Json[], run: Json = {}) {
    const report = await convertOk("sarif", sarif([withFix("a.js", replacements)], run));
    const applied = applyFixes(
      report.fixes,
      new Map([["a.js", Buffer.from(content)]]),
      DEFAULT_FORMAT_LIMITS,
    );
    const changed = applied.files.get("a.js");
    return { text: changed && Buffer.from(changed).toString("utf8"), comments: applied.comments, report };
  }

  it("counts columns in UTF-16 code units unless the run says code points", async () => {
    const region = { startLine: 1, startColumn: 4, endLine: 1, endColumn: 5 };
    const replacement = { deletedRegion: region, insertedContent: { text: "B" } };
    expect((await fixOnce("a🐶b\n", [replacement])).text).toBe("a🐶B\n");
    const points = {
      deletedRegion: { ...region, startColumn: 3, endColumn: 4 },
      insertedContent: { text: "B" },
    };
    expect((await fixOnce("a🐶b\n", [points], { columnKind: "unicodeCodePoints" })).text).toBe("a🐶B\n");
  });

  it("takes a region without columns as whole lines' text, and deletes without insertedContent", async () => {
    expect(
      (await fixOnce("one\ntwo\n", [{ deletedRegion: { startLine: 2 }, insertedContent: { text: "2" } }]))
        .text,
    ).toBe("one\n2\n");
    expect(
      (await fixOnce("one\ntwo\n", [{ deletedRegion: { startLine: 1, startColumn: 2, endColumn: 4 } }])).text,
    ).toBe("o\ntwo\n");
  });

  it("applies character offsets, and checks a deleted region's snippet", async () => {
    const byChars = { deletedRegion: { charOffset: 3, charLength: 1 }, insertedContent: { text: "B" } };
    expect((await fixOnce("a🐶b\n", [byChars])).text).toBe("a🐶B\n");
    const stale = {
      deletedRegion: { byteOffset: 0, byteLength: 1, snippet: { text: "z" } },
      insertedContent: { text: "!" },
    };
    const result = await fixOnce("a\n", [stale]);
    expect(result.text).toBeUndefined();
    expect(result.comments[0]?.message).toBe(
      "fix not applied: the file does not hold the text the fix replaces (the report is stale?)",
    );
  });

  it("uses the first of several alternative fixes, with all of its replacements", async () => {
    const first = {
      artifactChanges: [
        {
          artifactLocation: { uri: "a.js" },
          replacements: [
            { deletedRegion: { byteOffset: 0, byteLength: 0 }, insertedContent: { text: "<" } },
            { deletedRegion: { byteOffset: 1, byteLength: 0 }, insertedContent: { text: ">" } },
          ],
        },
      ],
    };
    const second = {
      artifactChanges: [
        {
          artifactLocation: { uri: "a.js" },
          replacements: [{ deletedRegion: { byteOffset: 0, byteLength: 1 } }],
        },
      ],
    };
    const report = await convertOk("sarif", sarif([result({ fixes: [first, second] })]));
    expect(report.fixes).toHaveLength(1);
    expect(report.fixes[0]?.edits).toHaveLength(2);
    const applied = applyFixes(report.fixes, new Map([["a.js", Buffer.from("x\n")]]), DEFAULT_FORMAT_LIMITS);
    expect(Buffer.from(applied.files.get("a.js") ?? []).toString()).toBe("<x>\n");
  });

  it("drops a fix it cannot use with a warning, keeping the result's comment", async () => {
    const report = await convertOk(
      "sarif",
      sarif([
        withFix("a.js", [{ deletedRegion: {}, insertedContent: { text: "x" } }]),
        withFix("a.js", [{ deletedRegion: { byteOffset: 0 }, insertedContent: { binary: "AAEC" } }]),
        result({
          fixes: [
            {
              artifactChanges: [
                {
                  artifactLocation: { uri: "/etc/hosts" },
                  replacements: [{ deletedRegion: { byteOffset: 0 } }],
                },
              ],
            },
          ],
        }),
      ]),
    );
    expect(report.comments).toHaveLength(3);
    expect(report.fixes).toEqual([]);
    expect(report.warnings).toEqual([
      "sarif: a fix was dropped: a deleted region without startLine, charOffset or byteOffset",
      "sarif: a fix was dropped: binary inserted content",
      'sarif: 1 location outside the tree dropped (first: "/etc/hosts": not inside the tree)',
    ]);
  });

  it("keeps at most maxFixes fixes", async () => {
    const replacement = [{ deletedRegion: { byteOffset: 0 }, insertedContent: { text: "x" } }];
    const report = await convertOk(
      "sarif",
      sarif([withFix("a.js", replacement), withFix("b.js", replacement)]),
      {
        maxFixes: 1,
      },
    );
    expect(report.fixes.map((fix) => fix.path)).toEqual(["a.js"]);
    expect(report.warnings).toEqual(["sarif: 1 fix over the limit of 1 left out"]);
    // Counted, for the reviewer's "1 of 2 fixes applied".
    expect(report.fixesOverLimit).toBe(1);
  });
});
