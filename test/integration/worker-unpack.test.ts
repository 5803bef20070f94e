import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { type UnpackOptions, verifyAndUnpack, wantsWritingThread } from "../../src/worker/unpack.js";
import { makeTar, type TarSpec } from "./worker-tar.js";

const dir = mkdtempSync(join(tmpdir(), "rr-unpack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

type Writing = NonNullable<UnpackOptions["writing"]>;

/** Unpacks `entries` into a fresh tree: its path, and the listing (or the refusal). */
function unpack(entries: TarSpec[], files: number, writing: Writing, signal?: AbortSignal) {
  const bundle = gzipSync(makeTar(entries));
  const file = join(dir, `b${counter}.tar.gz`);
  const tree = join(dir, `tree-${counter++}`);
  writeFileSync(file, bundle);
  return { tree, listed: verifyAndUnpack(file, bundle.length, files, tree, { signal, writing }) };
}

/** Every path under `root` with its type, for comparison with a listing. */
function walk(root: string, prefix = ""): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return [`${path}/`, ...walk(root, path)];
    return [entry.isSymbolicLink() ? `${path} -> ${readlinkSync(join(root, path))}` : path];
  });
}

// A small bundle is written on the unpacking thread, a large one on a writing thread: the same rules
// and the same tree either way.
describe.each<Writing>(["inline", "thread"])("unpacking in the validating pass (%s)", (writing) => {
  it("writes exactly the listing: contents, git's modes, symlinks and the headers' mtimes", async () => {
    const { tree, listed } = unpack(
      [
        { name: "src/", type: "5", mode: 0o500 },
        { name: "src/main.sh", content: "echo hi\n", mode: 0o775, mtime: 1_600_000_000 },
        { name: "src/lib/deep/a.txt", content: "a\n", mode: 0o600, mtime: 1_600_000_001 },
        { name: "src/empty.txt", content: "" },
        { name: "link", type: "2", linkpath: "src/main.sh", mtime: 1_600_000_002 },
      ],
      4,
      writing,
    );
    const listing = await listed;
    expect(walk(tree).sort()).toEqual(
      [
        "link -> src/main.sh",
        "src/",
        "src/empty.txt",
        "src/lib/",
        "src/lib/deep/",
        "src/lib/deep/a.txt",
        "src/main.sh",
      ].sort(),
    );
    expect([...listing.nodes.keys()].sort()).toEqual(
      ["link", "src", "src/empty.txt", "src/lib", "src/lib/deep", "src/lib/deep/a.txt", "src/main.sh"].sort(),
    );
    expect(readFileSync(join(tree, "src/main.sh"), "utf8")).toBe("echo hi\n");
    expect(readFileSync(join(tree, "src/empty.txt"), "utf8")).toBe("");
    const stat = (path: string) => lstatSync(join(tree, path));
    expect(stat("src").mode & 0o777).toBe(0o755);
    expect(stat("src/main.sh").mode & 0o100).toBe(0o100);
    expect(stat("src/lib/deep/a.txt").mode & 0o777).toBe(0o644);
    expect(stat("src/main.sh").mtimeMs).toBe(1_600_000_000_000);
    expect(stat("src/lib/deep/a.txt").mtimeMs).toBe(1_600_000_001_000);
    expect(stat("link").mtimeMs).toBe(1_600_000_002_000);
  });

  it.each<[string, TarSpec[], number, string]>([
    // Refused by a check of the whole listing, after every entry was written.
    ["a symlink leading out", [{ name: "a.txt" }, { name: "up", type: "2", linkpath: "../x" }], 2, "symlink"],
    ["an empty directory", [{ name: "a.txt" }, { name: "d/", type: "5" }], 1, "empty-directory"],
    ["a file count other than the request's", [{ name: "a.txt" }, { name: "b.txt" }], 3, "file-count"],
    // Refused at an entry, after others were written.
    ["a duplicate", [{ name: "d/a.txt" }, { name: "d/a.txt" }], 2, "duplicate"],
    [
      "a write through a symlink",
      [{ name: "l", type: "2", linkpath: "d" }, { name: "l/x" }],
      2,
      "through-symlink",
    ],
  ])("leaves no tree behind when it refuses %s", async (_, entries, files, rule) => {
    const { tree, listed } = unpack(entries, files, writing);
    await expect(listed).rejects.toMatchObject({ rule: expect.stringContaining(rule) });
    expect(existsSync(tree)).toBe(false);
  });

  it("refuses, and leaves no tree behind, an entry the kernel will not write", async () => {
    // A 4096-byte target passes the listing's length rule; symlink(2) takes at most 4095.
    const { tree, listed } = unpack(
      [
        { name: "a.txt", content: "a" },
        { name: "long", type: "2", pax: { linkpath: "x/".repeat(2048) } },
        { name: "b.txt", content: "b" },
      ],
      3,
      writing,
    );
    await expect(listed).rejects.toMatchObject({ rule: "extract-failed", entry: "long" });
    expect(existsSync(tree)).toBe(false);
  });

  it("stops at the deadline and leaves no tree behind", async () => {
    const controller = new AbortController();
    controller.abort(new Error("out of time"));
    const { tree, listed } = unpack([{ name: "a.txt", content: "a" }], 1, writing, controller.signal);
    await expect(listed).rejects.toThrow("out of time");
    expect(existsSync(tree)).toBe(false);
  });
});

/**
 * Everything a tree holds that a reviewer could see: names, types, modes, contents, targets, and the
 * mtimes of files and links (a directory's is when it was made).
 */
function fingerprint(root: string): string[] {
  return walk(root)
    .sort()
    .map((entry) => {
      const path = join(root, entry.split(" -> ")[0] as string);
      const stat = lstatSync(path);
      const content = stat.isFile() ? createHash("sha256").update(readFileSync(path)).digest("hex") : "";
      const mtime = stat.isDirectory() ? "" : stat.mtimeMs;
      return `${entry} ${(stat.mode & 0o7777).toString(8)} ${mtime} ${content}`;
    });
}

describe("where the tree is written", () => {
  it("writes the same tree on the unpacking thread as on a writing thread", async () => {
    // Files of every size around the batch (512 KiB) and the chunk boundaries, nested and flat.
    const sizes = [0, 1, 511, 512, 513, 65_536, 600_000, 1_100_000];
    const entries: TarSpec[] = sizes.flatMap((size, i) => [
      {
        name: `d${i % 3}/sub/f${i}.bin`,
        content: Buffer.alloc(size, i + 1),
        mode: i % 2 ? 0o755 : 0o644,
        mtime: 1_600_000_000 + i,
      },
      { name: `top${i}.txt`, content: `line ${i}\n`.repeat(i * 100), mtime: 1_600_000_100 + i },
    ]);
    entries.push({ name: "link", type: "2", linkpath: "d0/sub/f0.bin", mtime: 1_600_000_200 });
    const files = entries.length;
    const inline = unpack(entries, files, "inline");
    const thread = unpack(entries, files, "thread");
    await Promise.all([inline.listed, thread.listed]);
    expect(fingerprint(inline.tree)).toEqual(fingerprint(thread.tree));
    // Every file and link, and the six directories above them.
    expect(fingerprint(inline.tree)).toHaveLength(files + 6);
  });

  it("writes a small bundle here and a large one on a thread", () => {
    expect(wantsWritingThread(200)).toBe(false);
    expect(wantsWritingThread(20_000)).toBe(true);
  });
});
