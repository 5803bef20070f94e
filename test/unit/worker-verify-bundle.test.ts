import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGzip, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_BUNDLE_LIMITS } from "../../src/worker/bundle-limits.js";
import { BundleRefusedError, verifyBundle } from "../../src/worker/verify-bundle.js";
import { FoldedNames } from "../helpers/folded-names.js";
import { makeTar, type TarSpec, tarHeader } from "../integration/worker-tar.js";

const dir = mkdtempSync(join(tmpdir(), "rr-verify-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

function save(bundle: Buffer): string {
  const file = join(dir, `b${counter++}.tar.gz`);
  writeFileSync(file, bundle);
  return file;
}

async function refusal(
  bundle: Buffer,
  files?: number,
  limits = DEFAULT_BUNDLE_LIMITS,
): Promise<BundleRefusedError> {
  const file = save(bundle);
  try {
    await verifyBundle(file, bundle.length, files ?? 1000, { limits });
  } catch (error) {
    if (error instanceof BundleRefusedError) return error;
    throw error;
  }
  throw new Error("the bundle was accepted");
}

const tarRefusal = (entries: TarSpec[], files?: number) => refusal(gzipSync(makeTar(entries)), files);

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "tars");

describe("verifyBundle on the hostile fixture tars", () => {
  it.each([
    ["01-dotdot-traversal.tar.gz", "dotdot", "../../evil-dotdot.txt"],
    ["03-absolute-multislash.tar", "absolute-path", "////tmp/holdout-evil-multislash.txt"],
    ["05-symlink-rel-escape-then-write.tar", "through-symlink", "a/up/escaped-rel.txt"],
    ["07-hardlink-dotdot-then-write.tar", "hardlink", "x"],
    ["09-dir-then-symlink-same-name.tar", "symlink-absolute-path", "a"],
    ["11-gzip-bomb-10MiB.tar.gz", "compression-ratio", undefined],
    ["13-pax-long-path-traversal.tar", "dotdot", "a/a/a/a/a/a/a/a/a/a/a/a/a"],
    ["15-backslash-paths.tar", "backslash", "..\\\\..\\\\evil-backslash.txt"],
    ["17-unicode-ligature-collision.tar", "symlink-absolute-path", "\\ufb00"],
    ["19-hardlink-via-symlink-chain.tar", "hardlink", "exfil"],
    ["21-drive-relative-paths.tar", "drive-path", "C:../evil-drive-rel.txt"],
    ["23-global-pax-path.tar", "pax-global-header", undefined],
    ["25-negative-size-header.tar", "tar-format", undefined],
    ["27-pax-long-linkpath-symlink.tar", "symlink-absolute-path", "link"],
    ["18-base256-huge-size.tar", "expanded-size", "big.bin"],
    ["22-pax-size-override.tar", "pax-size", "a.txt"],
  ])("refuses %s (rule %s)", async (name, rule, entry) => {
    const raw = readFileSync(join(FIXTURES, name));
    const error = await refusal(name.endsWith(".gz") ? raw : gzipSync(raw));
    expect(error.rule).toBe(rule);
    expect(error.message).toContain(`(rule: ${rule})`);
    if (entry) expect(error.message).toContain(entry);
  });

  it("accepts the benign git archive and lists its files", async () => {
    const bundle = readFileSync(join(FIXTURES, "00-benign-git-archive.tar.gz"));
    const listing = await verifyBundle(save(bundle), bundle.length, 14);
    expect(listing.files).toBe(14);
    expect(listing.nodes.get("docs/latest")).toMatchObject({ kind: "symlink", linkpath: "v2" });
    expect(listing.nodes.get("src/utils")).toMatchObject({ kind: "directory", explicit: true });
  });
});

describe("verifyBundle names", () => {
  it.each([
    [".git/config", "dotgit"],
    [".GIT/config", "dotgit"],
    ["sub/.Git/hooks/pre-commit", "dotgit"],
    [".git./config", "dotgit"],
    [".git . ./config", "dotgit"],
    [".git::$INDEX_ALLOCATION/config", "dotgit"],
    ["GIT~1/config", "dotgit"],
    [".g\u200cit/config", "dotgit"],
    [".gi\ufefft/config", "dotgit"],
    ["\uff0egit/config", "dotgit"],
    ["a/../../x", "dotdot"],
    ["..", "dotdot"],
    ["/etc/passwd", "absolute-path"],
    ["C:x", "drive-path"],
    ["c:/x", "drive-path"],
    ["a\\b", "backslash"],
    ["./a", "non-canonical-path"],
    ["a//b", "non-canonical-path"],
    ["a/./b", "non-canonical-path"],
    ["file/", "trailing-slash"],
    ["bad\ufffdname", "invalid-utf8"],
    [`${"a".repeat(300)}`, "path-too-long"],
  ])("refuses a file named %j (%s)", async (name, rule) => {
    const pax = Buffer.byteLength(name) > 99 ? { pax: { path: name } } : {};
    expect((await tarRefusal([{ name: "x", ...pax, ...(pax.pax ? {} : { name }) }])).rule).toBe(rule);
  });

  it("refuses a NUL byte in a pax path", async () => {
    expect((await tarRefusal([{ name: "ok", pax: { path: "ok\0/../../x" } }])).rule).toBe("tar-format");
  });

  it("refuses a GNU long name that walks out", async () => {
    const longName = Buffer.from(`${"d/".repeat(60)}${"../".repeat(70)}evil\0`);
    const tar = Buffer.concat([
      tarHeader({ name: "././@LongLink", type: "L", size: longName.length, mode: 0o644 }),
      longName,
      Buffer.alloc(512 - (longName.length % 512)),
      makeTar([{ name: "innocent.txt", content: "x" }]),
    ]);
    expect((await refusal(gzipSync(tar))).rule).toBe("dotdot");
  });
});

describe("verifyBundle entry types and modes", () => {
  it.each([
    ["1", "hardlink"],
    ["3", "device"],
    ["4", "device"],
    ["6", "fifo"],
    ["S", "tar-format"], // GNU sparse: refused by the tar reader itself
    ["V", "entry-type"],
    ["D", "entry-type"],
  ])("refuses typeflag %s (%s)", async (type, rule) => {
    expect((await tarRefusal([{ name: "thing", type, linkpath: "other" }])).rule).toBe(rule);
  });

  it.each([0o4755, 0o2755, 0o1644])("refuses mode %o", async (mode) => {
    expect((await tarRefusal([{ name: "tool", content: "#!/bin/sh\n", mode }])).rule).toBe("special-mode");
  });

  it("refuses a sticky directory", async () => {
    expect((await tarRefusal([{ name: "tmp/", type: "5", mode: 0o1777 }])).rule).toBe("special-mode");
  });

  it.each([
    ["2", "symlink"],
    ["5", "directory"],
  ])("refuses a size on a non-file entry (type %s)", async (type) => {
    expect((await tarRefusal([{ name: "n", type, size: 512, linkpath: "t" }])).rule).toBe("size-on-non-file");
  });
});

describe("verifyBundle collisions and symlinks", () => {
  it.each([
    [["a.txt", "a.txt"], "duplicate"],
    [["README", "readme"], "case-collision"],
    [["caf\u00e9", "cafe\u0301"], "case-collision"],
    [["stra\u00dfe", "STRASSE"], "case-collision"],
    [["\ufb00", "FF"], "case-collision"],
    [["Dir/a", "dir/b"], "case-collision"],
  ])("refuses %j (%s)", async (names, rule) => {
    expect((await tarRefusal(names.map((name) => ({ name, content: "x" })))).rule).toBe(rule);
  });

  it("refuses a file under a file", async () => {
    expect(
      (
        await tarRefusal([
          { name: "a", content: "x" },
          { name: "a/b", content: "y" },
        ])
      ).rule,
    ).toBe("under-file");
  });

  it("refuses a symlink replacing a directory, before or after its contents", async () => {
    expect(
      (
        await tarRefusal([
          { name: "a/f", content: "x" },
          { name: "a", type: "2", linkpath: "b" },
        ])
      ).rule,
    ).toBe("replaces-directory");
    expect(
      (
        await tarRefusal([
          { name: "a/", type: "5" },
          { name: "a", type: "2", linkpath: "b" },
        ])
      ).rule,
    ).toBe("replaces-directory");
  });

  it("refuses anything written through a symlink, even one pointing inside", async () => {
    const error = await tarRefusal([
      { name: "real/", type: "5" },
      { name: "link", type: "2", linkpath: "real" },
      { name: "link/file", content: "x" },
    ]);
    expect(error.rule).toBe("through-symlink");
    expect(error.message).toContain('"link/file"');
  });

  it("refuses a directory entry at the path of an earlier symlink's parent made a symlink", async () => {
    expect(
      (
        await tarRefusal([
          { name: "a/b/l", type: "2", linkpath: "x" },
          { name: "a/b", type: "2", linkpath: "." },
        ])
      ).rule,
    ).toBe("replaces-directory");
  });

  it.each([
    [[["up", ".."]], "symlink-escape"],
    [[["a/up", "../.."]], "symlink-escape"],
    [[["a/b", "../x/../../y"]], "symlink-escape"],
    [
      [
        ["a/b/c/up", "../.."],
        ["a/b/escape", "c/up/../.."],
      ],
      "symlink-escape",
    ],
    [
      [
        ["l1", "l2"],
        ["l2", "l1"],
      ],
      "symlink-loop",
    ],
    [[["abs", "/etc/shadow"]], "symlink-absolute-path"],
    [[["drive", "C:../x"]], "symlink-drive-path"],
    [[["bs", "..\\x"]], "symlink-backslash"],
    [[["g", "sub/.git/config"]], "symlink-dotgit"],
    [[["e", ""]], "symlink-empty-target"],
  ])("refuses symlinks %j (%s)", async (links, rule) => {
    expect(
      (
        await tarRefusal(
          links.map(([name, linkpath]) => ({
            name: name as string,
            type: "2",
            linkpath: linkpath as string,
          })),
        )
      ).rule,
    ).toBe(rule);
  });

  it("finds an entry by its exact name only, not by one that folds onto it", async () => {
    const bundle = gzipSync(
      makeTar([
        { name: "Docs/", type: "5" },
        { name: "Docs/Read.md", content: "x" },
        { name: "caf\u00e9", content: "y" },
      ]),
    );
    const { nodes } = await verifyBundle(save(bundle), bundle.length, 2);
    expect(nodes.get("Docs/Read.md")).toMatchObject({ kind: "file", size: 1 });
    expect(nodes.get("Docs")).toMatchObject({ kind: "directory", explicit: true });
    expect(nodes.get("caf\u00e9")).toMatchObject({ kind: "file" });
    for (const other of [
      "docs/Read.md",
      "Docs/read.md",
      "Docs/Read.md.",
      "Docs/",
      "cafe\u0301",
      "Docs/Read.md/x",
    ])
      expect(nodes.get(other), other).toBeUndefined();
  });

  it("accepts symlinks that stay inside, also through other symlinks", async () => {
    const entries: TarSpec[] = [
      { name: "docs/v2/index.md", content: "x" },
      { name: "docs/latest", type: "2", linkpath: "v2" },
      { name: "top", type: "2", linkpath: "docs/latest/../latest/index.md" },
      { name: "self", type: "2", linkpath: "." },
      { name: "dangling", type: "2", linkpath: "nowhere/yet" },
    ];
    const bundle = gzipSync(makeTar(entries));
    const listing = await verifyBundle(save(bundle), bundle.length, 5);
    expect(listing.files).toBe(5);
  });
});

type Kind = "file" | "directory" | "symlink";

/**
 * The placement rules as first written, with a table of whole paths and FoldedNames: what
 * verifyBundle must refuse (rule and entry) for names that are each valid on their own.
 */
function referencePlacement(
  entries: { path: string; kind: Kind }[],
): { rule: string; entry: string } | undefined {
  const listed = new Map<string, { kind: Kind; explicit: boolean }>();
  const order: string[] = [];
  const folded = new FoldedNames();
  const filled = new Set<string>();
  for (const { path, kind } of entries) {
    const entry = kind === "directory" ? `${path}/` : path;
    const parts = path.split("/");
    const parents = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
    const deepest = parents.findLastIndex((parent) => listed.has(parent));
    const deepestKind = listed.get(parents[deepest] as string)?.kind;
    if (deepestKind === "symlink") return { rule: "through-symlink", entry };
    if (deepestKind === "file") return { rule: "under-file", entry };
    for (const parent of parents.slice(deepest + 1)) {
      if (folded.claim(parent) !== undefined) return { rule: "case-collision", entry };
      listed.set(parent, { kind: "directory", explicit: false });
      order.push(parent);
    }
    if (kind !== "directory") for (const parent of parents) filled.add(parent);
    const existing = listed.get(path);
    if (existing?.kind === "directory" && kind === "directory" && !existing.explicit) {
      existing.explicit = true;
      continue;
    }
    if (existing?.kind === "directory" && kind !== "directory") return { rule: "replaces-directory", entry };
    if (existing) return { rule: "duplicate", entry };
    if (folded.claim(path) !== undefined) return { rule: "case-collision", entry };
    listed.set(path, { kind, explicit: true });
    order.push(path);
  }
  const empty = order.find((path) => listed.get(path)?.kind === "directory" && !filled.has(path));
  return empty === undefined ? undefined : { rule: "empty-directory", entry: empty };
}

describe("verifyBundle placement in any order", () => {
  it("refuses exactly what a table of whole paths refuses, in bundle order or shuffled", async () => {
    let seed = 14;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const names = ["a", "A", "b", "caf\u00e9", "cafe\u0301", "d"];
    const kinds: Kind[] = ["file", "file", "file", "directory", "directory", "symlink"];
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 400; round++) {
      const entries = Array.from({ length: 2 + Math.floor(random() * 7) }, () => ({
        path: Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(names)).join("/"),
        kind: pick(kinds),
      }));
      // Half the rounds in the order git archive writes (by name, a directory as "name/").
      if (round % 2 === 0) {
        const key = (e: { path: string; kind: Kind }) =>
          Buffer.from(e.kind === "directory" ? `${e.path}/` : e.path);
        entries.sort((x, y) => Buffer.compare(key(x), key(y)));
      }
      const specs: TarSpec[] = entries.map(({ path, kind }) =>
        kind === "directory"
          ? { name: `${path}/`, type: "5" }
          : kind === "symlink"
            ? { name: path, type: "2", linkpath: "nowhere" }
            : { name: path, content: "x" },
      );
      const files = entries.filter((e) => e.kind !== "directory").length;
      const bundle = gzipSync(makeTar(specs));
      const expected = referencePlacement(entries);
      const outcome = await verifyBundle(save(bundle), bundle.length, files).then(
        () => undefined,
        (error: unknown) => {
          if (!(error instanceof BundleRefusedError)) throw error;
          return { rule: error.rule, entry: error.entry };
        },
      );
      expect(outcome, JSON.stringify(entries)).toEqual(expected);
      const rule = expected?.rule ?? "accepted";
      outcomes.set(rule, (outcomes.get(rule) ?? 0) + 1);
    }
    // Every outcome came up, accepted listings included.
    expect([...outcomes.keys()].sort()).toEqual([
      "accepted",
      "case-collision",
      "duplicate",
      "empty-directory",
      "replaces-directory",
      "through-symlink",
      "under-file",
    ]);
  });
});

