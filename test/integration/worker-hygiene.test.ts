import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createBaseline, workerGitEnv, writeWorkerGlobalConfig } from "../../src/worker/baseline.js";
import { addBlobIds, keepOriginalBlob } from "../../src/worker/baseline-blobs.js";
import { HYGIENE_COMMIT_TITLE } from "../../src/worker/reviewers/hygiene.js";
import { type UnpackOptions, verifyAndUnpack } from "../../src/worker/unpack.js";
import type { BundleListing } from "../../src/worker/verify-bundle.js";
import {
  countFiles,
  envelope,
  parseResult,
  runWorkerOn,
  useBundledRepo,
  useWorkspaceRoot,
} from "./worker-helpers.js";
import { makeTar } from "./worker-tar.js";

const workspaces = useWorkspaceRoot();

const target = useBundledRepo((repo) => {
  // As the export side does: blobs go into the bundle byte for byte, whatever .gitattributes says.
  repo.write(".git/info/attributes", "* -text -filter -ident -export-subst -working-tree-encoding\n");
  repo.write("clean.ts", "export const a = 1;\n");
  repo.write("same-as-clean.ts", "export const a = 1;\n");
  repo.write("trailing.ts", "const a = 1;   \nconst b = 2;\t\n\nconst c = 3;\n");
  repo.write("no-newline.md", "# Title\n\nlast line");
  repo.write("crlf.txt", "one  \r\ntwo\r\n");
  repo.write("conflict.ts", "a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\nb\n");
  repo.write("mixed.txt", "unix\nwindows\r\nunix again\n");
  repo.write("big.txt", `${"x".repeat(1024 * 1024)}   \n`);
  repo.write("image.bin", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x20, 0x20, 0x0a]));
  repo.write("latin1.txt", Buffer.from("caf\xe9  \n", "latin1"));
  repo.write(".github/workflows/ci.yml", "on: push   \n");
  repo.write("ignored.log", "tracked although ignored  \n");
  repo.write(".gitignore", "*.log\n");
  repo.write("sub/dir/deep.ts", "deep  \n");
  repo.write(".gitattributes", "* text=auto eol=crlf\n*.ts ident\n");
  repo.write("ident.ts", "// $Id$\n");
  symlinkSync("trailing.ts", join(repo.dir, "link.ts"));
  symlinkSync("../../clean.ts", join(repo.dir, "sub/dir/up.ts"));
  symlinkSync("sub", join(repo.dir, "dirlink"));
  execFileSync("git", ["add", "-f", "ignored.log"], { cwd: repo.dir, env: repo.env });
  return repo.commit("base");
});
const { request } = target;

interface Unpacked {
  root: string;
  file: string;
  tree: string;
  listing: BundleListing;
}

