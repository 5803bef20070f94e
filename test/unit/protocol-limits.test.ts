import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIMITS,
  LIMIT_CEILINGS,
  limitOfRule,
  overLimitRule,
  resolveLimits,
} from "../../src/protocol/limits.js";

describe("resolveLimits", () => {
  it("is the defaults with the configured timeout when nothing is set", () => {
    expect(resolveLimits(600, {}, undefined)).toEqual({ ...DEFAULT_LIMITS, timeoutSeconds: 600 });
  });

  it("takes git config's raised limits and grows the result's own limit to carry them", () => {
    const limits = resolveLimits(900, { maxPatchBytes: 8 * 1024 * 1024, maxComments: 2500 }, undefined);
    expect(limits.maxPatchBytes).toBe(8 * 1024 * 1024);
    expect(limits.maxComments).toBe(2500);
    // Twice the extra patch bytes (JSON escaping) and 1 KiB per extra comment, on top of the default.
    expect(limits.maxResultBytes).toBe(
      DEFAULT_LIMITS.maxResultBytes + 2 * (8 * 1024 * 1024 - DEFAULT_LIMITS.maxPatchBytes) + 1024 * 2000,
    );
  });

  it("lets the policy file only lower, whatever git config raised", () => {
    const limits = resolveLimits(
      900,
      { maxCommits: LIMIT_CEILINGS.maxCommits },
      { maxCommits: 5, maxResultBytes: 1000, timeoutSeconds: 10_000 },
    );
    expect(limits).toMatchObject({ maxCommits: 5, maxResultBytes: 1000, timeoutSeconds: 900 });
  });
});

describe("over-limit rules", () => {
  it("names a raisable limit and reads it back; anything else is no limit", () => {
    expect(limitOfRule(overLimitRule("maxPatchBytes"))).toBe("maxPatchBytes");
    expect(limitOfRule("limits.maxCommits")).toBe("maxCommits");
    expect(limitOfRule("limits.timeoutSeconds")).toBeUndefined();
    expect(limitOfRule("limits.__proto__")).toBeUndefined();
    expect(limitOfRule("hygiene/trailing-whitespace")).toBeUndefined();
    expect(limitOfRule(undefined)).toBeUndefined();
  });
});