describe("verifyBundle framing and caps", () => {
  const good = makeTar([{ name: "a.txt", content: "hello\n" }]);

  it("refuses non-zero bytes after the end-of-archive blocks", async () => {
    const error = await refusal(
      gzipSync(makeTar([{ name: "a.txt", content: "x" }], { trailer: Buffer.from("smuggled") })),
      1,
    );
    expect(error.rule).toBe("tar-trailing-data");
  });

  it("refuses a second gzip member", async () => {
    const error = await refusal(Buffer.concat([gzipSync(good), gzipSync(Buffer.alloc(1024))]), 1);
    expect(error.rule).toBe("gzip-trailing-data");
  });

  it("refuses trailing bytes after the gzip stream", async () => {
    expect((await refusal(Buffer.concat([gzipSync(good), Buffer.from([0, 0, 0, 0])]), 1)).rule).toBe(
      "gzip-trailing-data",
    );
  });

  it("refuses a corrupt or truncated gzip stream", async () => {
    const gz = gzipSync(good);
    expect((await refusal(gz.subarray(0, gz.length - 30), 1)).rule).toMatch(/^gzip-/);
    const flipped = Buffer.from(gz);
    flipped.writeUInt8((flipped.at(-6) as number) ^ 0xff, flipped.length - 6);
    expect((await refusal(flipped, 1)).rule).toBe("gzip-format");
    expect((await refusal(good, 1)).rule).toBe("gzip-format");
  });

  it.each([0, 99, 147, 156, 257, 345, 511])("refuses a header whose byte %i does not add up", async (at) => {
    const tar = Buffer.from(good);
    tar[at] = ((tar[at] as number) + 1) & 0xff;
    const error = await refusal(gzipSync(tar), 1);
    expect(error.rule).toBe("tar-format");
    expect(error.message).toContain("checksum mismatch");
  });

  it("refuses a tar without end-of-archive blocks", async () => {
    expect((await refusal(gzipSync(good.subarray(0, good.length - 1024)), 1)).rule).toBe("tar-format");
  });

  it.each([
    [{ global: { path: "../../evil" } }, "path"],
    [{ global: { linkpath: "/etc" } }, "linkpath"],
    [{ global: { size: "1024" } }, "size"],
  ])("refuses a pax global header setting %s", async (options, key) => {
    const error = await refusal(gzipSync(makeTar([{ name: "a", content: "x" }], options)), 1);
    expect(error.rule).toBe("pax-global-header");
    expect(error.message).toContain(key);
  });

  it("accepts git's own global header (comment only)", async () => {
    const bundle = gzipSync(makeTar([{ name: "a", content: "x" }], { global: { comment: "0".repeat(40) } }));
    await expect(verifyBundle(save(bundle), bundle.length, 1)).resolves.toBeDefined();
  });

  it("refuses when bundle.files disagrees with the archive", async () => {
    const one = await refusal(gzipSync(makeTar([{ name: "a" }])), 2);
    expect(one.rule).toBe("file-count");
    expect(one.message).toContain("the bundle holds 1 file or symlink, the request's bundle.files says 2");
    const two = await refusal(gzipSync(makeTar([{ name: "a" }, { name: "b" }])), 3);
    expect(two.message).toContain("the bundle holds 2 files and symlinks, the request's bundle.files says 3");
    expect((await refusal(gzipSync(makeTar([{ name: "a" }, { name: "b" }])), 1)).rule).toBe("file-count");
  });

  it("accepts more directories than files, as a deep tree has them", async () => {
    const deep = makeTar([
      { name: "a/", type: "5" },
      { name: "a/b/", type: "5" },
      { name: "a/b/c/", type: "5" },
      { name: "a/b/c/file", content: "x" },
    ]);
    await expect(verifyBundle(save(gzipSync(deep)), gzipSync(deep).length, 1)).resolves.toBeDefined();
  });

  it("refuses a directory with no file below it (git archive never writes one)", async () => {
    const bundle = gzipSync(
      makeTar([
        { name: "empty/", type: "5" },
        { name: "a", content: "x" },
      ]),
    );
    const error = await refusal(bundle, 1);
    expect(error.rule).toBe("empty-directory");
    expect(error.entry).toBe("empty");
  });

  it("refuses more entries than the cap", async () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}` }));
    const error = await refusal(gzipSync(makeTar(entries)), 20, { ...DEFAULT_BUNDLE_LIMITS, maxEntries: 10 });
    expect(error.rule).toBe("entry-count");
    expect(error.entry).toBe("f10");
  });

  it("refuses an archive that expands past the size cap", async () => {
    const random = Buffer.alloc(256 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919) % 251;
    const error = await refusal(gzipSync(makeTar([{ name: "big", content: random }])), 1, {
      ...DEFAULT_BUNDLE_LIMITS,
      maxExpandedBytes: 100_000,
    });
    expect(error.rule).toBe("expanded-size");
  });

  it("stops a 256 MiB gzip bomb while streaming, with flat memory", async () => {
    const file = join(dir, "bomb.tar.gz");
    const gzip = createGzip({ level: 9 });
    const chunks: Buffer[] = [];
    gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise((resolve) => gzip.on("end", resolve));
    gzip.write(tarHeader({ name: "zeros.bin", type: "0", size: 256 * 1024 ** 2, mode: 0o644 }));
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    for (let i = 0; i < 16; i++) gzip.write(zeros);
    gzip.end(Buffer.alloc(1024));
    await done;
    const bomb = Buffer.concat(chunks);
    writeFileSync(file, bomb);
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    await expect(verifyBundle(file, bomb.length, 1)).rejects.toMatchObject({ rule: "compression-ratio" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
  });
});
