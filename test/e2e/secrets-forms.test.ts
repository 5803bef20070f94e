// The bytes scanned are the bytes sent, in every form they take: through `git review-remote export`,
// a secret in another encoding, compressed, as key material, in a link target or behind a folded name
// stops the export (exit 6) or stays out of the bundle, and no value is ever printed in full.
import { generateKeyPairSync } from "node:crypto";
import { readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALNUM, fake, fakeChars } from "../fixtures/secrets/fake-tokens.js";
import { keytab, pkcs12 } from "../fixtures/secrets/key-files.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { createTestRepo, repoState, type TestRepo } from "../helpers/repo.js";

const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
const token = (seed: number) => fake.githubPat(seed);
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
function utf32be(text: string): Buffer {
  const points = [...text].map((c) => c.codePointAt(0) ?? 0);
  const out = Buffer.alloc(points.length * 4);
  for (const [i, point] of points.entries()) out.writeUInt32BE(point, i * 4);
  return out;
}

const PUTTY = [
  "PuTTY-User-Key-File-3: ssh-ed25519",
  "Encryption: none",
  "Comment: deploy",
  "Public-Lines: 2",
  fakeChars(ALNUM, 64, 3),
  fakeChars(ALNUM, 20, 4),
  "Private-Lines: 1",
  fakeChars(ALNUM, 44, 5),
  `Private-MAC: ${fakeChars("0123456789abcdef", 64, 6)}`,
  "",
].join("\n");

/** path → the rule its finding must name; each file holds its own secret. */
const FLAGGED: Record<string, string> = {
  "config/settings.utf16.txt": "github-pat",
  "config/settings.utf32.txt": "github-pat",
  "data/dump.json.gz": "github-pat",
  "lib/app.jar": "github-pat",
  "data/big.log.gz": "uninspectable-archive",
  "assets/key.bin": "private-key-der",
  "assets/bundle.dat": "pkcs12-file",
  "etc/service.dat": "kerberos-keytab",
  "notes/deploy.txt": "putty-private-key",
  "notes/identity.txt": "age-secret-key",
  "docs/token-link": "github-pat",
  "config/current": "secret-file-name",
  "scripts/deploy.sh": "curl-auth-user",
  "config/application.properties": "config-password",
  "deploy/secret.yaml": "kubernetes-secret-yaml",
};

/** Secret names, also folded the way file systems fold them: never in the bundle. */
const EXCLUDED = [".env ", "config/.env.", "etc/krb5.keytab", "vpn/office.ovpn"];

let repo: TestRepo;
let secrets: string[];

beforeAll(() => {
  repo = createTestRepo();
  const der = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
    type: "pkcs8",
    format: "der",
  });
  const password = fake.password(7);
  const k8s = Buffer.from(fake.password(8)).toString("base64");
  const age = `AGE-SECRET-KEY-1${fakeChars(BECH32, 58)}`;
  secrets = [token(1), token(2), token(3), token(4), token(5), password, k8s, age];
  repo.write("README.md", "# demo\n");
  repo.write("config/settings.utf16.txt", utf16le(`name = "demo"\ntoken = "${token(1)}"\n`));
  repo.write("config/settings.utf32.txt", utf32be(`name = "demo"\ntoken = "${token(2)}"\n`));
  repo.write("data/dump.json.gz", gzipSync(`{"name": "demo", "token": "${token(3)}"}\n`));
  repo.write("lib/app.jar", makeZip([{ name: "application.properties", data: `upstream=${token(4)}\n` }]));
  repo.write("data/big.log.gz", gzipSync(Buffer.alloc(4 * 1024 * 1024)));
  repo.write("assets/key.bin", der);
  repo.write("assets/bundle.dat", pkcs12(repo.home));
  repo.write("etc/service.dat", keytab());
  repo.write("notes/deploy.txt", PUTTY);
  repo.write("notes/identity.txt", `# created: 2024-01-01T00:00:00Z\n${age}\n`);
  repo.write("docs/guide.md", "# guide\n");
  symlinkSync(token(5), join(repo.dir, "docs/token-link"));
  repo.write("scripts/deploy.sh", `#!/bin/sh\ncurl -u deploy:${password} https://ci.internal/api\n`);
  repo.write("config/application.properties", `spring.datasource.password=${fake.password(9)}\n`);
  repo.write(
    "deploy/secret.yaml",
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: ${k8s}\n`,
  );
  repo.write(".env ", `TOKEN=${token(6)}\n`);
  repo.write("config/.env.", `TOKEN=${token(7)}\n`);
  repo.write("etc/krb5.keytab", "not even a keytab\n");
  repo.write("vpn/office.ovpn", "client\n<key>\n</key>\n");
  symlinkSync("../.env.production", join(repo.dir, "config/current"));
  repo.commit("every form");
});

afterAll(() => repo.cleanup());

describe("every form a secret takes", () => {
  it("names each file with its rule in export --list, and keeps folded secret names out", () => {
    const list = JSON.parse(repo.run(["export", "--list", "--json"]).stdout) as {
      files: { path: string }[];
      excluded: { path: string; reason: string }[];
      findings: { path: string; rule: string }[];
    };
    for (const [path, rule] of Object.entries(FLAGGED)) {
      expect(
        list.findings.filter((finding) => finding.path === path).map((finding) => finding.rule),
        path,
      ).toContain(rule);
    }
    const files = new Set(list.files.map((file) => file.path));
    for (const path of EXCLUDED) {
      expect(files.has(path), path).toBe(false);
      expect(
        list.excluded.map((entry) => entry.path),
        path,
      ).toContain(path);
    }
    expect(files.has("README.md")).toBe(true);
  });

  it("stops the export with exit 6, stores and sends nothing, and never prints a value", () => {
    const before = repoState(repo);
    const result = repo.run(["export"]);
    expect(result.status, result.stderr).toBe(6);
    // The refusal shows the first findings and how many more; --json names every one.
    expect(result.stderr).toContain("more (git review-remote export --list lists every one)");
    const json = repo.run(["export", "--json"]);
    expect(json.status, json.stderr).toBe(6);
    const found = new Set(JSON.parse(json.stdout).findings.map((finding: { path: string }) => finding.path));
    for (const path of Object.keys(FLAGGED)) expect(found.has(path), path).toBe(true);
    for (const secret of secrets) {
      for (const output of [result.stdout + result.stderr, json.stdout + json.stderr]) {
        expect(output).not.toContain(secret);
        expect(output).not.toContain(secret.slice(6));
      }
    }
    const bundles = join(repo.dir, ".git", "review-remote", "bundles");
    expect(readdirSafe(bundles).filter((name) => name.endsWith(".tar.gz"))).toEqual([]);
    expect(repoState(repo)).toEqual(before);
  });
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
