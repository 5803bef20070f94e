import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { fake, fakeChars, HEX } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";

const scanner = createContentScanner();

/** Feeds `content` to a file scan in chunks of `size` bytes. */
function scanInChunks(content: Buffer, size: number, path = "src/app.ts", scan = scanner): Finding[] {
  const file = scan.scanFile(path);
  for (let offset = 0; offset < content.length; offset += size)
    file.write(content.subarray(offset, offset + size));
  return file.end();
}

const summary = (findings: Finding[]) => findings.map((finding) => `${finding.line}:${finding.rule}`);

describe("content scanner findings", () => {
  test("reports path, 1-based line, rule, description, a redacted value and a fingerprint", () => {
    const key = fake.awsKeyId();
    const [finding, ...rest] = scanner.scanText(
      "src/config/aws.ts",
      `export const awsConfig = {\n  id: "${key}",\n};\n`,
    );
    expect(rest).toEqual([]);
    expect(finding).toEqual({
      path: "src/config/aws.ts",
      line: 2,
      rule: "aws-access-token",
      description: "AWS access key id",
      redacted: `${key.slice(0, 4)}…`,
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  test("never puts a whole secret in a finding", () => {
    const secrets = [
      fake.awsKeyId(),
      fake.awsSecret(),
      fake.stripeLive(),
      fake.jwt(),
      fake.password(),
      fake.npm(),
    ];
    const text = [
      `aws_access_key_id = ${secrets[0]}`,
      `aws_secret_access_key = ${secrets[1]}`,
      `stripe = "${secrets[2]}"`,
      `token: ${secrets[3]}`,
      `url = "postgres://app:${secrets[4]}@db.example.com/app"`,
      `NPM_TOKEN=${secrets[5]}`,
    ].join("\n");
    const findings = scanner.scanText("config.txt", text);
    expect(findings).toHaveLength(6);
    const serialized = JSON.stringify(findings);
    for (const secret of secrets) {
      expect(serialized.includes(secret)).toBe(false);
      expect(serialized.includes(secret.slice(0, 8))).toBe(false);
    }
    for (const finding of findings) expect(finding.redacted).toMatch(/^.{0,4}…$/);
  });

  test("shows fewer characters of a short secret", () => {
    const [finding] = scanner.scanText("a.txt", "redis://:Ab3$-x@cache.example.com");
    expect(finding?.redacted).toBe("A…");
  });

  test("reports every hit, and an identical value on the same line once", () => {
    const first = fake.githubPat(1);
    const second = fake.githubPat(2);
    const text = `a=${first} b=${second}\nc=${first}\nd=${first} e=${first}\n`;
    expect(summary(scanner.scanText("a.sh", text))).toEqual([
      "1:github-pat",
      "1:github-pat",
      "2:github-pat",
      "3:github-pat",
    ]);
  });

  test("fingerprints depend on path, rule and value, not on the line", () => {
    const token = fake.githubPat();
    const fingerprintOf = (path: string, text: string) => scanner.scanText(path, text)[0]?.fingerprint;
    const base = fingerprintOf("a.sh", `x=${token}`);
    expect(fingerprintOf("a.sh", `\n\n\ny=${token}`)).toBe(base);
    expect(fingerprintOf("b.sh", `x=${token}`)).not.toBe(base);
    expect(fingerprintOf("a.sh", `x=${fake.githubPat(2)}`)).not.toBe(base);
  });

  test("counts lines with CRLF endings and in files without a final newline", () => {
    const text = `one\r\ntwo\r\nkey=${fake.npm()}`;
    expect(summary(scanner.scanText("a.txt", text))).toEqual(["3:npm-access-token"]);
  });

  test("finds nothing in an empty file or a path named like a keyword", () => {
    expect(scanner.scanText("AKIA.txt", "")).toEqual([]);
    expect(
      scanner.scanText(`AK${"IA"}${fakeChars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 16)}.txt`, "hello\n"),
    ).toEqual([]);
  });
});

describe("content scanner allows", () => {
  const token = fake.githubPat();
  const other = fake.githubPat(2);
  const text = `a=${token}\nb=${other}\nc=${fake.stripeLive()}\n`;

  test("a rule allow silences that rule only", () => {
    const scan = createContentScanner({ allow: [{ rule: "github-pat" }] });
    expect(summary(scan.scanText("ci/env.sh", text))).toEqual(["3:stripe-access-token"]);
  });

  test("a rule allow with a path silences that rule in matching paths only", () => {
    const scan = createContentScanner({ allow: [{ rule: "github-pat", path: "ci/env.sh" }] });
    expect(summary(scan.scanText("ci/env.sh", text))).toEqual(["3:stripe-access-token"]);
    expect(summary(scan.scanText("ci/other.sh", text))).toEqual([
      "1:github-pat",
      "2:github-pat",
      "3:stripe-access-token",
    ]);
  });

  test("a path allow is a gitignore-style glob, or what the given matcher says", () => {
    const glob = createContentScanner({ allow: [{ rule: "github-pat", path: "ci/**" }] });
    expect(summary(glob.scanText("ci/deep/env.sh", text))).toEqual(["3:stripe-access-token"]);
    expect(summary(glob.scanText("src/ci/env.sh", text))).toHaveLength(3);
    const matchPath = (pattern: string, path: string) => pattern === "anything" && path.endsWith(".sh");
    const custom = createContentScanner({ allow: [{ rule: "github-pat", path: "anything" }], matchPath });
    expect(summary(custom.scanText("deep/env.sh", text))).toEqual(["3:stripe-access-token"]);
  });

  test("a fingerprint allow silences that value only", () => {
    const fingerprint = scanner.scanText("ci/env.sh", text)[0]?.fingerprint;
    const scan = createContentScanner({ allow: [{ fingerprint }] });
    expect(summary(scan.scanText("ci/env.sh", text))).toEqual(["2:github-pat", "3:stripe-access-token"]);
    expect(summary(scan.scanText("ci/moved.sh", text))).toHaveLength(3);
  });

  test("a path alone allows every rule in the files it matches, and says so; an empty entry allows nothing", () => {
    const scan = createContentScanner({ allow: [{ path: "ci/env.sh" }] });
    expect(scan.scanText("ci/env.sh", text)).toEqual([]);
    expect(scan.scanText("ci/other.sh", text)).toHaveLength(3);
    expect(scan.allowed().map((finding) => [finding.line, finding.allowedBy])).toEqual([
      [1, 'secrets.allow {"path": "ci/env.sh"}'],
      [2, 'secrets.allow {"path": "ci/env.sh"}'],
      [3, 'secrets.allow {"path": "ci/env.sh"}'],
    ]);
    expect(createContentScanner({ allow: [{}] }).scanText("ci/env.sh", text)).toHaveLength(3);
  });

  test("a marker allows its own line of its own text: not a member beside it, nor a line of another reading", () => {
    const where = (findings: Finding[]) =>
      findings.map((finding) => `${finding.member ?? ""}:${finding.line}:${finding.rule}`);
    const scanBytes = (path: string, bytes: Buffer) => {
      const scanner = createContentScanner();
      const file = scanner.scanFile(path);
      file.write(bytes);
      return { found: where(file.end()), allowed: where(scanner.allowed()) };
    };
    // A zip: the marker in one member allows nothing in another at the same line.
    const zip = makeZip([
      { name: "a.txt", data: Buffer.from("x = 1 # gitleaks:allow\n") },
      { name: "b.txt", data: Buffer.from(`a=${token}\n`) },
      { name: "c.txt", data: Buffer.from(`a=${other} # gitleaks:allow\n`) },
    ]);
    expect(scanBytes("keys.zip", zip)).toEqual({
      found: ["b.txt:1:github-pat"],
      allowed: ["c.txt:1:github-pat"],
    });
    // UTF-16 text: the marker on the next line allows nothing; on the same line, its line.
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(scanBytes("notes.txt", utf16(`a=${token}\n// gitleaks:allow\n`))).toEqual({
      found: [":1:github-pat"],
      allowed: [],
    });
    expect(scanBytes("notes.txt", utf16(`a=${token} // gitleaks:allow\n`))).toEqual({
      found: [],
      allowed: [":1:github-pat"],
    });
    // A private key is found at its first line: a marker on its last line allows none of it.
    const pem = fake.pemKey("RSA ").replace(/-----\n$/, "----- # gitleaks:allow\n");
    expect(scanBytes("id.txt", Buffer.from(pem))).toEqual({ found: [":1:private-key"], allowed: [] });
  });

  test("a line ends at a \\r alone too: a marker in a file of \\r lines allows its own line only", () => {
    const scan = createContentScanner();
    for (const end of ["\r", "\n", "\r\n"]) {
      const text = [`a=${token} // review-remote:allow`, "x = 1", `b=${other}`, ""].join(end);
      expect(summary(scan.scanText("old.txt", text)), JSON.stringify(end)).toEqual(["3:github-pat"]);
    }
    // Mixed ends, and a \r\n counted once.
    expect(summary(scan.scanText("m.txt", `x\r\ny\rz\na=${token}\n`))).toEqual(["4:github-pat"]);
  });

  test("gitleaks:allow allows its whole line, whatever follows it, unless turned off", () => {
    const marked = `a=${token} b=${fake.stripeLive()} // gitleaks:allow jwt\nb=${other}\n`;
    const scan = createContentScanner();
    expect(summary(scan.scanText("a.go", marked))).toEqual(["2:github-pat"]);
    expect(scan.allowed().map((finding) => [finding.line, finding.rule, finding.allowedBy])).toEqual([
      [1, "github-pat", "gitleaks:allow"],
      [1, "stripe-access-token", "gitleaks:allow"],
    ]);
    expect(summary(scan.scanText("a.go", `a=${token} # gitleaks:allowed\n`))).toEqual(["1:github-pat"]);
    const off = createContentScanner({ gitleaksAllow: false });
    expect(summary(off.scanText("a.go", marked))).toEqual([
      "1:github-pat",
      "1:stripe-access-token",
      "2:github-pat",
    ]);
    expect(summary(off.scanText("a.go", `a=${token} // review-remote:allow\n`))).toEqual([]);
    expect(off.allowed().map((finding) => finding.allowedBy)).toEqual(["review-remote:allow"]);
  });

  test("a bare inline marker allows every finding on its line and no other", () => {
    const marked = `a=${token} b=${fake.stripeLive()} # review-remote:allow\nb=${other}\n`;
    expect(summary(scanner.scanText("a.sh", marked))).toEqual(["2:github-pat"]);
  });

  test("an inline marker with a list allows the listed rules or fingerprints only", () => {
    const line = `a=${token} b=${fake.stripeLive()}`;
    expect(summary(scanner.scanText("a.sh", `${line} // review-remote:allow github-pat`))).toEqual([
      "1:stripe-access-token",
    ]);
    expect(
      scanner.scanText("a.sh", `${line} // review-remote:allow github-pat, stripe-access-token`),
    ).toEqual([]);
    const fingerprint = scanner.scanText("a.sh", `a=${token}`)[0]?.fingerprint;
    const both = `a=${token} b=${other} <!-- review-remote:allow ${fingerprint} -->`;
    expect(summary(scanner.scanText("a.sh", both))).toEqual(["1:github-pat"]);
    expect(scanner.scanText("a.sh", `${line} <!-- review-remote:allow -->`)).toEqual([]);
  });

  test("a word that only starts like the marker allows nothing", () => {
    expect(scanner.scanText("a.sh", `a=${token} # review-remote:allowed`)).toHaveLength(1);
    expect(scanner.scanText("a.sh", `a=${token} # REVIEW-REMOTE:ALLOW`)).toHaveLength(1);
  });

  test("a marker counts for its line even when the line spans many chunks", () => {
    const after = `a=${token}${" ".repeat(700_000)}review-remote:allow\nb=${other}\n`;
    expect(summary(scanInChunks(Buffer.from(after), 65_536))).toEqual(["2:github-pat"]);
    const before = `review-remote:allow github-pat${" ".repeat(700_000)}a=${token}\nb=${other}\n`;
    expect(summary(scanInChunks(Buffer.from(before), 65_536))).toEqual(["2:github-pat"]);
    const elsewhere = `x=1 # review-remote:allow\n${" ".repeat(700_000)}a=${token}\n`;
    expect(summary(scanInChunks(Buffer.from(elsewhere), 65_536))).toEqual(["2:github-pat"]);
  });
});

describe("content scanner streaming", () => {
  const samples = [
    `aws_access_key_id = ${fake.awsKeyId()}\naws_secret_access_key = ${fake.awsSecret()}\n`,
    `{"token":"${fake.jwt()}"}\n`,
    fake.pemKey("OPENSSH "),
    `url = "postgres://app:${fake.password()}@db.example.com/app" # review-remote:allow jwt\n`,
    `WEBHOOK = '${fake.slackWebhook()}'\nkey=${fake.twilioApiKey()}\n`,
  ];

  test.each(samples.map((text, index) => [index, text]))(
    "finds the same in chunks of any size (sample %i)",
    (_, text) => {
      const whole = scanner.scanText("src/app.ts", text);
      expect(whole.length).toBeGreaterThan(0);
      for (const size of [1, 2, 3, 7, 64])
        expect(scanInChunks(Buffer.from(text), size), `chunk ${size}`).toEqual(whole);
    },
  );

  test("finds a secret split across window boundaries at every offset, with its line", () => {
    const token = fake.stripeLive();
    const filler = `${"x".repeat(99)}\n`;
    for (const total of [262_144, 524_288]) {
      for (let shift = -token.length - 2; shift <= 2; shift++) {
        const before = filler.repeat(Math.floor((total + shift) / filler.length));
        const head = before + "y".repeat(total + shift - before.length);
        const content = Buffer.from(`${head} ${token}\n`);
        const expected = [`${before.length / filler.length + 1}:stripe-access-token`];
        for (const size of [65_536, 4_096, 100_003]) {
          expect(summary(scanInChunks(content, size)), `total ${total} shift ${shift} chunk ${size}`).toEqual(
            expected,
          );
        }
      }
    }
  });

  test("keeps line numbers right across many windows", () => {
    const lines = Array.from({ length: 200_000 }, (_, index) => `const line${index} = ${index};`);
    const at = [5, 70_001, 199_999];
    for (const [index, line] of at.entries()) lines[line] = `const t${index} = "${fake.npm(index + 1)}";`;
    const findings = scanInChunks(Buffer.from(lines.join("\n")), 65_536);
    expect(summary(findings)).toEqual(at.map((line) => `${line + 1}:npm-access-token`));
  });

  test("skips a binary file (NUL in the first 8 KiB) and a NUL-filled blob", () => {
    const secret = Buffer.from(`key=${fake.githubPat()}\n`);
    expect(scanInChunks(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]), secret]), 3)).toEqual([]);
    expect(scanInChunks(Buffer.alloc(3 * 1024 * 1024), 65_536)).toEqual([]);
    const late = Buffer.concat([Buffer.alloc(9000, 0x20), Buffer.from([0]), secret]);
    expect(summary(scanInChunks(late, 1000))).toEqual(["1:github-pat"]);
  });

  test("scans invalid UTF-8 without failing", () => {
    const token = fake.githubPat();
    const content = Buffer.concat([
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x0a]),
      Buffer.from(`é=${token}\xff\n`, "latin1"),
      Buffer.from([0xf0, 0x9f, 0x98]),
    ]);
    const findings = scanInChunks(content, 5);
    expect(summary(findings)).toEqual(["2:github-pat"]);
    expect(findings[0]?.redacted).toBe("ghp_…");
  });

  test("scans a 50 MB single line in bounded memory and linear time", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const chunk = Buffer.from(`${fakeChars(HEX, 1000)} aws secret sk- :// `.repeat(64).slice(0, 65_536));
    const tokens = [fake.githubPat(1), fake.githubPat(2), fake.githubPat(3)];
    const file = scanner.scanFile("dist/bundle.min.js");
    gc();
    const baseline = process.memoryUsage();
    let peak = 0;
    const started = Date.now();
    const chunks = (50 * 1024 * 1024) / chunk.length;
    for (let index = 0; index < chunks; index++) {
      if (index === 10) file.write(Buffer.from(` ${tokens[0]} `));
      if (index === 400) {
        // Split across two writes, and so across windows as well.
        file.write(Buffer.from(` ${(tokens[1] as string).slice(0, 11)}`));
        file.write(Buffer.from(`${(tokens[1] as string).slice(11)} `));
      }
      file.write(chunk);
      if (index % 100 === 0) {
        gc();
        const usage = process.memoryUsage();
        peak = Math.max(
          peak,
          usage.heapUsed + usage.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers,
        );
      }
    }
    file.write(Buffer.from(` ${tokens[2]}`));
    const findings = file.end();
    expect(summary(findings)).toEqual(["1:github-pat", "1:github-pat", "1:github-pat"]);
    expect(peak).toBeLessThan(16 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test("refuses writes after the end", () => {
    const file = scanner.scanFile("a.txt");
    file.write(Buffer.from("hello"));
    expect(file.end()).toEqual([]);
    expect(() => file.write(Buffer.from("x"))).toThrow(/after end/);
    expect(() => file.end()).toThrow(/ended twice/);
  });
});