/** `bundle` (of `files` files) unpacked as the worker does, in a temp dir removed after `use`. */
async function withUnpacked(
  { bundle, files, ...options }: { bundle: Buffer; files: number } & UnpackOptions,
  use: (unpacked: Unpacked) => Promise<void>,
): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "rr-baseline-"));
  try {
    const file = join(root, "bundle.tar.gz");
    writeFileSync(file, bundle);
    const tree = join(root, "tree");
    await use({
      root,
      file,
      tree,
      listing: await verifyAndUnpack(file, bundle.length, files, tree, options),
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe("worker baseline", () => {
  it("reproduces the snapshot's tree byte for byte (modes, symlinks, no conversions)", async () => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle) },
      async ({ root, tree, listing }) => {
        writeWorkerGlobalConfig(root);
        const baseline = createBaseline(tree, listing, target.snapshot, { allBlobs: false });
        const committed = execFileSync("git", ["rev-parse", `${baseline.commit}^{tree}`], {
          cwd: tree,
          env: workerGitEnv(root) as NodeJS.ProcessEnv,
          encoding: "utf8",
        });
        expect(committed.trim()).toBe(target.repo.git("rev-parse", "HEAD^{tree}").trim());
      },
    );
  });

  it("takes the blob ids from the bundle again when the unpack left them, a rewritten file's too", async () => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle), blobIds: false },
      async ({ root, file, tree, listing }) => {
        expect(listing.blobIds).toBe(false);
        expect(listing.nodes.get("trailing.ts")?.oid).toBeUndefined();
        // A built-in reviewer keeps the original, then rewrites the file.
        const path = join(tree, "trailing.ts");
        keepOriginalBlob(tree, listing, "trailing.ts", readFileSync(path));
        writeFileSync(path, "const a = 1;\nconst b = 2;\n\nconst c = 3;\n");
        await addBlobIds(file, target.bundle.length, listing);
        expect(listing.blobIds).toBe(true);
        writeWorkerGlobalConfig(root);
        const baseline = createBaseline(tree, listing, target.snapshot, { allBlobs: false });
        const git = (...args: string[]) =>
          execFileSync("git", args, {
            cwd: tree,
            env: workerGitEnv(root) as NodeJS.ProcessEnv,
            encoding: "utf8",
          });
        expect(git("rev-parse", `${baseline.commit}^{tree}`).trim()).toBe(
          target.repo.git("rev-parse", "HEAD^{tree}").trim(),
        );
        // The original is there to diff against: the rewrite shows as a change.
        expect(git("diff", "--name-only", baseline.commit)).toBe("trailing.ts\n");
      },
    );
  });

  it("refuses a kept original that is not the bundle's blob once the ids are read", async () => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle), blobIds: false },
      async ({ file, tree, listing }) => {
        keepOriginalBlob(tree, listing, "clean.ts", Buffer.from("export const a = 2;\n"));
        await expect(addBlobIds(file, target.bundle.length, listing)).rejects.toMatchObject({
          rule: "extract-mismatch",
          entry: "clean.ts",
        });
        expect(listing.blobIds).toBe(false);
      },
    );
  });

  it.each([
    ["a file the listing does not have", [{ name: "dir/other.txt", content: "b\n" }], "dir/other.txt"],
    ["a file less than the listing", [], "dir/b.txt"],
    ["other bytes under the same name", [{ name: "dir/b.txt", content: "c\n" }], "dir/b.txt"],
  ])("refuses a bundle read again with %s", async (_, last, entry) => {
    const first = [
      { name: "a.txt", content: "a\n" },
      { name: "dir/", type: "5" },
    ];
    const unpacked = gzipSync(makeTar([...first, { name: "dir/b.txt", content: "b\n" }]));
    await withUnpacked({ bundle: unpacked, files: 2, blobIds: false }, async ({ file, tree, listing }) => {
      // The original a reviewer kept, to be checked against the bundle read again.
      keepOriginalBlob(tree, listing, "dir/b.txt", Buffer.from("b\n"));
      const other = gzipSync(makeTar([...first, ...last]));
      writeFileSync(file, other);
      await expect(addBlobIds(file, other.length, listing)).rejects.toMatchObject({
        rule: "extract-mismatch",
        entry,
      });
    });
  });
});

/** The TREE extension of an index file (gitformat-index(5)): what `git write-tree` trusts. */
function cacheTreeOf(index: Buffer): Buffer | undefined {
  let at = 12;
  for (let entry = 0; entry < index.readUInt32BE(8); entry++) {
    const nameLength = index.readUInt16BE(at + 60) & 0xfff;
    at += (62 + nameLength + 8) & ~7;
  }
  while (at < index.length - 20) {
    const size = index.readUInt32BE(at + 4);
    if (index.toString("latin1", at, at + 4) === "TREE") return index.subarray(at + 8, at + 8 + size);
    at += 8 + size;
  }
  return undefined;
}

describe("worker baseline written from the listing", () => {
  it("is an index git takes as clean, git's own cache-tree, and objects fsck accepts", async () => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle) },
      async ({ root, tree, listing }) => {
        const baseline = createBaseline(tree, listing, target.snapshot, { allBlobs: true });
        writeWorkerGlobalConfig(root);
        const env = workerGitEnv(root) as NodeJS.ProcessEnv;
        const git = (...args: string[]) => execFileSync("git", args, { cwd: tree, env, encoding: "utf8" });
        // Stat data that matches what is on disk: nothing to rehash, nothing modified or untracked.
        expect(git("diff-files", "--name-only")).toBe("");
        expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
        expect(git("ls-files", "-s")).toBe(
          target.repo.git("ls-tree", "-r", "HEAD").replace(/^(\d+) blob (\w+)\t/gm, "$1 $2 0\t"),
        );
        const theirs = join(root, "git-index");
        execFileSync("git", ["read-tree", baseline.tree], {
          cwd: tree,
          env: { ...env, GIT_INDEX_FILE: theirs },
        });
        expect(cacheTreeOf(baseline.index)).toEqual(cacheTreeOf(readFileSync(theirs)));
        // One pack of distinct blobs (two files share one), every object where the trees say.
        expect(git("fsck", "--full", "--strict", "--no-dangling", "--no-progress")).toBe("");
        expect(git("cat-file", "-p", `${baseline.commit}`)).toContain(`Snapshot ${target.snapshot}`);
      },
    );
  });

  it("refuses a tree whose files are not the bundle's bytes, before any reviewer sees them", async () => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle) },
      async ({ tree, listing }) => {
        // Other bytes under the same name, as a reviewer or a writer bug could leave them.
        writeFileSync(join(tree, "clean.ts"), "export const a = 2;\n");
        expect(() => createBaseline(tree, listing, target.snapshot, { allBlobs: true })).toThrow(
          expect.objectContaining({ rule: "extract-mismatch", entry: "clean.ts" }),
        );
        expect(() =>
          keepOriginalBlob(tree, listing, "clean.ts", readFileSync(join(tree, "clean.ts"))),
        ).toThrow(expect.objectContaining({ rule: "extract-mismatch" }));
        const original = Buffer.from("export const a = 1;\n");
        keepOriginalBlob(tree, listing, "clean.ts", original);
        const oid = listing.nodes.get("clean.ts")?.oid?.toString("hex") ?? "";
        const shown = execFileSync("git", ["cat-file", "blob", oid], {
          cwd: tree,
          env: target.repo.env,
          encoding: "utf8",
        });
        expect(shown).toBe(original.toString());
      },
    );
  });
});

