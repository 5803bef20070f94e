import { describe, expect, it } from "vitest";
import { chooseFilterMode, filterComments } from "../../src/pipeline/filter.js";
import type { ChangedLines } from "../../src/protocol/changed-lines.js";
import type { ReviewComment } from "../../src/protocol/result.js";

const changes: ChangedLines = {
  schema: "git-review-remote/changed-lines@1",
  base: "a".repeat(40),
  head: "b".repeat(40),
  complete: true,
  files: [
    { path: "a.ts", added: [[10, 10]], hunks: [[7, 13]] },
    { path: "logo.png", added: null, hunks: null },
  ],
};

const at = (path: string | undefined, line?: number, endLine?: number): ReviewComment => ({
  ...(path === undefined ? {} : { path }),
  ...(line === undefined ? {} : { line }),
  ...(endLine === undefined ? {} : { endLine }),
  severity: "info",
  message: `${path}:${line}-${endLine}`,
});

const shown = (comments: ReviewComment[], mode: Parameters<typeof filterComments>[2]) =>
  filterComments(comments, changes, mode).shown.map((comment) => comment.message);

describe("filtering comments to the change", () => {
  const comments = [
    at("a.ts", 10),
    at("a.ts", 8, 11),
    at("a.ts", 13),
    at("a.ts", 2),
    at("b.ts", 1),
    at(undefined),
  ];

  it("keeps reviewdog's sets: added ⊂ diff_context ⊂ file ⊂ nofilter", () => {
    expect(shown(comments, "added")).toEqual([
      "a.ts:10-undefined",
      "a.ts:8-11",
      "undefined:undefined-undefined",
    ]);
    expect(shown(comments, "diff_context")).toEqual([
      "a.ts:10-undefined",
      "a.ts:8-11",
      "a.ts:13-undefined",
      "undefined:undefined-undefined",
    ]);
    expect(shown(comments, "file")).toHaveLength(5);
    expect(shown(comments, "nofilter")).toHaveLength(6);
    expect(filterComments(comments, changes, "added").hidden).toHaveLength(3);
  });

  it("keeps a comment on a file whose lines are unknown, and one without a line on a changed file", () => {
    expect(shown([at("logo.png", 1), at("a.ts"), at("b.ts")], "added")).toEqual([
      "logo.png:1-undefined",
      "a.ts:undefined-undefined",
    ]);
  });

  it("shows everything of a whole-tree review, whatever the mode", () => {
    const filtered = filterComments(comments, undefined, "added");
    expect(filtered).toMatchObject({ mode: "nofilter", hidden: [] });
    expect(filtered.shown).toHaveLength(6);
  });

  it("takes the flag over git config, and added by default", () => {
    expect(chooseFilterMode("file", "nofilter")).toBe("file");
    expect(chooseFilterMode(undefined, "diff_context")).toBe("diff_context");
    expect(chooseFilterMode(undefined, undefined)).toBe("added");
  });
});
