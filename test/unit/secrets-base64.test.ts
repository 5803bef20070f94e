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

  // `base64` wraps at 76 columns, `openssl base64` at 64, and a YAML block scalar indents each line:
  // a value straddling the wrap is decoded whole, its line breaks and indentation left out.
  test.each([17, 30, 52, 74])("is found across the line wrap of base64 -w 76 (%i bytes before it)", (pad) => {
    const encoded = Buffer.from(`${"x".repeat(pad)} ${token}\n`).toString("base64");
    const wrapped = encoded.replace(/(.{76})/g, "$1\n");
    expect(wrapped.split("\n").some((line) => scan(line).length > 0)).toBe(false);
    expect(scan(`${wrapped}\n`).map((finding) => finding.rule)).toEqual(["github-pat"]);
    expect(scan(`${wrapped.replace(/\n/g, "\r\n")}\r\n`).map((finding) => finding.rule)).toEqual([
      "github-pat",
    ]);
  });

  test("a private key's PEM, base64 wrapped at 64 in an indented YAML block, is found", () => {
    const pem = `-----BEGIN ${"PRIVATE"} KEY-----\n${fake.privateKeyBody(3)}\n-----END ${"PRIVATE"} KEY-----\n`;
    const lines = Buffer.from(pem)
      .toString("base64")
      .match(/.{1,64}/g) as string[];
    const yaml = `apiVersion: v1\nkind: ConfigMap\ndata:\n  tls.b64: |\n${lines.map((line) => `    ${line}`).join("\n")}\n`;
    expect(scan(yaml, "deploy/tls.yaml").map((finding) => finding.rule)).toContain("private-key");
  });

  test("words on one line are not one run: blanks without a line end end it", () => {
    const encoded = Buffer.from(`${"x".repeat(30)} ${token}\n`).toString("base64");
    const at = 60; // after the encoded keyword, inside the token
    expect(summary(scan(`${encoded.slice(0, at)}\n${encoded.slice(at)}\n`))).toEqual(["1:github-pat"]);
    expect(scan(`${encoded.slice(0, at)} ${encoded.slice(at)}\n`)).toEqual([]);
  });

  test("base64 that holds no credential finds nothing", () => {
    const encoded = Buffer.from("ghp_ is the prefix of a GitHub token; this sentence has none.").toString(
      "base64",
    );
    expect(scan(`const doc = "${encoded}";\n`)).toEqual([]);
  });
});
