import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { parseResult } from "../../src/protocol/parse-result.js";
import { createRequest, type Request, type RequestFields } from "../../src/protocol/request.js";
import { proposalsOverLimit, ResultSchema } from "../../src/protocol/result.js";

const FIXTURES = new URL("../fixtures/results/", import.meta.url);

function makeRequest(overrides: Partial<RequestFields> = {}): Request {
  return createRequest({
    bundle: { sha256: "b".repeat(64), bytes: 4096, format: "tar+gzip", files: 3 },
    snapshot: { commit: "c".repeat(40), kind: "commit" },
    range: null,
    question: "Review this change for bugs and propose fixes.",
    actions: ["comment", "propose"],
    forbiddenPaths: [".github/**"],
    limits: { ...DEFAULT_LIMITS },
    ...overrides,
  });
}

const request = makeRequest();

function makeResult(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: "git-review-remote/result@1",
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    status: "ok",
    summary: "One fix.",
    worker: { name: "local", version: "0.1.0", sandbox: "bwrap" },
    comments: [
      { path: "src/a.ts", line: 12, endLine: 14, severity: "warning", message: "Off by one.", rule: "x/y" },
    ],
    commits: [{ message: "Fix", patch: "diff --git a/src/a.ts b/src/a.ts\n" }],
    ...overrides,
  };
}

const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");

function problemsOf(value: unknown, against: Request = request): string[] {
  const outcome = parseResult(typeof value === "string" ? Buffer.from(value) : bytesOf(value), against);
  return outcome.ok ? [] : outcome.problems;
}

function fixture(name: string): Buffer {
  const text = readFileSync(new URL(name, FIXTURES), "latin1");
  return Buffer.from(
    text
      .replaceAll("@REQUEST_ID_UPPER@", request.id.toUpperCase())
      .replaceAll("@REQUEST_ID@", request.id)
      .replaceAll("@BUNDLE_SHA256@", request.bundle.sha256),
    "latin1",
  );
}

// Problem lines reach the terminal: no C0/C1 controls or bidi overrides from worker input.
const isUnsafe = (code: number) =>
  code < 0x20 ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069);
const hasUnsafeCharacter = (line: string) => [...line].some((ch) => isUnsafe(ch.codePointAt(0) ?? 0));

