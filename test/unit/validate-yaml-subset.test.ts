// validate: the YAML subset pnpm's settings are read in, and what it refuses to guess at.
import { describe, expect, it } from "vitest";
import { readJson5 } from "../../src/validate/json5.js";
import { readYamlSubset } from "../../src/validate/yaml-subset.js";

const read = (text: string) => {
  const result = readYamlSubset(text);
  if ("unread" in result) throw new Error(`unread: ${result.unread}`);
  return JSON.parse(JSON.stringify(result.documents.length === 1 ? result.documents[0] : result.documents));
};

describe("validate: readYamlSubset", () => {
  it("reads block maps and lists, compact lists, comments and quoted scalars", () => {
    const text = [
      "# settings",
      "---",
      "packages:",
      "  - 'packages/*'",
      '  - "!**/test/**" # not these',
      "catalog:",
      "  react: ^18.2.0",
      "  '@s/b@2.0.0': x # c",
      "list:",
      "- a",
      "- name: b",
      "  path:",
      "    deeper",
      "quote: 'it''s'",
      'escaped: "pad\\x40\\u0031.0.0"',
      "url: https://registry.example.invalid/pad/-/pad-1.0.0.tgz",
      "tab:\tvalue",
      "empty:",
      "",
    ].join("\n");
    expect(read(text)).toEqual({
      packages: ["packages/*", "!**/test/**"],
      catalog: { react: "^18.2.0", "@s/b@2.0.0": "x" },
      list: ["a", { name: "b", path: "deeper" }],
      quote: "it's",
      escaped: "pad@1.0.0",
      url: "https://registry.example.invalid/pad/-/pad-1.0.0.tgz",
      tab: "value",
      empty: "",
    });
  });

  it("reads flow maps and lists over lines, with commas and colons inside quoted or plain scalars", () => {
    const text = [
      "patchedDependencies: {",
      "  pad@1.0.0: custom/pad.patch,  # first",
      '  "b@2.0.0": "custom/a,b.patch",',
      "  c@3.0.0: 'x: y.patch',",
      "}",
      "resolution: {integrity: sha512-AA+/==, tarball: https://x.invalid/p/-/p-1.tgz}",
      "list: [a, [b, c], {d: e}, ]",
      "bare: {a, b: c:d}",
      "",
    ].join("\n");
    expect(read(text)).toEqual({
      patchedDependencies: {
        "pad@1.0.0": "custom/pad.patch",
        "b@2.0.0": "custom/a,b.patch",
        "c@3.0.0": "x: y.patch",
      },
      resolution: { integrity: "sha512-AA+/==", tarball: "https://x.invalid/p/-/p-1.tgz" },
      list: ["a", ["b", "c"], { d: "e" }],
      bare: { a: "", b: "c:d" },
    });
  });

  it("refuses, with the reason and line, what YAML reads in ways this does not follow", () => {
    const unread: Record<string, RegExp> = {
      "a: &x custom/pad.patch\nb: *x\n": /anchor, alias, tag or block scalar \(line 1\)/,
      "a: !!str x\n": /anchor, alias, tag or block scalar/,
      "a: |2\n  x.patch\n": /a block scalar's header in a form not read here/,
      "a: custom/\n  pad.patch\n": /a scalar over several lines \(line 2\)/,
      "a: {b: custom/\n  pad.patch}\n": /a plain scalar over several lines \(line 2\)/,
      "a: 'custom/\n  pad.patch'\n": /a quoted scalar over several lines/,
      "a: 1\na: 2\n": /the key "a" written twice \(line 2\)/,
      "a: {b: 1, b: 2}\n": /the key "b" written twice/,
      'a: "x\\qy"\n': /a bad escape/,
      "? a\n: b\n": /an explicit key/,
      "<<: {a: 1}\n": /a merge key/,
      "a: b: c\n": /a scalar in a form not read here/,
      "a: 1\n--- b: 2\n": /a node on the document's start line \(line 2\)/,
      "a: 1\nb\n": /line 2/,
      "%YAML 1.2\n---\na: 1\n": /a directive/,
      "a: {b: 1\n": /a flow node that does not close/,
      "a: {b: 1} c\n": /text after a flow node/,
      "a:\n  b: 1\n   c: 2\n": /line 3/,
      "a:\n\t b: 1\n": /a tab in a line's indentation/,
      "a: [b: c]\n": /a `key: value` pair in a flow list/,
    };
    for (const [text, reason] of Object.entries(unread)) {
      const result = readYamlSubset(text);
      expect("unread" in result ? result.unread : "read", JSON.stringify(text)).toMatch(reason);
    }
  });

  it("reads literal and folded block scalars, as pnpm writes a deprecation message", () => {
    const text = [
      "packages:",
      "  q@1.5.1:",
      "    deprecated: |-",
      "      You or someone you depend on is using Q.",
      "",
      "      (For a CapTP, see @endo/captp)",
      "    engines: {node: '>=0.6.0'}",
      "folded: >",
      "  one",
      "  two",
      "",
      "  three",
      "kept: |+",
      "  x",
      "",
      "path: >-",
      "  custom/pad.patch",
      "",
    ].join("\n");
    expect(read(text)).toEqual({
      packages: {
        "q@1.5.1": {
          deprecated: "You or someone you depend on is using Q.\n\n(For a CapTP, see @endo/captp)",
          engines: { node: ">=0.6.0" },
        },
      },
      folded: "one two\nthree\n",
      kept: "x\n\n",
      path: "custom/pad.patch",
    });
  });

  it("reads an empty stream, or one of comments, as no document, and several documents each", () => {
    expect(readYamlSubset("")).toEqual({ documents: [] });
    expect(readYamlSubset("# nothing\n\n")).toEqual({ documents: [] });
    // pnpm 10's lockfile: the package manager's own lockfile, then the project's.
    expect(read("---\nlockfileVersion: '9.0'\n\n---\nlockfileVersion: '9.0'\nb: 2\n...\n")).toEqual([
      { lockfileVersion: "9.0" },
      { lockfileVersion: "9.0", b: "2" },
    ]);
  });
});

describe("validate: readJson5", () => {
  it("reads comments, unquoted keys, single quotes, escapes, trailing commas and JSON5 numbers", () => {
    const text = [
      "// pnpm's manifest",
      "{",
      "  name: 'web', /* inline */",
      '  "version": "1.0.0",',
      "  pnpm: {patchedDependencies: {'pad@1.0.0': 'custom/p\\x61d.patch', \"b\": \"a\\u002fb.patch\",},},",
      "  n: [+1, .5, 0x1F, -Infinity, NaN, 1e3,],",
      "  flags: [true, false, null],",
      "  line: 'a\\",
      "b',",
      "}",
    ].join("\n");
    const result = readJson5(text);
    if ("unread" in result) throw new Error(result.unread);
    expect(JSON.parse(JSON.stringify(result.value))).toEqual({
      name: "web",
      version: "1.0.0",
      pnpm: { patchedDependencies: { "pad@1.0.0": "custom/pad.patch", b: "a/b.patch" } },
      n: [1, 0.5, 31, null, null, 1000],
      flags: [true, false, null],
      line: "ab",
    });
  });

  it("refuses what is not JSON5, with the reason", () => {
    for (const text of ["{a: 1", "{a b}", "{'a': 'b}", "{a: 1} x", "{\\u0061: 1}", "{a: '\\1'}", "/* open"]) {
      expect("unread" in readJson5(text), text).toBe(true);
    }
  });
});
