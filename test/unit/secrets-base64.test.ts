// A credential written in base64 is found where its encoded keyword is: every alignment, both
// alphabets, a line of its own, and only once however many fragments of it turn up.
import { describe, expect, test } from "vitest";
import { base64Fragments } from "../../src/secrets/base64-keywords.js";
import { CONTENT_RULES } from "../../src/secrets/content-rules.js";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";

const scanner = createContentScanner();

function scan(text: string, path = "src/config.ts"): Finding[] {
  const file = scanner.scanFile(path);
  file.write(Buffer.from(text));
  return file.end();
}

const summary = (findings: Finding[]) => findings.map((finding) => `${finding.line}:${finding.rule}`);

describe("the encoded keywords", () => {
  test("are the characters the keyword alone decides, at each of the three alignments", () => {
    for (const prefix of ["", "a", "ab", "abc", "\u00ff\u00fe"]) {
      const encoded = Buffer.from(`${prefix}ghp_`, "latin1").toString("base64");
      expect(base64Fragments("ghp_").some((fragment) => encoded.includes(fragment))).toBe(true);
    }
  });

  test("of a 3-byte keyword lend a fourth character, partly its own, at the alignments that fix only three", () => {
    for (const prefix of ["", "a", "ab", "abc", "\u00ff\u00fe"]) {
      for (const suffix of ["", "\u0000", "b-", "\u00ff"]) {
        const encoded = Buffer.from(`${prefix}xox${suffix}`, "latin1").toString("base64");
        expect(
          base64Fragments("xox").some((fragment) => encoded.includes(fragment)),
          JSON.stringify(prefix + suffix),
        ).toBe(true);
      }
    }
    expect(base64Fragments("xox").every((fragment) => fragment.length >= 4)).toBe(true);
  });

  test("of every rule's keyword are found at each of the three alignments", () => {
    for (const keyword of new Set(CONTENT_RULES.flatMap((rule) => rule.keywords))) {
      const fragments = base64Fragments(keyword);
      for (const prefix of ["", "\u00ff", "\u00ff\u0000"]) {
        const encoded = Buffer.from(`${prefix}${keyword}\u0080`, "latin1").toString("base64");
        expect(
          fragments.some((fragment) => encoded.includes(fragment)),
          `${keyword} after ${prefix.length}`,
        ).toBe(true);
      }
    }
  });

  test("are left out when too short to be told from ordinary text", () => {
    expect(base64Fragments("sk")).toEqual([]);
  });

  test("have a URL-safe spelling where the standard one holds + or /", () => {
    const fragments = base64Fragments("\u00fb\u00ff\u00bf-token");
    expect(fragments.some((fragment) => /[+/]/.test(fragment))).toBe(true);
    expect(fragments.some((fragment) => /[-_]/.test(fragment))).toBe(true);
  });
});

describe("a credential in base64", () => {
  const token = fake.githubPat();

  test.each([0, 1, 2])("is found whatever precedes it in the encoded text (%i bytes)", (pad) => {
    const encoded = Buffer.from(`${"x".repeat(pad)}token=${token}\n`).toString("base64");
    expect(summary(scan(`// config\nexport const AUTH = atob("${encoded}");\n`))).toEqual(["2:github-pat"]);
  });

  test.each([0, 1, 2])("is found by a 3-byte keyword whatever precedes it (%i bytes)", (pad) => {
    const slack = fake.slackBot();
    const encoded = Buffer.from(`${" ".repeat(pad)}${slack}`).toString("base64");
    expect(summary(scan(`// config\nexport const AUTH = atob("${encoded}");\n`))).toEqual(["2:slack-token"]);
  });

  test("is found in the URL-safe alphabet and without padding", () => {
    const encoded = Buffer.from(`\u00fb\u00ff${token}`, "latin1").toString("base64url");
    expect(summary(scan(`value: ${encoded}\n`, "config/app.yaml"))).toContain("1:github-pat");
  });

  test("is reported with its decoded value, redacted", () => {
    const encoded = Buffer.from(token).toString("base64");
    const [finding] = scan(`const a = "${encoded}";\n`);
    expect(finding?.redacted).toBe(`${token.slice(0, 4)}…`);
    expect(JSON.stringify(finding)).not.toContain(token);
  });

  test("in a long blob is found away from the blob's start", () => {
    const blob = Buffer.concat([Buffer.alloc(30_000, 7), Buffer.from(` ${token} `), Buffer.alloc(30_000, 9)]);
    expect(summary(scan(`data = "${blob.toString("base64")}"\n`))).toEqual(["1:github-pat"]);
  });

  test("is allowed by a marker on its line like any other finding", () => {
    const encoded = Buffer.from(token).toString("base64");
    expect(scan(`const a = "${encoded}"; // review-remote:allow github-pat\n`)).toEqual([]);
  });

  test("base64 that holds no credential finds nothing", () => {
    const encoded = Buffer.from("ghp_ is the prefix of a GitHub token; this sentence has none.").toString(
      "base64",
    );
    expect(scan(`const doc = "${encoded}";\n`)).toEqual([]);
  });
});
