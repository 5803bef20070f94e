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
import { verifyAndUnpack } from "../../src/worker/unpack.js";
import { makeTar, type TarSpec } from "./worker-tar.js";

const dir = mkdtempSync(join(tmpdir(), "rr-unpack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

/** Unpacks `entries` into a fresh tree: its path, and the listing (or the refusal). */
function unpack(entries: TarSpec[], files: number, signal?: AbortSignal) {
  const bundle = gzipSync(makeTar(entries));
  const file = join(dir, `b${counter}.tar.gz`);
  const tree = join(dir, `tree-${counter++}`);
  writeFileSync(file, bundle);
  return { tree, listed: verifyAndUnpack(file, bundle.length, files, tree, { signal }) };
}

/** Every path under `root` with its type, for comparison with a listing. */
function walk(root: string, prefix = ""): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return [`${path}/`, ...walk(root, path)];
    return [entry.isSymbolicLink() ? `${path} -> ${readlinkSync(join(root, path))}` : path];
  });
}

describe("unpacking in the validating pass", () => {
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
    const { tree, listed } = unpack(entries, files);
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
    );
    await expect(listed).rejects.toMatchObject({ rule: "extract-failed", entry: "long" });
    expect(existsSync(tree)).toBe(false);
  });

  it("stops at the deadline and leaves no tree behind", async () => {
    const controller = new AbortController();
    controller.abort(new Error("out of time"));
    const { tree, listed } = unpack([{ name: "a.txt", content: "a" }], 1, controller.signal);
    await expect(listed).rejects.toThrow("out of time");
    expect(existsSync(tree)).toBe(false);
  });
});
