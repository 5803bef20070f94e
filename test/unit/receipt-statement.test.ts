import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  buildStatement,
  parseStatement,
  renderStatement,
  resultDigest,
  type StatementInput,
  subjectsOf,
} from "../../src/receipt/statement.js";
import { sampleRequest, sampleResult } from "../helpers/receipts.js";

const request = sampleRequest();
const A = request.id;
const B = request.bundle.sha256;
const C = request.snapshot.commit;
const result = sampleResult(request);

const input: StatementInput = {
  subjects: subjectsOf(request),
  result,
  reviewers: ["hygiene"],
  startedOn: new Date("2024-01-01T00:00:00Z"),
  finishedOn: new Date("2024-01-01T00:00:01.5Z"),
};

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

// The result above as RFC 8785 canonical JSON, written out by hand.
const CANONICAL_RESULT = [
  `{"bundleSha256":"${B}",`,
  `"comments":[{"line":3,"message":"Off by one.","path":"src/a.ts","severity":"warning"}],"commits":[],`,
  `"requestId":"${A}","schema":"git-review-remote/result@1","status":"ok","summary":"One fix.",`,
  `"worker":{"name":"git-review-remote","sandbox":"bwrap","version":"0.1.0"}}`,
].join("");

describe("receipt statement", () => {
  it("is an in-toto Statement v1 about the bundle, the request and the snapshot, as canonical JSON", () => {
    expect(renderStatement(buildStatement(input))).toBe(
      [
        `{"_type":"https://in-toto.io/Statement/v1",`,
        `"predicate":{"finishedOn":"2024-01-01T00:00:01.500Z","resultSha256":"${sha256(CANONICAL_RESULT)}",`,
        `"reviewers":["hygiene"],"startedOn":"2024-01-01T00:00:00.000Z",`,
        `"worker":{"name":"git-review-remote","sandbox":"bwrap","version":"0.1.0"}},`,
        `"predicateType":"https://git-review-remote.dev/result/v1",`,
        `"subject":[{"digest":{"sha256":"${B}"},"name":"bundle.tar.gz"},`,
        `{"digest":{"sha256":"${A}"},"name":"request"},`,
        `{"digest":{"gitCommit":"${C}"},"name":"snapshot"}]}`,
      ].join(""),
    );
  });

  it("digests the result without its receipt and whatever its key order", () => {
    const reordered = Object.fromEntries(Object.entries(result).reverse());
    const withReceipt = { ...result, receipt: { statement: "{}", signature: "x" } };
    expect(resultDigest(result)).toBe(sha256(CANONICAL_RESULT));
    expect(resultDigest(reordered)).toBe(sha256(CANONICAL_RESULT));
    expect(resultDigest(withReceipt)).toBe(sha256(CANONICAL_RESULT));
    expect(resultDigest({ ...result, summary: "changed" })).not.toBe(sha256(CANONICAL_RESULT));
  });

  it("parses what it renders", () => {
    const text = renderStatement(buildStatement(input));
    expect(parseStatement(text)).toEqual({ ok: true, statement: buildStatement(input) });
  });

  it("ignores fields in-toto may add to the statement and its subjects", () => {
    const statement = { ...buildStatement(input), extra: 1 } as Record<string, unknown>;
    (statement.subject as Record<string, unknown>[])[0] = {
      name: "bundle.tar.gz",
      digest: { sha256: B, sha512: "f".repeat(128) },
      uri: "file:bundle.tar.gz",
    };
    expect(parseStatement(JSON.stringify(statement)).ok).toBe(true);
  });

  it("refuses duplicate keys, which two parsers could read differently", () => {
    const text = renderStatement(buildStatement(input)).replace(
      '"predicateType":',
      '"predicateType":"https://example.invalid/other","predicateType":',
    );
    expect(parseStatement(text)).toEqual({
      ok: false,
      problems: ['statement: not valid JSON: duplicate key "predicateType"'],
    });
  });

  it("refuses another statement type, another predicate type and unknown predicate fields", () => {
    const statement = buildStatement(input);
    const problemsOf = (value: unknown) => {
      const parsed = parseStatement(JSON.stringify(value));
      return parsed.ok ? [] : parsed.problems;
    };
    expect(problemsOf({ ...statement, _type: "https://in-toto.io/Statement/v0.1" })).toEqual([
      '_type: must be "https://in-toto.io/Statement/v1" (got "https://in-toto.io/Statement/v0.1")',
    ]);
    expect(problemsOf({ ...statement, predicateType: "https://slsa.dev/provenance/v1" })[0]).toMatch(
      /^predicateType: must be "https:\/\/git-review-remote\.dev\/result\/v1"/,
    );
    expect(problemsOf({ ...statement, predicate: { ...statement.predicate, approved: true } })).toEqual([
      "predicate.approved: unknown field",
    ]);
    expect(
      problemsOf({ ...statement, predicate: { ...statement.predicate, startedOn: "yesterday" } }),
    ).toEqual(["predicate.startedOn: has an invalid format"]);
  });

  it("refuses a statement over the size limit before parsing it", () => {
    expect(parseStatement(" ".repeat(70_000))).toEqual({
      ok: false,
      problems: ["statement: 70000 bytes, over the limit of 65536"],
    });
  });
});
