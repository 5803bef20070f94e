import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseComments, readComments } from "../../src/worker/comments.js";

describe("reviewer comments file", () => {
  it("keeps valid comments with only the result's fields", () => {
    const text = [
      JSON.stringify({
        path: "a.ts",
        line: 3,
        endLine: 4,
        severity: "error",
        message: "m",
        rule: "r",
        extra: 1,
      }),
      '{"__proto__":{"polluted":true},"severity":"info","message":"proto"}',
      "",
    ].join("\n");
    const parsed = parseComments(text, 10);
    expect(parsed.comments).toEqual([
      { path: "a.ts", line: 3, endLine: 4, severity: "error", message: "m", rule: "r" },
      { severity: "info", message: "proto" },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.warnings).toEqual([]);
  });

  it("skips malformed lines with a bounded list of warnings", () => {
    const bad = [
      "not json",
      "[1]",
      '{"severity":"fatal","message":"x"}',
      '{"line":1,"severity":"info","message":"x"}',
    ];
    const parsed = parseComments([...bad, ...Array(20).fill("nope")].join("\n"), 10);
    expect(parsed.comments).toEqual([]);
    expect(parsed.warnings[0]).toBe("comments line 1: not valid JSON; skipped");
    expect(parsed.warnings[1]).toBe("comments line 2: not a JSON object; skipped");
    expect(parsed.warnings[2]).toMatch(/^comments line 3: severity/);
    expect(parsed.warnings[3]).toMatch(/^comments line 4: line: needs a path/);
    expect(parsed.warnings).toHaveLength(11);
    expect(parsed.warnings.at(-1)).toBe("comments: 14 more bad lines skipped");
  });

  it("keeps the most severe comments of the whole file within the limit and counts the rest", () => {
    const line = (severity: string, n: number) => `{"severity":"${severity}","message":"${n}"}`;
    // The errors come last: a cut at the first five would keep none of them.
    const lines = [
      ...Array.from({ length: 12 }, (_, n) => line("info", n)),
      line("error", 12),
      line("error", 13),
    ];
    const parsed = parseComments(lines.join("\n"), 5);
    expect(parsed.comments.map((comment) => comment.message)).toEqual(["0", "1", "2", "12", "13"]);
    expect(parsed.overLimit).toBe(9);
    expect(parsed.warnings).toEqual([]);
  });

  it("never reads the file through a symlink", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rr-comments-"));
    try {
      writeFileSync(join(dir, "secret"), '{"severity":"info","message":"secret"}\n');
      symlinkSync(join(dir, "secret"), join(dir, "comments.jsonl"));
      const parsed = await readComments(join(dir, "comments.jsonl"), 10);
      expect(parsed.comments).toEqual([]);
      expect(parsed.warnings[0]).toMatch(/unreadable: ELOOP/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
