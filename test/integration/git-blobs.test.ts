// Many blobs through one `git cat-file --batch`: contents that span many pipe chunks, empty ones,
// and one that is missing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openBlobReader, readBlobs } from "../../src/git/blobs.js";
import { cleanEnv } from "../../src/git/run.js";
import { createTestRepo, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();

function hash(repo: ReturnType<typeof createTestRepo>, content: string | Buffer): string {
  const file = join(repo.home, "blob");
  writeFileSync(file, content);
  return repo.git("hash-object", "-w", "--no-filters", file).trim();
}

describe("the blob reader", () => {
  it("reads blobs in the order asked, whatever their size, through one git", async () => {
    const repo = repos.add(createTestRepo());
    const big = Buffer.alloc(5 * 1024 * 1024 + 7, 0x61);
    big[big.length - 1] = 0x0a;
    const contents = [big, Buffer.from(""), Buffer.from("short\n"), Buffer.from("no newline at the end")];
    const oids = contents.map((content) => hash(repo, content));
    const reader = openBlobReader({ cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) });
    const read = await Promise.all(oids.map((oid) => reader.read(oid)));
    await reader.close();
    for (const [i, content] of read.entries())
      expect(content.equals(contents[i] as Buffer), `blob ${i}`).toBe(true);
  });

  it("rejects a missing blob, and goes on with the next", async () => {
    const repo = repos.add(createTestRepo());
    const oid = hash(repo, "there\n");
    const reader = openBlobReader({ cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) });
    await expect(reader.read("0".repeat(40))).rejects.toThrow(/missing/);
    expect((await reader.read(oid)).toString()).toBe("there\n");
    await reader.close();
  });

  it("reads blobs given all at once in the order asked, the same one twice, from one output", async () => {
    const repo = repos.add(createTestRepo());
    const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x62);
    const contents = [Buffer.from("short\n"), big, Buffer.from(""), Buffer.from("short\n")];
    const oids = contents.map((content) => hash(repo, content));
    const run = { cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) };
    const read = await readBlobs(run, oids);
    expect(read.length).toBe(contents.length);
    for (const [i, content] of read.entries())
      expect(content.equals(contents[i] as Buffer), `blob ${i}`).toBe(true);
    expect(await readBlobs(run, [])).toEqual([]);
  });

  it("refuses a missing blob among those given at once", async () => {
    const repo = repos.add(createTestRepo());
    const oid = hash(repo, "there\n");
    const run = { cwd: repo.dir, env: cleanEnv({ GIT_DIR: join(repo.dir, ".git") }) };
    await expect(readBlobs(run, [oid, "0".repeat(40), oid])).rejects.toThrow(/0{40}: 0{40} missing/);
  });
});
