import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, test } from "vitest";
import type { Finding } from "../../src/secrets/finding.js";
import { type ContentScannerOptions, createContentScanner } from "../../src/secrets/scanner.js";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { testEnv } from "../helpers/repo.js";
import { makeTar } from "../integration/worker-tar.js";

const root = mkdtempSync(join(tmpdir(), "rr-archives-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const token = fake.githubPat();
const PROPERTIES = `# app\nname=demo\nupstream=${token}\n`;

/** A directory with `files` (and symlinks, `{ link: target }`), then `tool` run in it. */
function build(
  files: Record<string, string | Buffer | { link: string }>,
  tool: string,
  ...args: string[]
): Buffer {
  const dir = mkdtempSync(join(root, "src-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    if (typeof content === "object" && "link" in content) symlinkSync(content.link, join(dir, path));
    else writeFileSync(join(dir, path), content);
  }
  execFileSync(tool, args, { cwd: dir, env: testEnv(root), stdio: "ignore" });
  return readFileSync(join(dir, tool === "zip" ? "out.zip" : "out"));
}

/** A git commit of `files`, archived by `git archive` in `format`. */
function gitArchive(files: Record<string, string>, format: string): Buffer {
  const dir = mkdtempSync(join(root, "repo-"));
  const env = testEnv(root);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env });
  git("init", "-q");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "x");
  return git("archive", `--format=${format}`, "HEAD");
}

function scan(path: string, content: Buffer, options: ContentScannerOptions = {}): Finding[] {
  const file = createContentScanner(options).scanFile(path);
  for (let at = 0; at < content.length; at += 10_000) file.write(content.subarray(at, at + 10_000));
  return file.end();
}

/** Whether `programs` are all on PATH: `npm test` installs them as root on Debian (scripts/test-deps.mjs). */
const installed = (...programs: string[]) =>
  programs.every((program) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0);

const where = (findings: Finding[]) => findings.map((f) => `${f.member ?? ""}:${f.line}:${f.rule}`);

describe("archive members are scanned as files of their own", () => {
  test("a zip written by git archive: the member, its line and the rule", () => {
    const zip = gitArchive({ "config/app.properties": PROPERTIES, "README.md": "# demo\n" }, "zip");
    const findings = scan("vendor/app.zip", zip);
    expect(where(findings)).toEqual(["config/app.properties:3:github-pat"]);
    expect(findings[0]).toMatchObject({ path: "vendor/app.zip", redacted: "ghp_…" });
    expect(JSON.stringify(findings)).not.toContain(token.slice(4));
  });

  test("a tar.gz written by git archive: gzip, then tar, then the member", () => {
    const tgz = gitArchive({ "src/settings.ini": PROPERTIES }, "tar.gz");
    expect(where(scan("fixtures/release.tgz", tgz))).toEqual(["release.tar!/src/settings.ini:3:github-pat"]);
  });

  test("a gzip of one file is named after the name in its header", () => {
    const gz = build({ "settings.txt": PROPERTIES }, "sh", "-c", "gzip -c settings.txt > out");
    expect(where(scan("data/blob.gz", gz))).toEqual(["settings.txt:3:github-pat"]);
  });

  test("a jar inside a zip: members of members, joined by !/", () => {
    const jar = gitArchive({ "META-INF/app.properties": PROPERTIES }, "zip");
    const zip = build({ "lib/inner.jar": jar, "notes.txt": "nothing\n" }, "zip", "-q", "-r", "out", ".");
    expect(where(scan("dist/bundle.zip", zip))).toEqual([
      "lib/inner.jar!/META-INF/app.properties:3:github-pat",
    ]);
  });

  test("a member named like a secret file is a finding even when its content is not", () => {
    const zip = makeZip([
      { name: "backup/.env", data: "PORT=8080\n" },
      { name: "id_rsa ", data: "x" },
    ]);
    expect(where(scan("backup.zip", zip))).toEqual([
      "backup/.env:1:secret-file-name",
      "id_rsa :1:secret-file-name",
    ]);
  });

  test("a tar member that links to a secret file is a finding", () => {
    const tar = makeTar([
      { name: "app/config", type: "2", linkpath: "../.env" },
      { name: "app/readme", type: "2", linkpath: "README.md" },
    ]);
    expect(where(scan("snap.tar", tar))).toEqual(["app/config:1:secret-file-name"]);
  });

  test("a clean archive gives nothing", () => {
    const zip = gitArchive({ "a.txt": "hello\n", "b/c.json": '{"x": 1}\n' }, "zip");
    expect(scan("clean.zip", zip)).toEqual([]);
    expect(scan("clean.tar.gz", gitArchive({ "a.txt": "hello\n" }, "tar.gz"))).toEqual([]);
  });
});