describe("worker baseline with every blob, for a reviewer command", () => {
  it("packs each distinct blob once, a large one in pieces, in a pack git verifies", async () => {
    // Incompressible, so that the bundle is no "bomb", and read back in several pieces.
    const large = randomBytes(3 * 1024 * 1024 + 5);
    const bundle = gzipSync(
      makeTar([
        { name: "a.txt", content: "same\n" },
        { name: "dir/b.txt", content: "same\n" },
        { name: "dir/empty", content: "" },
        { name: "big.bin", content: large },
        { name: "big-again.bin", content: large },
        { name: "link", type: "2", linkpath: "a.txt" },
        { name: "dir/same-as-target", content: "a.txt" },
      ]),
    );
    await withUnpacked({ bundle, files: 7 }, async ({ root, tree, listing }) => {
      const baseline = createBaseline(tree, listing, "0".repeat(40), { allBlobs: true });
      writeWorkerGlobalConfig(root);
      const env = workerGitEnv(root) as NodeJS.ProcessEnv;
      const git = (...args: string[]) => execFileSync("git", args, { cwd: tree, env, encoding: "utf8" });
      const packs = join(tree, ".git", "objects", "pack");
      // verify-pack refuses a pack that holds an object twice.
      for (const idx of readdirSync(packs).filter((name) => name.endsWith(".idx")))
        git("verify-pack", join(packs, idx));
      expect(git("fsck", "--full", "--strict", "--no-dangling", "--no-progress")).toBe("");
      expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
      expect(git("cat-file", "-p", `${baseline.commit}:dir/b.txt`)).toBe("same\n");
      expect(git("cat-file", "-p", `${baseline.commit}:link`)).toBe("a.txt");
      const big = execFileSync("git", ["cat-file", "blob", `${baseline.commit}:big-again.bin`], {
        cwd: tree,
        env,
        maxBuffer: 1 << 24,
      });
      expect(big.equals(large)).toBe(true);
    });
  });
});

describe("worker baseline read back from the tree", () => {
  it.each([
    ["longer", (listed: string) => `${listed}more\n`],
    ["shorter", (listed: string) => listed.slice(0, -1)],
    ["empty", () => ""],
  ])("refuses a file %s than the bundle's", async (_, change) => {
    await withUnpacked(
      { bundle: target.bundle, files: countFiles(target.bundle) },
      async ({ tree, listing }) => {
        const path = join(tree, "trailing.ts");
        writeFileSync(path, change(readFileSync(path, "utf8")));
        expect(() => createBaseline(tree, listing, target.snapshot, { allBlobs: true })).toThrow(
          expect.objectContaining({ rule: "extract-mismatch", entry: "trailing.ts" }),
        );
      },
    );
  });
});

