// The client's zod-free check of its request agrees with the v1 schema the worker checks with: for
// every field of a request with a range, each wrong value of each kind, and the right ones.
import { describe, expect, it } from "vitest";
import { fitPatch } from "../../src/protocol/changed-lines.js";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { createRequest, RequestSchema } from "../../src/protocol/request.js";
import {
  checkRequestLine,
  MAX_FORBIDDEN_PATHS,
  MAX_QUESTION_BYTES,
  requestProblems,
} from "../../src/protocol/request-check.js";

const OID = "0123456789abcdef0123456789abcdef01234567";

const valid = createRequest({
  bundle: { sha256: "a".repeat(64), bytes: 123456, format: "tar+gzip", files: 42 },
  snapshot: { commit: OID, kind: "commit" },
  range: {
    base: OID,
    head: "b".repeat(64),
    paths: ["src/a.ts"],
    patch: "diff --git a/src/a.ts b/src/a.ts\n",
  },
  question: "Review this change.",
  actions: ["comment", "propose"],
  forbiddenPaths: [".github/**"],
  limits: { ...DEFAULT_LIMITS },
});

/** Values of every JSON kind, and the edges of the schema's rules. */
const VALUES: unknown[] = [
  undefined,
  null,
  true,
  0,
  1,
  -1,
  1.5,
  2 ** 53,
  "",
  "x",
  "comment",
  "propose",
  "commit",
  "worktree",
  "tar+gzip",
  "git-review-remote/request@1",
  "a".repeat(64),
  "A".repeat(64),
  OID,
  OID.slice(1),
  "x\u0000",
  "q".repeat(MAX_QUESTION_BYTES),
  "\u00e9".repeat(MAX_QUESTION_BYTES / 2 + 1),
  Array.from({ length: MAX_FORBIDDEN_PATHS }, () => "x"),
  Array.from({ length: MAX_FORBIDDEN_PATHS + 1 }, () => "x"),
  [],
  [""],
  ["x"],
  ["comment"],
  ["comment", "comment"],
  ["propose", "comment"],
  [1],
  {},
  { extra: 1 },
];

/** Every place in `value` (objects and arrays), as key paths. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((key) => places((value as Record<string, unknown>)[key], [...at, key]))];
}

function replaced(at: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(valid) as unknown as Record<string, unknown>;
  if (at.length === 0) return value as Record<string, unknown>;
  let parent = copy as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[at.at(-1) as string | number] = value;
  return copy;
}

describe("requestProblems", () => {
  it("passes the request createRequest made", () => {
    expect(requestProblems(valid)).toEqual([]);
    expect(checkRequestLine(valid)).toEqual({ problems: [], lineBytes: JSON.stringify(valid).length });
  });

  it("refuses exactly what the schema refuses, for every value in every place", () => {
    let refused = 0;
    for (const at of places(valid)) {
      for (const value of VALUES) {
        const request = replaced(at, value);
        const schema = RequestSchema.safeParse(request).success;
        expect({ at, value, ok: requestProblems(request).length === 0 }).toEqual({ at, value, ok: schema });
        if (!schema) refused++;
      }
      // An unknown field beside the others, in every object.
      const place = at.reduce<unknown>(
        (inner, key) => (inner as Record<string | number, unknown>)[key],
        valid,
      );
      if (typeof place === "object" && place !== null && !Array.isArray(place)) {
        const extra = replaced([...at, "extra"], 1);
        expect(requestProblems(extra)).toContain(`${[...at, "extra"].join(".")}: unknown field`);
        expect(RequestSchema.safeParse(extra).success).toBe(false);
      }
    }
    expect(refused).toBeGreaterThan(500);
  });

  it("names each field it refuses", () => {
    const request = { ...valid, actions: [], bundle: { ...valid.bundle, bytes: -1 }, more: 1 };
    expect(requestProblems(request)).toEqual([
      "bundle.bytes: must be an integer of at least 0",
      "actions: must not be empty",
      "more: unknown field",
    ]);
  });

  it("refuses an id that is not its content's, and a value no request line can carry", () => {
    expect(checkRequestLine({ ...valid, question: "changed" }).problems).toEqual([
      "id: does not match the request's content",
    ]);
    // The schema takes any string: the line it must become cannot hold this one.
    const lone = { ...valid, question: "\ud800" };
    expect(checkRequestLine(lone).problems).toEqual(["canonicalJson: $.question contains a lone surrogate"]);
  });
});

describe("fitPatch", () => {
  it("cuts by the bytes a section takes once escaped in the line, when asked", () => {
    const quoted = `diff --git a/q b/q\n+${'"'.repeat(100)}\n`;
    const plain = `diff --git a/p b/p\n+${"p".repeat(60)}\n`;
    const patch = quoted + plain;
    expect(fitPatch(patch, 1000)).toEqual({ patch, kept: 2, total: 2 });
    // Raw, the quoted section is the larger; escaped it doubles, and the plain one alone fits.
    expect(fitPatch(patch, 1000, 150)).toEqual({ patch: plain, kept: 1, total: 2 });
    expect(fitPatch(patch, 1000, 10)).toEqual({ patch: "", kept: 0, total: 2 });
  });
});