describe("an archive that cannot be inspected within the bounds is reported, not sent unread", () => {
  const refused = (findings: Finding[]) =>
    findings.filter((f) => f.rule === "uninspectable-archive").map((f) => f.description);

  test("an encrypted zip entry", () => {
    const zip = build({ "secret.txt": PROPERTIES }, "zip", "-q", "-P", "pw", "out", "secret.txt");
    expect(refused(scan("vault.zip", zip))).toEqual(["archive not inspected: encrypted entry secret.txt"]);
  });

  test("a gzip bomb: expansion beyond the ratio", () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
    expect(refused(scan("bomb.gz", bomb))).toEqual(["archive not inspected: expands more than 200 times"]);
  });

  test("a zip entry whose declared size is also a bomb", () => {
    const zip = makeZip([{ name: "zeros", data: Buffer.alloc(4 * 1024 * 1024) }]);
    expect(refused(scan("bomb.zip", zip))).toEqual(["archive not inspected: expands more than 200 times"]);
  });

  test("expansion beyond the budget of one file, all members together", () => {
    const zip = makeZip([1, 2, 3].map((n) => ({ name: `f${n}`, data: fake.privateKeyBody(n).repeat(20) })));
    expect(refused(scan("big.zip", zip, { limits: { maxExpandedBytes: 15_000 } }))).toEqual([
      "archive not inspected: expands beyond 15000 bytes",
    ]);
  });

  test("an archive larger than what is held for inspection", () => {
    const zip = makeZip([{ name: "a", data: fake.privateKeyBody().repeat(10), method: 0 }]);
    expect(refused(scan("big.zip", zip, { limits: { maxArchiveBytes: 1000 } }))).toEqual([
      "archive not inspected: larger than 1000 bytes",
    ]);
  });

  test("too many entries, in a zip and in a tar", () => {
    const entries = [1, 2, 3, 4].map((n) => ({ name: `f${n}.txt`, data: "x" }));
    const limits = { maxEntries: 3 };
    expect(refused(scan("many.zip", makeZip(entries), { limits }))).toEqual([
      "archive not inspected: more than 3 entries",
    ]);
    const tar = makeTar(entries.map((entry) => ({ name: entry.name, content: entry.data })));
    expect(refused(scan("many.tar", tar, { limits }))).toEqual([
      "archive not inspected: more than 3 entries",
    ]);
  });

  test("archives nested deeper than the limit", () => {
    const inner = makeZip([{ name: "app.properties", data: PROPERTIES }]);
    const outer = makeZip([{ name: "inner.zip", data: inner }]);
    expect(where(scan("outer.zip", outer, { limits: { maxDepth: 1 } }))).toEqual([
      "inner.zip:1:uninspectable-archive",
    ]);
    expect(where(scan("outer.zip", outer))).toEqual(["inner.zip!/app.properties:3:github-pat"]);
  });

  test("compression methods node cannot inflate, sizes that lie, broken streams", () => {
    expect(refused(scan("a.zip", makeZip([{ name: "x", data: "abc", method: 12 }])))).toEqual([
      "archive not inspected: compression method 12 (x)",
    ]);
    expect(
      refused(scan("b.zip", makeZip([{ name: "x", data: "abcdef", method: 0, declaredSize: 3 }]))),
    ).toEqual(["archive not inspected: zip entry x has the wrong size"]);
    const truncated = gzipSync(Buffer.from(PROPERTIES.repeat(50))).subarray(0, 40);
    expect(refused(scan("c.gz", truncated))[0]).toMatch(/^archive not inspected: not a readable gzip stream/);
    expect(refused(scan("d.zip", Buffer.from("PK\x03\x04 not really a zip", "latin1")))).toEqual([
      "archive not inspected: no zip central directory",
    ]);
  });

  test.skipIf(!installed("bzip2", "xz", "zstd", "lz4"))(
    "bzip2, xz, zstd and LZ4 files are read with their system tool, as gzip is read",
    () => {
      const compress = (...command: string[]) =>
        execFileSync(command[0] as string, command.slice(1), { input: PROPERTIES });
      expect(where(scan("logs/app.log.bz2", compress("bzip2", "-c")))).toEqual(["app.log:3:github-pat"]);
      expect(where(scan("logs/app.log.xz", compress("xz", "-c")))).toEqual(["app.log:3:github-pat"]);
      expect(where(scan("logs/app.log.zst", compress("zstd", "-cq")))).toEqual(["app.log:3:github-pat"]);
      expect(where(scan("logs/app.log.lz4", compress("lz4", "-c")))).toEqual(["app.log:3:github-pat"]);
      // A tar in one: expanded, then read as a tar; in a zip, a member of a member.
      const txz = execFileSync("xz", ["-c"], {
        input: gitArchive({ "src/settings.ini": PROPERTIES }, "tar"),
      });
      expect(where(scan("fixtures/release.txz", txz))).toEqual([
        "release.tar!/src/settings.ini:3:github-pat",
      ]);
      const zip = makeZip([{ name: "inner/app.log.xz", data: compress("xz", "-c") }]);
      expect(where(scan("backup.zip", zip))).toEqual(["inner/app.log.xz!/app.log:3:github-pat"]);
      // What holds nothing secret is read and leaves: ripgrep's own test data, say.
      const clean = execFileSync("bzip2", ["-c"], { input: "Sherlock Holmes\n" });
      expect(scan("tests/data/sherlock.bz2", clean)).toEqual([]);
    },
  );

  test.skipIf(!installed("bzip2", "xz"))(
    "a compressed file no tool here reads, or one its tool refuses, is reported, not sent",
    () => {
      const cannot = (format: string) => [
        `archive not inspected: compressed as ${format}, which the scan cannot read`,
      ];
      // 7z and RAR hold many members: never read. By their magic: the scan reads nothing past it.
      for (const [format, hex] of [
        ["7z", "377abcaf271c"],
        ["RAR", "526172211a0700"],
      ] as const) {
        const bytes = Buffer.concat([Buffer.from(hex, "hex"), Buffer.from(PROPERTIES)]);
        expect(refused(scan("data.bin", bytes)), format).toEqual(cannot(format));
      }
      // A stream that starts as xz does and is not one: its tool says so.
      const broken = Buffer.concat([Buffer.from("fd377a585a00", "hex"), Buffer.from(PROPERTIES)]);
      expect(refused(scan("logs/app.log.xz", broken))[0]).toMatch(
        /^archive not inspected: not a readable xz stream/,
      );
      // A bomb: past the ratio the budget allows, as a gzip bomb is.
      const bomb = execFileSync("bzip2", ["-c"], { input: Buffer.alloc(8 * 1024 * 1024) });
      expect(refused(scan("zeros.bz2", bomb, { limits: { maxRatio: 10, ratioFloor: 1024 } }))).toEqual([
        "archive not inspected: expands more than 10 times",
      ]);
      // Text that starts as a magic does, but not with all of it, is text and scanned as text.
      for (const text of ["BZh9 is a block size\n", "LZIP notes\n"]) {
        expect(where(scan("notes.txt", Buffer.from(`${text}${PROPERTIES}`)))).toEqual([":4:github-pat"]);
      }
    },
  );

  test("without the tool on PATH, a file in its form is reported and names the tool", () => {
    const xz = execFileSync("xz", ["-c"], { input: PROPERTIES });
    const path = process.env.PATH;
    process.env.PATH = join(root, "no-tools");
    try {
      expect(refused(scan("logs/app.log.xz", xz))).toEqual([
        "archive not inspected: compressed as xz, which the scan reads with xz: not installed here",
      ]);
    } finally {
      process.env.PATH = path;
    }
  });

  test("a malformed tar member, or a sparse one, is refused with the reader's reason", () => {
    const sparse = makeTar([{ name: "disk.img", type: "S", content: "x" }]);
    expect(refused(scan("sparse.tar", sparse))[0]).toMatch(/sparse/);
  });

  test("the user can allow one archive by path and rule, or by fingerprint", () => {
    const zip = build({ "secret.txt": "x" }, "zip", "-q", "-P", "pw", "out", "secret.txt");
    const [finding] = scan("vendor/vault.zip", zip);
    expect(finding?.rule).toBe("uninspectable-archive");
    expect(
      scan("vendor/vault.zip", zip, { allow: [{ rule: "uninspectable-archive", path: "vendor/*.zip" }] }),
    ).toEqual([]);
    expect(
      scan("vendor/vault.zip", zip, { allow: [{ fingerprint: finding?.fingerprint as string }] }),
    ).toEqual([]);
    expect(
      scan("other/vault.zip", zip, { allow: [{ fingerprint: finding?.fingerprint as string }] }),
    ).toHaveLength(1);
  });
});