describe("parseResult on the shared result fixtures", () => {
  type Case =
    | { verdict: "accept" }
    | { verdict: "reject"; problems: (string | RegExp)[] }
    | { verdict: "drop"; kept: number; dropped: string[] };
  const cases: Record<string, Case> = {
    "01-benign-result": { verdict: "accept" },
    // Schema-valid: comment text is sanitized later (design §9 step 5), not refused here.
    "03-ansi-in-comment-message": { verdict: "accept" },
    "05-request-id-mismatch": {
      verdict: "reject",
      problems: [`requestId: answers request ${"0".repeat(64)}, not this request ${request.id}`],
    },
    "07-unknown-schema": {
      verdict: "reject",
      problems: [
        'schema: unsupported result schema "git-review-remote/result@9" (this version reads git-review-remote/result@1)',
      ],
    },
    "09-duplicate-keys": {
      verdict: "reject",
      problems: [/^commits\.0: not valid JSON: duplicate key "patch" \(line 1, column \d+\)$/],
    },
    "11-bad-numbers": {
      verdict: "drop",
      kept: 0,
      dropped: [
        "comments.0.line: must be a positive integer",
        "comments.1.line: must be a positive integer",
        "comments.2.line: must be a positive integer",
      ],
    },
    "13-too-many-comments": {
      verdict: "drop",
      kept: 500,
      dropped: ["comments: 5000 comments, over the limit of 500"],
    },
    "15-huge-comment-message": {
      verdict: "drop",
      kept: 0,
      dropped: ["comments.0.message: must be at most 65536 characters long (got 2097152)"],
    },
    "17-bad-severity": {
      verdict: "drop",
      kept: 0,
      dropped: ['comments.0.severity: must be one of "error", "warning", "info" (got "critical!!")'],
    },
    "19-not-json": {
      verdict: "reject",
      problems: ["result: not valid JSON: unexpected character 'T' (line 1, column 1)"],
    },
    "21-two-commits-sequence": { verdict: "accept" },
    // The even half: the same classes in other spellings.
    "02-benign-comment-shapes": { verdict: "accept" },
    "04-c1-bidi-zwj-in-text": { verdict: "accept" },
    "06-bundle-sha-mismatch": {
      verdict: "reject",
      problems: [
        `bundleSha256: names bundle ${"0".repeat(64)}, not the bundle sent ${request.bundle.sha256}`,
      ],
    },
    "08-proto-key": {
      verdict: "reject",
      problems: ['result: not valid JSON: key "__proto__" is not allowed (line 1, column 2)'],
    },
    "10-duplicate-key-escaped-spelling": {
      verdict: "reject",
      problems: [/^commits\.0: not valid JSON: duplicate key "patch" \(line 1, column \d+\)$/],
    },
    "12-numbers-as-strings-and-floats": {
      verdict: "drop",
      kept: 1,
      dropped: [
        "comments.0.line: must be a positive integer",
        "comments.1.line: must be a positive integer",
        "comments.2.line: must be a positive integer",
        "comments.3.line: must be a positive integer",
        "comments.4.endLine: must be >= line (4)",
        "comments.5.endLine: must be a positive integer",
      ],
    },
    "14-one-over-comment-limit": {
      verdict: "drop",
      kept: 500,
      dropped: ["comments: 501 comments, over the limit of 500"],
    },
    "16-huge-rule-and-path": {
      verdict: "drop",
      kept: 1,
      dropped: [
        "comments.0.rule: must be at most 256 characters long (got 300000)",
        "comments.1.path: must be at most 4096 characters long (got 6008)",
        "comments.2.message: must be at most 65536 characters long (got 140000)",
      ],
    },
    "18-severity-spellings": {
      verdict: "drop",
      kept: 1,
      dropped: [
        'comments.0.severity: must be one of "error", "warning", "info" (got "Error")',
        'comments.1.severity: must be one of "error", "warning", "info" (got "error ")',
        'comments.2.severity: must be one of "error", "warning", "info" (got "critical")',
        'comments.3.severity: must be one of "error", "warning", "info", not null',
        'comments.4.severity: must be one of "error", "warning", "info", not an array',
      ],
    },
    "20-deep-nesting": {
      verdict: "reject",
      problems: [/^comments(\.0)+: not valid JSON: nested deeper than 64 levels \(line 1, column \d+\)$/],
    },
    "22-invalid-utf8-bytes": {
      verdict: "reject",
      problems: [/^result: not valid JSON: not valid UTF-8 \(byte offset \d+\)$/],
    },
    "24-lone-surrogate-escapes": {
      verdict: "reject",
      problems: [/^summary: not valid JSON: lone surrogate escape \\uD800 \(line 1, column \d+\)$/],
    },
    "28-forged-trailers-in-message": { verdict: "accept" },
    "26-request-id-upper-case": {
      verdict: "reject",
      problems: ["requestId: must be 64 lowercase hex digits"],
    },
  };
  /** The fixtures the client may also take and sanitize: the parse itself accepts them. */
  const sanitized = new Set([
    "03-ansi-in-comment-message",
    "04-c1-bidi-zwj-in-text",
    "24-lone-surrogate-escapes",
  ]);
  const expectFile: Record<Case["verdict"], string> = {
    accept: "accept",
    reject: "reject",
    drop: "reject-or-drop",
  };

  it("covers every fixture in the directory, agreeing with its .expect file", () => {
    const names = readdirSync(FIXTURES).filter((name) => name.endsWith(".json"));
    expect(names.map((name) => name.replace(/\.json$/, "")).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, expected] of Object.entries(cases)) {
      const verdict = readFileSync(new URL(`${name}.expect`, FIXTURES), "utf8").split(" ")[0];
      expect(verdict, name).toBe(sanitized.has(name) ? "reject-or-sanitize" : expectFile[expected.verdict]);
    }
  });

  it.each(Object.entries(cases))("%s", (name, expected) => {
    const outcome = parseResult(fixture(`${name}.json`), request);
    if (expected.verdict === "accept") {
      expect(outcome).toMatchObject({ ok: true, dropped: [] });
      return;
    }
    if (expected.verdict === "drop") {
      if (!outcome.ok) throw new Error(outcome.problems.join("\n"));
      expect(outcome.result.comments).toHaveLength(expected.kept);
      // What is kept still obeys every rule; the proposals are untouched.
      expect(ResultSchema.safeParse(outcome.result).success).toBe(true);
      expect(outcome.result.commits).toHaveLength(1);
      expect(outcome.dropped.flatMap((part) => part.problems)).toEqual(expected.dropped);
      return;
    }
    expect(outcome.ok).toBe(false);
    const problems = outcome.ok ? [] : outcome.problems;
    expect(problems).toEqual(
      expected.problems.map((p) => (typeof p === "string" ? p : expect.stringMatching(p))),
    );
    for (const line of problems) expect(hasUnsafeCharacter(line), line).toBe(false);
  });

  it("keeps the two commits of 21-two-commits-sequence in order", () => {
    const outcome = parseResult(fixture("21-two-commits-sequence.json"), request);
    expect(outcome.ok && outcome.result.commits.map((c) => c.message)).toEqual(["Guard", "Add helper"]);
  });
});

