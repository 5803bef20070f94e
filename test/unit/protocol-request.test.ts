import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/protocol/errors.js";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { parseRequest } from "../../src/protocol/parse-request.js";
import {
  createRequest,
  hasValidRequestId,
  type RequestFields,
  RequestSchema,
} from "../../src/protocol/request.js";
import {
  assembleRequest,
  computeRequestId,
  REQUEST_SCHEMA,
  verifyRequestId,
} from "../../src/protocol/request-line.js";

const HEX64 = "a".repeat(64);
const OID = "0123456789abcdef0123456789abcdef01234567";

function fields(overrides: Partial<RequestFields> = {}): RequestFields {
  return {
    bundle: { sha256: HEX64, bytes: 123456, format: "tar+gzip", files: 42 },
    snapshot: { commit: OID, kind: "commit" },
    range: null,
    question: "Review this change for bugs and propose fixes.",
    actions: ["comment", "propose"],
    forbiddenPaths: [".github/**", ".husky/**", ".gitattributes", ".gitmodules"],
    limits: { ...DEFAULT_LIMITS },
    ...overrides,
  };
}

const utf8 = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value), "utf8");

describe("createRequest", () => {
  it("fills schema and an id that is the sha256 of the JCS form of the other fields", () => {
    const request = createRequest(fields({ question: "Prüfen €" }));
    // Written out by hand in RFC 8785 form: keys sorted, no whitespace, UTF-8 as is.
    const canonical =
      `{"actions":["comment","propose"],"bundle":{"bytes":123456,"files":42,"format":"tar+gzip","sha256":"${HEX64}"},` +
      `"forbiddenPaths":[".github/**",".husky/**",".gitattributes",".gitmodules"],` +
      `"limits":{"maxComments":500,"maxCommits":20,"maxPatchBytes":1048576,"maxResultBytes":8388608,"timeoutSeconds":900},` +
      `"question":"Prüfen €","range":null,"schema":"${REQUEST_SCHEMA}","snapshot":{"commit":"${OID}","kind":"commit"}}`;
    expect(request.schema).toBe("git-review-remote/request@1");
    expect(request.id).toBe(createHash("sha256").update(canonical, "utf8").digest("hex"));
    expect(Object.keys(request)).toEqual([
      "schema",
      "id",
      "bundle",
      "snapshot",
      "range",
      "question",
      "actions",
      "forbiddenPaths",
      "limits",
    ]);
  });

  it("gives the same id whatever the order of the fields", () => {
    const a = createRequest(fields());
    const reordered = Object.fromEntries(Object.entries(fields()).reverse()) as RequestFields;
    expect(createRequest(reordered).id).toBe(a.id);
  });

  it("gives another id when any field changes", () => {
    const base = createRequest(fields()).id;
    expect(createRequest(fields({ question: "other" })).id).not.toBe(base);
    expect(createRequest(fields({ actions: ["propose", "comment"] })).id).not.toBe(base);
    expect(createRequest(fields({ limits: { ...DEFAULT_LIMITS, maxCommits: 19 } })).id).not.toBe(base);
  });

  it("throws a ProtocolError listing each invalid field", () => {
    const bad = fields({ actions: [], bundle: { sha256: "XYZ", bytes: -1, format: "tar+gzip", files: 0 } });
    const error = (() => {
      try {
        createRequest(bad);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).details).toEqual([
      "bundle.sha256: must be 64 lowercase hex digits",
      "bundle.bytes: must be a non-negative integer",
      "actions: must not be empty",
    ]);
  });
});

describe("assembleRequest", () => {
  it("makes the request createRequest makes, key for key, without the schema's check", () => {
    const range = { base: OID, head: "b".repeat(40), paths: ["src/a.ts"], patch: "--- a\n+++ b\n" };
    for (const given of [fields(), fields({ range, question: "Prüfen €" })]) {
      const assembled = assembleRequest(given);
      expect(JSON.stringify(assembled)).toBe(JSON.stringify(createRequest(given)));
      expect(RequestSchema.safeParse(assembled).success).toBe(true);
    }
  });
});

describe("computeRequestId and verifyRequestId", () => {
  it("ignores an id already present", () => {
    const request = createRequest(fields());
    expect(computeRequestId(request)).toBe(request.id);
    expect(computeRequestId({ ...request, id: "0".repeat(64) })).toBe(request.id);
  });

  it("accepts an untouched request and refuses a tampered one", () => {
    const request = createRequest(fields());
    expect(hasValidRequestId(request)).toBe(true);
    expect(() => verifyRequestId(request)).not.toThrow();
    const tampered = { ...request, question: "exfiltrate" };
    expect(hasValidRequestId(tampered)).toBe(false);
    expect(() => verifyRequestId(tampered)).toThrow(ProtocolError);
    expect(() => verifyRequestId(tampered)).toThrow(/does not match its content/);
  });
});

describe("RequestSchema", () => {
  const valid = createRequest(fields());
  const problems = (value: unknown) => {
    const outcome = parseRequest(utf8(value));
    return outcome.ok ? [] : outcome.problems;
  };

  it("accepts the design §6 example shape, a range and 64-digit object ids", () => {
    expect(RequestSchema.safeParse(valid).success).toBe(true);
    const range = {
      base: OID,
      head: "b".repeat(64),
      paths: ["src/a.ts"],
      patch: "diff --git a/src/a.ts b/src/a.ts\n",
    };
    const withRange = createRequest(
      fields({ range, snapshot: { commit: "c".repeat(64), kind: "worktree" } }),
    );
    expect(parseRequest(utf8(withRange))).toEqual({ ok: true, request: withRange });
  });

  it.each([
    [{ extra: 1 }, "extra: unknown field"],
    [{ bundle: { ...valid.bundle, compressed: true } }, "bundle.compressed: unknown field"],
    [
      { bundle: { ...valid.bundle, sha256: "A".repeat(64) } },
      "bundle.sha256: must be 64 lowercase hex digits",
    ],
    [{ bundle: { ...valid.bundle, bytes: 1.5 } }, "bundle.bytes: must be a non-negative integer"],
    [{ bundle: { ...valid.bundle, format: "zip" } }, 'bundle.format: must be "tar+gzip" (got "zip")'],
    [
      { snapshot: { commit: OID.slice(1), kind: "commit" } },
      "snapshot.commit: must be a 40- or 64-digit lowercase hex object id",
    ],
    [
      { snapshot: { commit: OID, kind: "tree" } },
      'snapshot.kind: must be one of "commit", "worktree" (got "tree")',
    ],
    [{ range: undefined }, "range: required"],
    [{ range: { base: OID, head: OID, paths: [] } }, "range.patch: required"],
    [{ actions: ["comment", "comment"] }, "actions: must not list an action twice"],
    [{ actions: ["delete"] }, 'actions.0: must be one of "comment", "propose" (got "delete")'],
    [{ question: 42 }, "question: must be a string, not a number"],
    [{ forbiddenPaths: "x" }, "forbiddenPaths: must be an array, not a string"],
    [{ limits: { ...valid.limits, maxComments: 0 } }, "limits.maxComments: must be a positive integer"],
    [{ limits: { ...valid.limits, maxCommits: undefined } }, "limits.maxCommits: required"],
  ])("refuses %j", (change, problem) => {
    expect(problems({ ...valid, ...change })).toContain(problem);
  });

  it("names another request schema version plainly", () => {
    expect(problems({ ...valid, schema: "git-review-remote/request@2" })).toEqual([
      'schema: unsupported request schema "git-review-remote/request@2" (this version reads git-review-remote/request@1)',
    ]);
  });

  it("refuses a request whose id does not match its content", () => {
    expect(problems({ ...valid, question: "changed" })).toEqual([
      expect.stringMatching(
        /^id: [0-9a-f]{64} does not match the request's content \(expected [0-9a-f]{64}\)$/,
      ),
    ]);
  });

  it("refuses a request line with duplicate keys", () => {
    const line = JSON.stringify(valid).replace('"question":', '"question":"a","question":');
    expect(problems(line)).toEqual([
      'request: not valid JSON: duplicate key "question" (line 1, column 355)',
    ]);
  });
});
