import { describe, expect, test } from "vitest";
import { isExampleHost, isPlaceholder, isPlaceholderPair } from "../../src/secrets/rules/placeholders.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake, fakeChars, HEX } from "../fixtures/secrets/fake-tokens.js";

/** A `${NAME}` variable reference, as shells, Compose, Terraform and JS templates write it. */
const ref = (name: string) => `\${${name}}`;

describe("placeholders", () => {
  test.each([
    ref("DB_PASSWORD"),
    "$DB_PASSWORD",
    "%DB_PASSWORD%",
    "{{ .Values.password }}",
    "<password>",
    "&lt;token&gt;",
    "****",
    "xxxxxxxx",
    "changeme",
    "password",
    "your-api-key",
    "YOUR_TOKEN_HERE",
    "put-your-key-here",
    "key_1234",
    "pass123",
    "password1",
    "secret_0000",
    "ENC(abcdef)",
    "%s",
  ])("%s is a placeholder", (value) => {
    expect(isPlaceholder(value)).toBe(true);
  });

  test.each([
    fake.password(),
    fakeChars(HEX, 32),
    "fake-bj9zd3y8ck5s",
    "Ab3$-x",
    `key_${fakeChars(HEX, 64)}`,
  ])("%s is not", (value) => {
    expect(isPlaceholder(value)).toBe(false);
  });

  test("example hosts: documentation names, loopback, the developer's own machine", () => {
    for (const host of [
      "example.com",
      "db.example.org:5432",
      "localhost",
      "127.0.0.1:8080",
      "api.test",
      "x.invalid",
      "dotenv.org",
    ])
      expect(isExampleHost(host), host).toBe(true);
    for (const host of ["db.internal", "github.com", "10.0.0.5", "example.com.evil.io"])
      expect(isExampleHost(host), host).toBe(false);
  });

  test("a weak password is an example on an example host only; a random one never is", () => {
    expect(isPlaceholderPair("app", "hunter42", "localhost")).toBe(true);
    expect(isPlaceholderPair("app", "hunter42", "db.prod.internal")).toBe(false);
    expect(isPlaceholderPair("app", fake.password(), "localhost")).toBe(false);
    expect(isPlaceholderPair("guest", "guest", "rabbit.prod")).toBe(true);
  });

  test("placeholders joined by spaces or punctuation are one; a random part keeps the pair a finding", () => {
    expect(isPlaceholderPair("user", "pass pass", "complex.url.com")).toBe(true);
    expect(isPlaceholderPair("user", "pass#pass", "complex.url.com")).toBe(true);
    expect(isPlaceholderPair("user", "test/secret", "db.internal")).toBe(true);
    expect(isPlaceholderPair("user", "Ab3$-x", "db.internal")).toBe(false);
    expect(isPlaceholderPair("user", `pass ${fake.password()}`, "complex.url.com")).toBe(false);
    expect(isPlaceholderPair("user", "Tr0ub4dor&3", "db.internal")).toBe(false);
  });
});

describe("documentation examples are not findings", () => {
  const scanner = createContentScanner();

  test("the dotenv example in every vendored Yarn release", () => {
    const line =
      'var e=`Examples:\\n  DOTENV_KEY="dotenv://:key_1234@dotenv.org/vault/.env.vault?environment=production"`;';
    expect(scanner.scanText(".yarn/releases/yarn-4.9.2.cjs", line)).toEqual([]);
  });

  test("a real dotenv key in the same shape is a finding", () => {
    const line = `DOTENV_KEY="dotenv://:key_${fakeChars(HEX, 64)}@dotenv.org/vault/.env.vault?environment=production"`;
    expect(scanner.scanText(".env.ci", line).map((finding) => finding.rule)).toEqual(["url-credentials"]);
  });
});
