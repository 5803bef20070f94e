import { describe, expect, it } from "vitest";
import { foldSecretName, matchSecretName } from "../../src/secrets/names.js";

describe("secret names fold the way file systems do", () => {
  it.each([
    [".env ", "dotenv"],
    [".env.", "dotenv"],
    [".env. . ", "dotenv"],
    ["app/.env.production.", "dotenv"],
    ["keys/id_rsa ", "private-key"],
    [".ssh./config", "ssh-dir"],
    ["certs/server.key.", "private-key"],
  ])("keeps %j back (%s)", (path, rule) => {
    expect(matchSecretName(path)?.id).toBe(rule);
  });

  it("drops trailing dots and spaces per component and keeps . and ..", () => {
    expect(foldSecretName("a. /b../.env ")).toBe("a/b/.env");
    expect(foldSecretName("../x/./.env")).toBe("../x/./.env");
    expect(foldSecretName("src/app.ts")).toBe("src/app.ts");
  });

  it("an example stays an example when folded", () => {
    expect(matchSecretName(".env.example.")).toBeUndefined();
    expect(matchSecretName("docs/envoy. ")).toBeUndefined();
  });
});

describe("key stores and VPN configurations by name", () => {
  it.each([
    ["krb5/service.keytab", "private-key"],
    ["java/secrets.jceks", "private-key"],
    ["vpn/office.ovpn", "vpn-config"],
    ["VPN/OFFICE.OVPN", "vpn-config"],
  ])("keeps %s back (%s)", (path, rule) => {
    expect(matchSecretName(path)?.id).toBe(rule);
  });

  it.each(["docs/keytab.md", "src/ovpn-parser.ts"])("exports %s", (path) => {
    expect(matchSecretName(path)).toBeUndefined();
  });
});