describe("parseResult", () => {
  it("accepts a full result and returns plain objects", () => {
    const outcome = parseResult(bytesOf(makeResult()), request);
    expect(outcome).toEqual({ ok: true, result: makeResult(), dropped: [], document: makeResult() });
    expect(outcome.ok && Object.getPrototypeOf(outcome.result)).toBe(Object.prototype);
  });

  it("accepts comments without a path (about the whole change) and without a line", () => {
    const comments = [
      { severity: "info", message: "General remark." },
      { path: "README.md", severity: "error", message: "Whole file." },
    ];
    expect(problemsOf(makeResult({ comments }))).toEqual([]);
  });

  it("accepts a failed result with an error and nothing to import", () => {
    expect(
      problemsOf(makeResult({ status: "failed", error: "reviewer crashed", comments: [], commits: [] })),
    ).toEqual([]);
  });

  it.each([
    [{ status: "failed" }, 'error: required when status is "failed"'],
    [{ error: "oops" }, 'error: only allowed when status is "failed"'],
    [{ status: "done" }, 'status: must be one of "ok", "failed" (got "done")'],
    [{ extra: true }, "extra: unknown field"],
    [{ worker: { name: "w", version: "1", sandbox: "none", host: "x" } }, "worker.host: unknown field"],
    [{ worker: { name: "w", version: "1" } }, "worker.sandbox: required"],
    [{ summary: undefined }, "summary: required"],
    [{ summary: "s".repeat(65_537) }, "summary: must be at most 65536 characters long (got 65537)"],
    [{ comments: {} }, "comments: must be an array, not an object"],
    [{ commits: [{ message: "", patch: "diff" }] }, "commits.0.message: must not be empty"],
    [{ commits: [{ message: "m", patch: "p", author: "evil" }] }, "commits.0.author: unknown field"],
    [
      { bundleSha256: "c".repeat(64) },
      `bundleSha256: names bundle ${"c".repeat(64)}, not the bundle sent ${"b".repeat(64)}`,
    ],
    [{ requestId: "short" }, "requestId: must be 64 lowercase hex digits"],
  ])("refuses %j", (change, problem) => {
    const problems = problemsOf(makeResult(change));
    expect(problems).toContain(problem);
    for (const line of problems) expect(hasUnsafeCharacter(line), line).toBe(false);
  });

  const good = { path: "src/a.ts", line: 1, severity: "info", message: "Fine." };
  it.each([
    [{ comments: [good, { line: 3, severity: "info", message: "m" }] }, "comments.1.line: needs a path"],
    [
      { comments: [good, { path: "a", endLine: 3, severity: "info", message: "m" }] },
      "comments.1.endLine: needs a line",
    ],
    [
      { comments: [good, { path: "a", line: 5, endLine: 4, severity: "info", message: "m" }] },
      "comments.1.endLine: must be >= line (5)",
    ],
    [
      { comments: [good, { path: "a", line: 1.5, severity: "info", message: "m" }] },
      "comments.1.line: must be a positive integer",
    ],
    [
      { comments: [good, { path: "a", line: 0, severity: "info", message: "m" }] },
      "comments.1.line: must be a positive integer",
    ],
    [
      { comments: [good, { path: "", severity: "info", message: "m" }] },
      "comments.1.path: must not be empty",
    ],
    [
      { comments: [good, { path: "p".repeat(4097), severity: "info", message: "m" }] },
      "comments.1.path: must be at most 4096 characters long (got 4097)",
    ],
    [
      { comments: [good, { severity: "info", message: "m", "\u001b[31mkey": 1 }] },
      'comments.1."\\u001b[31mkey": unknown field',
    ],
    [{ comments: [good, null] }, "comments.1: must be an object, not null"],
  ])("drops the bad comment of %j and keeps the good one", (change, problem) => {
    const outcome = parseResult(bytesOf(makeResult(change)), request);
    if (!outcome.ok) throw new Error(outcome.problems.join("\n"));
    expect(outcome.result.comments).toEqual([good]);
    expect(outcome.result.commits).toHaveLength(1);
    expect(outcome.dropped).toEqual([{ part: "comments", count: 1, problems: [problem] }]);
    for (const line of outcome.dropped[0]?.problems ?? []) expect(hasUnsafeCharacter(line), line).toBe(false);
  });

  it("drops a comment the caller's check refuses, naming it by its index", () => {
    const comments = [good, { ...good, line: 99 }];
    const outcome = parseResult(bytesOf(makeResult({ comments })), request, {
      checkComment: (comment, index) => (comment.line === 99 ? `comments.${index}.line: too far` : comment),
    });
    expect(outcome).toMatchObject({
      ok: true,
      result: { comments: [good] },
      dropped: [{ part: "comments", count: 1, problems: ["comments.1.line: too far"] }],
    });
  });

  it("keeps the most severe comments up to maxComments, in the worker's order", () => {
    const limited = makeRequest({ limits: { ...DEFAULT_LIMITS, maxComments: 2 } });
    const comment = (severity: string, message: string) => ({ severity, message });
    const comments = [
      comment("info", "a"),
      comment("error", "b"),
      comment("warning", "c"),
      comment("error", "d"),
    ];
    const outcome = parseResult(bytesOf(makeResult({ requestId: limited.id, comments })), limited);
    expect(outcome).toMatchObject({
      ok: true,
      result: { comments: [comment("error", "b"), comment("error", "d")] },
      dropped: [
        {
          part: "comments",
          count: 2,
          problems: ["comments: 4 comments, over the limit of 2"],
          limit: "maxComments",
        },
      ],
    });
  });

  it("drops every proposal over maxCommits or maxPatchBytes and keeps the comments", () => {
    const few = makeRequest({ limits: { ...DEFAULT_LIMITS, maxCommits: 1 } });
    const commit = { message: "m", patch: "diff --git a/x b/x\n" };
    const twice = parseResult(bytesOf(makeResult({ requestId: few.id, commits: [commit, commit] })), few);
    expect(twice).toMatchObject({
      ok: true,
      result: { commits: [], comments: makeResult().comments },
      dropped: [
        {
          part: "proposals",
          count: 2,
          problems: ["commits: 2 commits, over the limit of 1"],
          limit: "maxCommits",
        },
      ],
    });
    const small = makeRequest({ limits: { ...DEFAULT_LIMITS, maxPatchBytes: 10 } });
    const big = parseResult(bytesOf(makeResult({ requestId: small.id })), small);
    expect(big).toMatchObject({
      ok: true,
      result: { commits: [] },
      dropped: [{ part: "proposals", count: 1, limit: "maxPatchBytes" }],
    });
  });

  it("quotes an unsupported schema value safely", () => {
    expect(problemsOf(makeResult({ schema: "x\u001b]8;;evil\u0007" }))).toEqual([
      'schema: unsupported result schema "x\\u001b]8;;evil\\u0007" (this version reads git-review-remote/result@1)',
    ]);
  });

  it("refuses a missing or non-string schema through the schema check", () => {
    expect(problemsOf(makeResult({ schema: undefined }))).toEqual(["schema: required"]);
    expect(problemsOf(makeResult({ schema: 1 }))).toEqual([
      'schema: must be "git-review-remote/result@1", not a number',
    ]);
  });

  it.each([
    ["[]", "result: must be a JSON object"],
    ["null", "result: must be a JSON object"],
    ['"ok"', "result: must be a JSON object"],
    ["", "result: not valid JSON: empty document (line 1, column 1)"],
    ['{"__proto__":{}}', 'result: not valid JSON: key "__proto__" is not allowed (line 1, column 2)'],
  ])("refuses the document %j", (text, problem) => {
    expect(problemsOf(text)).toEqual([problem]);
  });

  it("refuses invalid UTF-8 with its byte offset", () => {
    const bytes = Buffer.concat([bytesOf(makeResult()).subarray(0, 10), Buffer.from([0xff])]);
    expect(parseResult(bytes, request)).toEqual({
      ok: false,
      problems: ["result: not valid JSON: not valid UTF-8 (byte offset 10)"],
    });
  });

  it("refuses a result over maxResultBytes before parsing it", () => {
    const small = makeRequest({ limits: { ...DEFAULT_LIMITS, maxResultBytes: 100 } });
    expect(problemsOf("x".repeat(101), small)).toEqual(["result: 101 bytes, over the limit of 100"]);
  });

  it("lists at most 10 lines of dropped comments, and counts them all", () => {
    const comments = Array.from({ length: 100 }, () => ({ severity: "bad", message: "m" }));
    const outcome = parseResult(bytesOf(makeResult({ comments })), request);
    if (!outcome.ok) throw new Error(outcome.problems.join("\n"));
    expect(outcome.dropped[0]?.count).toBe(100);
    expect(outcome.dropped[0]?.problems).toHaveLength(10);
    expect(outcome.dropped[0]?.problems.at(-1)).toBe("... and 91 more problems");
  });

  it("lists at most 20 problem lines of a refused result", () => {
    const problems = problemsOf(
      makeResult({
        summary: 1,
        status: 2,
        worker: 3,
        commits: 4,
        extra: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i])),
      }),
    );
    expect(problems.length).toBeLessThanOrEqual(20);
  });

  it("refuses commits when the request asked only for comments, and comments when it asked only for proposals", () => {
    expect(problemsOf(makeResult(), makeRequest({ actions: ["comment"] }))).toEqual([
      "requestId: answers request " +
        request.id +
        ", not this request " +
        makeRequest({ actions: ["comment"] }).id,
      "commits: 1 commit, but the request did not ask for proposals",
    ]);
    const proposeOnly = makeRequest({ actions: ["propose"] });
    const result = makeResult({ requestId: proposeOnly.id });
    expect(problemsOf(result, proposeOnly)).toEqual([
      "comments: 1 comment, but the request did not ask for comments",
    ]);
  });
});

describe("proposalsOverLimit", () => {
  const limits = { ...DEFAULT_LIMITS, maxCommits: 1, maxPatchBytes: 10 };

  it("passes proposals within every limit", () => {
    expect(proposalsOverLimit([{ message: "m", patch: "0123456789" }], limits)).toBeUndefined();
  });

  it("counts commits", () => {
    const commit = { message: "m", patch: "p" };
    expect(proposalsOverLimit([commit, commit], limits)).toEqual({
      limit: "maxCommits",
      problem: "commits: 2 commits, over the limit of 1",
    });
  });

  it("sums patch sizes in UTF-8 bytes across commits", () => {
    // "é" is one character but two bytes.
    const commits = [
      { message: "m", patch: "éééé" },
      { message: "n", patch: "abc" },
    ];
    expect(proposalsOverLimit(commits, { ...limits, maxCommits: 5 })).toEqual({
      limit: "maxPatchBytes",
      problem: "commits: patches total 11 bytes, over the limit of 10",
    });
  });
});
