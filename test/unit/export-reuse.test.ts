import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { reuseKey, rulesDigest } from "../../src/export/reuse.js";
import { CONTENT_RULES } from "../../src/secrets/content-rules.js";
import { DEFAULT_ARCHIVE_LIMITS } from "../../src/secrets/decode/limits.js";
import { NAME_RULES } from "../../src/secrets/names.js";
import { exportKey, keyPathspecs } from "../../src/store/cache.js";

describe("the key a stored bundle is read back under", () => {
  const today = rulesDigest();

  it("changes with any content rule, name rule or archive limit", () => {
    const [first, ...rest] = CONTENT_RULES;
    if (!first) throw new Error("no content rules");
    const digests = [
      rulesDigest([
        { ...first, pattern: new RegExp(`${first.pattern.source}x`, first.pattern.flags) },
        ...rest,
      ]),
      rulesDigest([{ ...first, keywords: [...first.keywords, "zzz"] }, ...rest]),
      rulesDigest([{ ...first, entropy: (first.entropy ?? 0) + 1 }, ...rest]),
      rulesDigest([{ ...first, reject: (secret: string) => secret === "x" }, ...rest]),
      rulesDigest(rest),
      rulesDigest(CONTENT_RULES, NAME_RULES.slice(1)),
      rulesDigest(CONTENT_RULES, [
        { ...(NAME_RULES[0] as (typeof NAME_RULES)[0]), except: [] },
        ...NAME_RULES.slice(1),
      ]),
      rulesDigest(CONTENT_RULES, NAME_RULES, { ...DEFAULT_ARCHIVE_LIMITS, maxDepth: 9 }),
    ];
    expect(rulesDigest()).toBe(today);
    expect(new Set([today, ...digests]).size).toBe(digests.length + 1);
  });

  it("changes with the commit, the base, the pathspecs, the policy, the rules and the version", () => {
    const inputs = {
      commit: "a".repeat(40),
      base: undefined,
      pathspecs: [] as string[],
      policy: { exclude: ["gen/"] },
      rules: today,
      version: "1.0.0",
    };
    const keys = [
      reuseKey(inputs),
      reuseKey({ ...inputs, commit: "b".repeat(40) }),
      reuseKey({ ...inputs, base: "c".repeat(40) }),
      reuseKey({ ...inputs, pathspecs: ["", "docs"] }),
      reuseKey({ ...inputs, policy: { exclude: ["gen/", "tmp/"] } }),
      reuseKey({ ...inputs, policy: { exclude: ["gen/"], secrets: { allow: [{ fingerprint: "f" }] } } }),
      reuseKey({ ...inputs, rules: rulesDigest(CONTENT_RULES.slice(1)) }),
      reuseKey({ ...inputs, version: "1.0.1" }),
    ];
    expect(reuseKey({ ...inputs })).toBe(keys[0]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("is the bytes stores already hold: the canonical JSON of the export's key and the rules", () => {
    const commit = "a".repeat(40);
    const pathspecs = keyPathspecs({ prefix: "sub/" }, ["docs"]);
    expect(pathspecs).toEqual(["sub/", "docs"]);
    expect(keyPathspecs({ prefix: "sub/" }, [])).toEqual([]);
    expect(keyPathspecs({ prefix: "sub/" }, undefined)).toEqual([]);
    const inputs = { commit, base: undefined, pathspecs, policy: undefined, version: "1.0.0" };
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    const fields = `"base":null,"commit":"${commit}"`;
    const rest = `"pathspecs":["sub/","docs"],"policy":null`;
    expect(exportKey(inputs)).toBe(sha256(`{${fields},"kind":"export",${rest},"version":"1.0.0"}`));
    expect(reuseKey({ ...inputs, rules: "r" })).toBe(
      sha256(`{${fields},"kind":"bundle",${rest},"rules":"r","version":"1.0.0"}`),
    );
  });
});
