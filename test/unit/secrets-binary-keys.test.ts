import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { classifyDerKey } from "../../src/secrets/binary/der.js";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { keytab, pkcs12 } from "../fixtures/secrets/key-files.js";
import { testEnv } from "../helpers/repo.js";

const root = mkdtempSync(join(tmpdir(), "rr-binary-keys-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = testEnv(root);

const scanner = createContentScanner();
function scan(path: string, content: Buffer): Finding[] {
  const file = scanner.scanFile(path);
  for (let at = 0; at < content.length; at += 1000) file.write(content.subarray(at, at + 1000));
  return file.end();
}
const rules = (findings: Finding[]) => findings.map((finding) => `${finding.line}:${finding.rule}`);

/** Key pairs generated now; nothing of them is stored in the repository. */
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const ed = generateKeyPairSync("ed25519");

function tool(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, env, stdio: "ignore" });
}

function keytool(store: string, type: string, ...args: string[]): Buffer {
  const path = join(root, store);
  tool("keytool", [...args, "-keystore", path, "-storetype", type, "-storepass", "changeit", "-noprompt"]);
  return readFileSync(path);
}

function certificate(): Buffer {
  tool("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "cert.key",
    "-out",
    "cert.pem",
    "-subj",
    "/CN=fake",
    "-days",
    "1",
  ]);
  tool("openssl", ["x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der"]);
  return readFileSync(join(root, "cert.der"));
}

describe("key material is found by its bytes, whatever the file is called", () => {
  test.each([
    ["RSA PKCS#1", rsa.privateKey.export({ type: "pkcs1", format: "der" })],
    ["RSA PKCS#8", rsa.privateKey.export({ type: "pkcs8", format: "der" })],
    ["EC SEC1", ec.privateKey.export({ type: "sec1", format: "der" })],
    ["EC PKCS#8", ec.privateKey.export({ type: "pkcs8", format: "der" })],
    ["Ed25519 PKCS#8", ed.privateKey.export({ type: "pkcs8", format: "der" })],
    [
      "encrypted PKCS#8",
      rsa.privateKey.export({ type: "pkcs8", format: "der", cipher: "aes-256-cbc", passphrase: "pw" }),
    ],
  ])("a DER %s private key named data.bin", (_, der) => {
    expect(rules(scan("assets/data.bin", der))).toEqual(["1:private-key-der"]);
  });

  test("a PKCS#12 bundle written by openssl", () => {
    expect(rules(scan("assets/bundle.dat", pkcs12(root, env)))).toEqual(["1:pkcs12-file"]);
  });

  test.each(["JKS", "JCEKS"])("a %s store with a private key written by keytool", (type) => {
    const store = keytool(
      `keys.${type}`,
      type,
      "-genkeypair",
      "-alias",
      "app",
      "-keyalg",
      "EC",
      "-groupname",
      "secp256r1",
      "-dname",
      "CN=fake",
      "-keypass",
      "changeit",
      "-validity",
      "1",
    );
    expect(rules(scan("assets/store.bin", store))).toEqual(["1:java-keystore"]);
  });

  test("a JKS trust store (certificates only) is public and passes", () => {
    const der = certificate();
    const trust = keytool("trust.jks", "JKS", "-importcert", "-alias", "ca", "-file", join(root, "cert.der"));
    expect(der.length).toBeGreaterThan(100);
    expect(scan("assets/truststore.bin", trust)).toEqual([]);
  });

  test("a Kerberos keytab", () => {
    expect(rules(scan("etc/service.dat", keytab()))).toEqual(["1:kerberos-keytab"]);
  });

  test("public keys, certificates and ordinary binaries are not key material", () => {
    expect(scan("a.der", rsa.publicKey.export({ type: "spki", format: "der" }))).toEqual([]);
    expect(scan("b.der", rsa.publicKey.export({ type: "pkcs1", format: "der" }))).toEqual([]);
    expect(scan("c.der", certificate())).toEqual([]);
    expect(
      scan("d.bin", Buffer.from([0x30, 0x82, 0x01, 0x00, 0x02, 0x01, 0x00, ...Array(300).fill(7)])),
    ).toEqual([]);
    expect(scan("e.png", Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"))).toEqual([]);
  });

  test("the finding names the file, never the key bytes beyond a redacted prefix", () => {
    const der = rsa.privateKey.export({ type: "pkcs8", format: "der" });
    const [finding] = scan("assets/data.bin", der);
    expect(finding).toMatchObject({ path: "assets/data.bin", description: "PKCS#8 private key (DER)" });
    expect(finding?.redacted).toMatch(/^.{0,4}…$/);
    expect(JSON.stringify(finding)).not.toContain(der.toString("hex").slice(8, 40));
  });

  test("a key file must be exactly its DER structure; a prefix of one is not flagged as a file", () => {
    const der = rsa.privateKey.export({ type: "pkcs1", format: "der" });
    expect(classifyDerKey(der, der.length)).toBe("RSA or DSA private key (DER)");
    expect(classifyDerKey(der, der.length + 1)).toBeUndefined();
  });
});
