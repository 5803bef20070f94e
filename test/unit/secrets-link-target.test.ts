import { describe, expect, test } from "vitest";
import { matchLinkTarget } from "../../src/secrets/link-target.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";

const scanner = createContentScanner();
const rules = (path: string, target: string) =>
  scanner.scanLinkTarget(path, target).map((finding) => `${finding.rule}: ${finding.description}`);

describe("symbolic link targets are content that leaves", () => {
  test.each([
    ["config", "../.env", "dotenv"],
    ["app/config", "../.env.production", "dotenv"],
    ["deploy/key", "id_rsa", "private-key"],
    ["deploy/key", "/home/me/.ssh/id_ed25519", "private-key"],
    ["ssh", "../../.ssh/config", "ssh-dir"],
    ["creds", "/root/.aws/credentials", "cloud-credentials"],
    ["cfg", ".env. ", "dotenv"],
    ["vpn", "../office.ovpn", "vpn-config"],
  ])("%s -> %s names a secret file (%s)", (path, target, rule) => {
    expect(rules(path, target)).toEqual([
      `secret-file-name: names a ${matchLinkTarget(path, target)?.description} (${rule})`,
    ]);
  });

  test.each([
    ["README", "docs/README.md"],
    ["env-docs", "docs/environment-variables.md"],
    ["example", ".env.example"],
    ["lib", "../lib/index.js"],
  ])("%s -> %s is an ordinary link", (path, target) => {
    expect(scanner.scanLinkTarget(path, target)).toEqual([]);
  });

  test("a target string holding a credential is scanned like text, and never shown in full", () => {
    const token = fake.githubPat();
    const findings = scanner.scanLinkTarget("remote", `https://${token}@github.com/o/r`);
    expect(findings.map((finding) => finding.rule)).toEqual(["github-pat"]);
    expect(JSON.stringify(findings)).not.toContain(token.slice(4));
  });

  test("a link finding can be allowed by path and rule", () => {
    const allowing = createContentScanner({ allow: [{ rule: "secret-file-name", path: "config" }] });
    expect(allowing.scanLinkTarget("config", "../.env")).toEqual([]);
    expect(allowing.scanLinkTarget("other", "../.env")).toHaveLength(1);
  });
});
