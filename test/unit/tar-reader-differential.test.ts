// Our tar reader against GNU tar: archives written by GNU tar (gnu and pax formats) and by git
// archive, listed by both; names, types, sizes and link targets must agree entry for entry.
import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TarFormatError, TarReader, TarType } from "../../src/tar/reader.js";
import { testEnv } from "../helpers/repo.js";
import { tarHeader } from "../integration/worker-tar.js";

const root = mkdtempSync(join(tmpdir(), "rr-tar-diff-"));
const tree = join(root, "tree");
const env = { ...testEnv(root), LC_ALL: "C.UTF-8", TZ: "UTC" };
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LONG_DIR = `deep/${"d".repeat(120)}/${"e".repeat(90)}`;
const FILES: Record<string, string> = {
  "short.txt": "hello\n",
  empty: "",
  "with space.txt": "a b\n",
  "ünïcödé/日本語.txt": "unicode\n",
  "emoji-😀.md": "# 😀\n",
  [`${LONG_DIR}/file-with-a-long-name-${"n".repeat(80)}.txt`]: "long\n",
  "big.bin": "x".repeat(70_000),
  ...Object.fromEntries(
    Array.from({ length: 300 }, (_, n) => [`many/f${String(n).padStart(3, "0")}`, `${n}\n`]),
  ),
};
const LINKS: Record<string, string> = {
  "link-short": "short.txt",
  "link-dir": "many",
  [`link-long-${"l".repeat(40)}`]: `${LONG_DIR}/${"t".repeat(120)}`,
};

beforeAll(() => {
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), content);
  }
  for (const [path, target] of Object.entries(LINKS)) symlinkSync(target, join(tree, path));
  // GNU tar writes the second name of a file as a hard link entry.
  linkSync(join(tree, "short.txt"), join(tree, "hard-link"));
});

interface Listed {
  path: string;
  type: string;
  size: number;
  linkpath: string;
}

/** `tar -tv` lines: type letter, owner, size, date, time, name (`-> target` / `link to target`). */
function listWithGnuTar(archive: string): Listed[] {
  const out = execFileSync("tar", ["-tvf", archive, "--quoting-style=literal", "--numeric-owner"], { env });
  return out
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const match = /^(.)\S{9} +\S+ +(\d+) \d{4}-\d\d-\d\d \d\d:\d\d (.*)$/.exec(line);
      if (!match) throw new Error(`unexpected tar -tv line: ${line}`);
      const [, letter, size, rest] = match as unknown as [string, string, string, string];
      const type = { "-": TarType.file, d: TarType.directory, l: TarType.symlink, h: TarType.hardlink }[
        letter
      ];
      const [path, linkpath] =
        type === TarType.symlink
          ? rest.split(" -> ")
          : type === TarType.hardlink
            ? rest.split(" link to ")
            : [rest];
      return { path: path as string, type: type ?? letter, size: Number(size), linkpath: linkpath ?? "" };
    });
}

function listWithOurReader(bytes: Buffer): Listed[] {
  const listed: Listed[] = [];
  const reader = new TarReader({
    entry(entry) {
      listed.push({ path: entry.path, type: entry.type, size: entry.size, linkpath: entry.linkpath });
      return undefined;
    },
  });
  // Odd chunk sizes: headers and pax records split across writes.
  for (let at = 0; at < bytes.length; at += 777) reader.write(bytes.subarray(at, at + 777));
  reader.end();
  return listed;
}

function gnuTar(format: string): string {
  const archive = join(root, `${format}.tar`);
  execFileSync("tar", [`--format=${format}`, "--sort=name", "-cf", archive, "-C", tree, "."], { env });
  return archive;
}

function gitArchive(): string {
  const repo = join(root, "repo");
  execFileSync("cp", ["-a", tree, repo]);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "tree");
  const archive = join(root, "git.tar");
  git("archive", "--format=tar", "-o", archive, "HEAD");
  return archive;
}

describe("tar reader agrees with GNU tar", () => {
  test.each([
    ["GNU tar, gnu format (long names as L/K entries, a hard link)", () => gnuTar("gnu")],
    ["GNU tar, pax format (long and unicode names as pax records)", () => gnuTar("pax")],
    ["git archive", gitArchive],
  ])("%s", (_, make) => {
    const archive = make();
    const ours = listWithOurReader(readFileSync(archive));
    const theirs = listWithGnuTar(archive);
    expect(ours.length).toBeGreaterThan(300);
    expect(ours).toEqual(theirs);
  });
});

describe("GNU sparse files are refused outright", () => {
  test.each([
    ["gnu format, type S", "gnu"],
    ["pax format, GNU.sparse.* records", "pax"],
  ])("%s", (_, format) => {
    const dir = join(root, `sparse-${format}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "disk.img"), "");
    truncateSync(join(dir, "disk.img"), 4 * 1024 * 1024);
    const archive = join(root, `sparse-${format}.tar`);
    execFileSync("tar", [`--format=${format}`, "--sparse", "-cf", archive, "-C", dir, "disk.img"], { env });
    expect(() => listWithOurReader(readFileSync(archive))).toThrow(TarFormatError);
    expect(() => listWithOurReader(readFileSync(archive))).toThrow(/sparse/);
  });
});

describe("a GNU-format header is read as GNU tar reads it", () => {
  // GNU's format keeps atime and ctime where ustar keeps the name's prefix (GNU tar -G writes them):
  // the name is the name field alone.
  test("bytes in the atime and ctime fields are no prefix of the name", () => {
    const content = Buffer.from("x\n");
    const header = tarHeader({
      name: "file.txt",
      type: "0",
      size: content.length,
      mode: 0o644,
      magic: "ustar  \0",
    });
    header.write("14567123456\0", 345, "latin1");
    header.write("14567123456\0", 357, "latin1");
    header.write("        ", 148, "latin1");
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    const archive = join(root, "gnu-times.tar");
    writeFileSync(
      archive,
      Buffer.concat([header, content, Buffer.alloc(512 - content.length), Buffer.alloc(1024)]),
    );
    expect(listWithOurReader(readFileSync(archive))).toEqual(listWithGnuTar(archive));
    expect(listWithOurReader(readFileSync(archive))[0]?.path).toBe("file.txt");
  });
});
