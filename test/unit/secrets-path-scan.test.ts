// A path leaves with the bundle as its tar entry's name: a credential in a file or directory name is
// a finding, as one in the file's content is; so is one in a name inside an archive.
import { describe, expect, test } from "vitest";
import { formatAllowed, formatFinding } from "../../src/report/finding.js";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { makeTar } from "../integration/worker-tar.js";

const scanner = createContentScanner();

describe("a credential in a path", () => {
  test.each([
    [`cache/${fake.githubPat()}.json`, "github-pat"],
    [`tokens/${fake.stripeLive()}/config.yaml`, "stripe-access-token"],
    [`keys/${fake.awsKeyId()}`, "aws-access-token"],
  ])("%s is a %s finding on the path itself", (path, rule) => {
    const [finding, ...rest] = scanner.scanPath(path);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      path,
      line: 1,
      rule,
      description: expect.stringMatching(/in a name$/),
    });
    expect(finding?.redacted).toMatch(/^.{1,4}…$/);
    // Printed, the path says where as any finding does, and shows no more of the value.
    const printed = formatFinding(finding as Finding, true);
    const value = /[A-Za-z0-9_]{16,}/.exec(path)?.[0] as string;
    expect(printed).not.toContain(value);
    expect(printed).toContain(path.replace(value, finding?.redacted as string));
  });

  test("printed with no line, quoted as git quotes the path, the redaction as it is", () => {
    const token = fake.githubPat();
    const [finding] = scanner.scanPath(`caf\u00e9/${token}\t.json`);
    expect(finding).toMatchObject({ line: 1, redacted: "ghp_…" });
    expect(formatFinding(finding as Finding, true)).toMatch(
      /^"caf\\303\\251\/ghp_…\\t\.json": github-pat: GitHub personal access token, in a name \(ghp_…\) \[fingerprint [0-9a-f]{16}\]$/,
    );
    expect(formatFinding(finding as Finding, false)).toMatch(/^"caf\u00e9\/ghp_…\\t\.json": github-pat: /);
  });

  test("ordinary paths find nothing", () => {
    for (const path of [
      "src/app.ts",
      "docs/ghp_prefix.md",
      "tests/fixtures/sk_live_notes.txt",
      "a/b/c/d.json",
    ]) {
      expect(scanner.scanPath(path), path).toEqual([]);
    }
  });

  test("a policy allow by path lets it through, and says so", () => {
    const path = `testdata/${fake.githubPat()}.json`;
    const allowing = createContentScanner({ allow: [{ path: "testdata/**" }] });
    expect(allowing.scanPath(path)).toEqual([]);
    expect(allowing.allowed().map((finding) => finding.path)).toEqual([path]);
    expect(formatAllowed(allowing.allowed()[0] as Finding, true)).not.toContain(path);
  });
});

describe("a credential in a name inside an archive", () => {
  const scan = (path: string, bytes: Buffer) => {
    const file = scanner.scanFile(path);
    file.write(bytes);
    return file.end();
  };

  test("a zip member's name (stored uncompressed in the zip) is a finding", () => {
    const name = `cache/${fake.githubPat()}.json`;
    const findings = scan("assets/bundle.zip", makeZip([{ name, data: Buffer.from("{}\n") }]));
    expect(findings).toEqual([
      expect.objectContaining({ path: "assets/bundle.zip", member: name, rule: "github-pat" }),
    ]);
    expect(formatFinding(findings[0] as Finding, true)).toMatch(
      /^assets\/bundle\.zip!\/cache\/.{1,4}…\.json: github-pat: /,
    );
  });

  test("a tar member's name and a link target in it are findings", () => {
    const key = fake.awsKeyId();
    const tar = makeTar([
      { name: `keys/${key}.txt`, content: "clean\n" },
      { name: "latest", type: "2", linkpath: `keys/${key}.txt` },
    ]);
    const rules = scan("backup.tar", tar).map((finding) => `${finding.member}:${finding.rule}`);
    expect(rules).toEqual([`keys/${key}.txt:aws-access-token`, "latest:aws-access-token"]);
  });
});