describe("worker baseline of a bundle in any order", () => {
  it("is git's own tree, index and cache-tree, whatever the order and the names' code points", async () => {
    // Out of git's order, with names UTF-16 and UTF-8 order differently (U+1F600 and U+E000), and
    // names around "/" in byte order ("a-b", "a.c", "a0" beside the directory "a").
    const names = [
      "z/y/x.txt",
      "a0",
      "\u{1F600}.txt",
      "a/x",
      "a-b",
      "\uE000.txt",
      "é/b",
      "a.c",
      "a/b/c/d",
      "b",
    ];
    const bundle = gzipSync(
      makeTar([
        ...names.map((name, i) => ({ name, content: `${name}\n`, mode: i % 3 ? 0o644 : 0o755 })),
        { name: "a/b/link", type: "2", linkpath: "../x" },
      ]),
    );
    await withUnpacked({ bundle, files: names.length + 1 }, async ({ root, tree, listing }) => {
      const baseline = createBaseline(tree, listing, "0".repeat(40), { allBlobs: true });
      writeWorkerGlobalConfig(root);
      const env = workerGitEnv(root) as NodeJS.ProcessEnv;
      const git = (args: string[], index?: string) =>
        execFileSync("git", args, {
          cwd: tree,
          env: index ? { ...env, GIT_INDEX_FILE: index } : env,
          encoding: "utf8",
        });
      expect(git(["status", "--porcelain", "--untracked-files=all"])).toBe("");
      // git's own index of the same files: the same tree, entries and cache-tree.
      const theirs = join(root, "git-index");
      git(["add", "-A"], theirs);
      expect(git(["write-tree"], theirs).trim()).toBe(baseline.tree);
      expect(git(["ls-files", "-s"])).toBe(git(["ls-files", "-s"], theirs));
      expect(cacheTreeOf(baseline.index)).toEqual(cacheTreeOf(readFileSync(theirs)));
      expect(git(["fsck", "--full", "--strict", "--no-dangling", "--no-progress"])).toBe("");
    });
  });
});

describe("hygiene reviewer", () => {
  it("fixes whitespace in one commit and reports conflicts, mixed endings and oversized files", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle));
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status).toBe("ok");
    expect(result.worker.sandbox).toBe("none");
    expect(result.commits).toHaveLength(1);
    const [commit] = result.commits;
    expect(commit?.message.split("\n")[0]).toBe(HYGIENE_COMMIT_TITLE);
    const fixed = ["crlf.txt", "ignored.log", "no-newline.md", "sub/dir/deep.ts", "trailing.ts"];
    expect(commit?.message).toBe(`${HYGIENE_COMMIT_TITLE}\n\n${fixed.map((path) => `- ${path}`).join("\n")}`);
    const changed = [...(commit?.patch ?? "").matchAll(/^diff --git a\/(\S+) /gm)].map((match) => match[1]);
    expect(changed).toEqual(fixed);
    expect(result.comments).toEqual([
      // Not the worker's to change: said, since the whitespace stays.
      {
        path: ".github/workflows/ci.yml",
        severity: "info",
        message:
          "Whitespace not fixed (1 line with trailing whitespace): the path is a forbidden path (.github/**), which no worker may change.",
        rule: "hygiene/whitespace-not-fixed",
      },
      {
        path: "big.txt",
        severity: "warning",
        message: expect.stringContaining("Large file"),
        rule: "hygiene/oversized-file",
      },
      {
        path: "conflict.ts",
        line: 2,
        endLine: 6,
        severity: "error",
        message: expect.any(String),
        rule: "hygiene/conflict-marker",
      },
      {
        path: "mixed.txt",
        line: 2,
        severity: "warning",
        message: expect.stringContaining("1 CRLF and 2 LF"),
        rule: "hygiene/mixed-line-endings",
      },
    ]);
    // The patch applies to the snapshot's blobs exactly, and fixes what it says.
    const tree = target.applyProposals([commit?.patch ?? ""]);
    const show = (path: string) => target.fileInTree(tree, path, "latin1");
    expect(show("trailing.ts")).toBe("const a = 1;\nconst b = 2;\n\nconst c = 3;\n");
    expect(show("no-newline.md")).toBe("# Title\n\nlast line\n");
    expect(show("crlf.txt")).toBe("one\r\ntwo\r\n");
    expect(show(".github/workflows/ci.yml")).toBe("on: push   \n");
    expect(show("latin1.txt")).toBe("caf\xe9  \n");
    expect(show("ident.ts")).toBe("// $Id$\n");
    expect(workspaces.leftovers()).toEqual([]);
  });

  it("limits its comments to the range's paths, and fixes nothing when their lines were not sent", async () => {
    const range = {
      base: target.snapshot,
      head: target.snapshot,
      paths: ["trailing.ts", "conflict.ts"],
      patch: "",
    };
    const result = parseResult((await runWorkerOn(envelope(request({ range }), target.bundle))).stdout);
    expect(result.commits).toEqual([]);
    expect(result.comments.map((comment) => comment.path)).toEqual(["conflict.ts"]);
  });

  it("only comments when the request does not ask for proposals", async () => {
    const result = parseResult(
      (await runWorkerOn(envelope(request({ actions: ["comment"] }), target.bundle))).stdout,
    );
    expect(result.commits).toEqual([]);
    expect(result.comments).toHaveLength(3);
  });
});
