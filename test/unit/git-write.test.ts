import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import {
  adler32,
  encodeCommit,
  encodeTree,
  ObjectType,
  objectId,
  storedZlib,
  type TreeItem,
  treeItemBytes,
  writeLooseObject,
} from "../../src/git/write/objects.js";
import { PackWriter } from "../../src/git/write/pack.js";
import { initGitDir, writeRef } from "../../src/git/write/repository.js";
import { testEnv } from "../helpers/repo.js";

const root = mkdtempSync(join(tmpdir(), "rr-git-write-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = testEnv(root);

/** A bare repository laid out by initGitDir, and git run on it. */
function bareRepo(name: string) {
  const gitDir = join(root, name);
  initGitDir(gitDir, { bare: true, branch: "main", config: "", attributes: "" });
  const git = (args: string[], input?: Buffer | string) =>
    execFileSync("git", [`--git-dir=${gitDir}`, ...args], { env, input, maxBuffer: 1 << 28 });
  return { gitDir, git };
}

describe("git objects written in-process", () => {
  it("computes Adler-32 as RFC 1950 does, across the modulo blocks", () => {
    expect(adler32(Buffer.from("Wikipedia"))).toBe(0x11e60398);
    const large = Buffer.alloc(100_000, 0xff);
    expect(adler32(large.subarray(50_000), adler32(large.subarray(0, 50_000)))).toBe(adler32(large));
    // zlib's own stream ends with the same checksum.
    expect(storedZlib(large).subarray(-4).readUInt32BE(0)).toBe(adler32(large));
    // zlib's own checksum (the end of its stream) for every length around a step and a modulo block.
    const bytes = randomBytes(20_000);
    for (const size of [0, 1, 7, 8, 9, 15, 16, 17, 5551, 5552, 5553, 5559, 5560, 5561, 11_105, 20_000]) {
      const piece = bytes.subarray(0, size);
      const stream = deflateSync(piece, { level: 0 });
      expect(adler32(piece), `${size} bytes`).toBe(stream.readUInt32BE(stream.length - 4));
      expect(adler32(piece.subarray(3), adler32(piece.subarray(0, 3)))).toBe(adler32(piece));
    }
  });

  it("frames any size as stored zlib blocks that zlib inflates back", () => {
    for (const size of [0, 1, 65_535, 65_536, 200_001]) {
      const body = Buffer.alloc(size, size % 251);
      expect(inflateSync(storedZlib(body)).equals(body)).toBe(true);
    }
  });

  it("names blobs, trees and commits as git hash-object and git itself do", () => {
    const { git } = bareRepo("ids.git");
    const blob = Buffer.from("hello\n");
    expect(objectId(ObjectType.blob, blob).toString("hex")).toBe(
      git(["hash-object", "--stdin"], blob).toString().trim(),
    );
    const blobId = writeLooseObject(join(root, "ids.git", "objects"), ObjectType.blob, blob);
    // In git's tree order, as the baseline lists them: "a.txt" before the directory "a" (as "a/").
    const items: TreeItem[] = [
      { name: "a.txt", mode: "100755", oid: blobId },
      { name: "a", mode: "40000", oid: Buffer.from("4b825dc642cb6eb9a060e54bf8d69288fbee4904", "hex") },
      { name: "link", mode: "120000", oid: blobId },
      { name: "z.txt", mode: "100644", oid: blobId },
      { name: "été.txt", mode: "100644", oid: blobId },
    ];
    const tree = encodeTree(
      items,
      items.reduce((sum, item) => sum + treeItemBytes(item), 0),
    );
    const mktree =
      "100644 blob ce013625030ba8dba906f756967f9e9ca394464a\tz.txt\n" +
      "040000 tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ta\n" +
      "100755 blob ce013625030ba8dba906f756967f9e9ca394464a\ta.txt\n" +
      "120000 blob ce013625030ba8dba906f756967f9e9ca394464a\tlink\n" +
      "100644 blob ce013625030ba8dba906f756967f9e9ca394464a\tété.txt\n";
    git(["mktree", "--missing"], mktree);
    expect(objectId(ObjectType.tree, tree).toString("hex")).toBe(
      git(["mktree", "--missing"], mktree).toString().trim(),
    );
    const commit = encodeCommit({
      tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
      parents: [],
      author: "A U Thor <a@example.invalid> 946684800 +0000",
      committer: "A U Thor <a@example.invalid> 946684800 +0000",
      message: "Subject\n",
    });
    const made = execFileSync(
      "git",
      [
        "--git-dir",
        join(root, "ids.git"),
        "commit-tree",
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "-m",
        "Subject",
      ],
      {
        env: {
          ...env,
          GIT_AUTHOR_NAME: "A U Thor",
          GIT_AUTHOR_EMAIL: "a@example.invalid",
          GIT_COMMITTER_NAME: "A U Thor",
          GIT_COMMITTER_EMAIL: "a@example.invalid",
          GIT_AUTHOR_DATE: "946684800 +0000",
          GIT_COMMITTER_DATE: "946684800 +0000",
        },
      },
    );
    expect(objectId(ObjectType.commit, commit).toString("hex")).toBe(made.toString().trim());
    expect(git(["cat-file", "-p", blobId.toString("hex")]).toString()).toBe("hello\n");
  });

  it("writes a pack and idx that git verifies: empty and large blobs fed in pieces, a commit on top", () => {
    const { gitDir, git } = bareRepo("pack.git");
    const bodies = [Buffer.alloc(0), Buffer.from("one\n"), Buffer.alloc(300_000, 7), Buffer.from("two\n")];
    const pack = new PackWriter(join(root, "pack.tmp"), bodies.length + 2);
    for (const body of bodies) {
      // In pieces, as a bundle streams by.
      const object = pack.add(ObjectType.blob, body.length);
      for (let at = 0; at < body.length; at += 70_000) object.write(body.subarray(at, at + 70_000));
      object.end(objectId(ObjectType.blob, body));
    }
    const big = { name: "big", mode: "100644", oid: objectId(ObjectType.blob, bodies[2] as Buffer) };
    const tree = encodeTree([big], treeItemBytes(big));
    const treeId = objectId(ObjectType.tree, tree);
    pack.addWhole(ObjectType.tree, tree, treeId);
    const commit = encodeCommit({
      tree: treeId.toString("hex"),
      parents: [],
      author: "A <a@example.invalid> 0 +0000",
      committer: "A <a@example.invalid> 0 +0000",
      message: "Packed\n",
    });
    const commitId = objectId(ObjectType.commit, commit);
    pack.addWhole(ObjectType.commit, commit, commitId);
    const name = pack.finish(join(gitDir, "objects", "pack"));
    writeRef(gitDir, "refs/heads/main", commitId.toString("hex"));
    expect(readdirSync(join(gitDir, "objects", "pack")).sort()).toEqual([`${name}.idx`, `${name}.pack`]);
    git(["verify-pack", join(gitDir, "objects", "pack", `${name}.idx`)]);
    git(["fsck", "--full", "--no-dangling", "--no-progress"]);
    expect(git(["cat-file", "blob", "main:big"]).equals(bodies[2] as Buffer)).toBe(true);
    expect(git(["cat-file", "-p", objectId(ObjectType.blob, Buffer.alloc(0)).toString("hex")]).length).toBe(
      0,
    );
  });

  it("refuses to finish a pack with fewer objects than its header announced", () => {
    const pack = new PackWriter(join(root, "short.tmp"), 2);
    pack.addWhole(ObjectType.blob, Buffer.from("x"), objectId(ObjectType.blob, Buffer.from("x")));
    expect(() => pack.finish(root)).toThrow(/1 objects written, 2 announced/);
    pack.close();
  });
});
