import { describe, expect, it } from "vitest";
import { commentChecker } from "../../src/validate/comments.js";

describe("a comment checked against what was sent", () => {
  const check = commentChecker([
    { path: "one.py", mode: "100644", size: 6, lines: 1 },
    { path: "app.ts", mode: "100644", size: 120, lines: 12 },
  ]);

  it("says how many lines the file has, in words that agree with the count", () => {
    expect(check({ path: "one.py", line: 4000, severity: "warning", message: "m" }, 1)).toBe(
      "comments.1.line: one.py has 1 line, not 4000",
    );
    expect(check({ path: "app.ts", line: 14, severity: "warning", message: "m" }, 0)).toBe(
      "comments.0.line: app.ts has 12 lines, not 14",
    );
  });

  it("accepts a line the file has, and a comment on the review as a whole", () => {
    const onLine = { path: "app.ts", line: 12, severity: "info", message: "m" } as const;
    expect(check(onLine, 0)).toBe(onLine);
    const whole = { severity: "info", message: "m" } as const;
    expect(check(whole, 0)).toBe(whole);
  });

  it("keeps a comment at the end of the file, past its last newline, on its last line", () => {
    // A parser's "unexpected end of file" is at line 13, column 1 of a 12-line file ending in a newline.
    expect(check({ path: "app.ts", line: 13, severity: "error", message: "m", rule: "parse" }, 0)).toEqual({
      path: "app.ts",
      line: 12,
      severity: "error",
      message: "m",
      rule: "parse",
    });
    // A span that runs to the end of the file ends on its last line.
    expect(check({ path: "app.ts", line: 10, endLine: 13, severity: "warning", message: "m" }, 0)).toEqual({
      path: "app.ts",
      line: 10,
      endLine: 12,
      severity: "warning",
      message: "m",
    });
    expect(check({ path: "one.py", line: 2, severity: "info", message: "m" }, 0)).toEqual({
      path: "one.py",
      line: 1,
      severity: "info",
      message: "m",
    });
  });

  it("shows a path that was not sent with its invisible characters made visible", () => {
    // Stripped, src/app\u200d.ts would print as the app.ts that was sent, and the line would lie.
    expect(check({ path: "app\u200d.ts", line: 1, severity: "info", message: "m" }, 2)).toBe(
      'comments.2.path: "app\\u{200d}.ts" was not sent to the worker',
    );
    expect(check({ path: "src/\u001b[2Jx.ts", severity: "info", message: "m" }, 0)).toBe(
      'comments.0.path: "src/\\u{1b}[2Jx.ts" was not sent to the worker',
    );
  });
});
