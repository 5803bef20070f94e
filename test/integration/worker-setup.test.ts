// The host's setup command: it prepares the tree before the reviewers, what it adds is never proposed,
// its edits to tracked files are undone, it has no network unless the host says so, and a cache keyed
// by the lockfile's sha256 (with the tree's install configuration) replaces it on the next review of
// that lockfile.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkerOptions } from "../../src/worker/flow.js";
import { envelope, parseResult, runWorkerOn, useBundledRepo, useWorkspaceRoot } from "./worker-helpers.js";

useWorkspaceRoot({ emptyAfterEach: true });
const LOCKFILE = '{ "lockfileVersion": 3 }\n';
const target = useBundledRepo((repo) => {
  repo.write("package-lock.json", LOCKFILE);
  repo.write("src/a.js", "a\n");
  repo.write(".gitignore", "build/\n");
  return repo.commit("base");
});
const NPMRC = "git=./tools/fake-git.sh\n";
/** The same lockfile beside an .npmrc: the install it makes is not the other tree's. */
const configured = useBundledRepo((repo) => {
  repo.write("package-lock.json", LOCKFILE);
  repo.write(".npmrc", NPMRC);
  repo.write("src/a.js", "a\n");
  repo.write(".gitignore", "build/\n");
  return repo.commit("base");
});
const BUNFIG = '[install]\nregistry = "https://registry.example.invalid/"\n';
/** The same lockfile, with a workspace's own .npmrc and bunfig.toml below the top. */
const nested = useBundledRepo((repo) => {
  repo.write("package-lock.json", LOCKFILE);
  repo.write("packages/web/.npmrc", NPMRC);
  repo.write("packages/web/bunfig.toml", BUNFIG);
  repo.write("src/a.js", "a\n");
  repo.write(".gitignore", "build/\n");
  return repo.commit("base");
});
let cacheDir: string;
let server: Server;
let port = 0;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "rr-cache-"));
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
  server.close();
});

const INSTALL =
  "mkdir -p deps/lib build && echo A > deps/lib/v && echo out > build/out && echo rewritten >> package-lock.json";
const USE_DEPS = "cat deps/lib/v > seen.txt";

async function review(setup: WorkerOptions["setup"], command = USE_DEPS) {
  const run = await runWorkerOn(envelope(target.request(), target.bundle), {
    reviewerCommands: [{ command, format: "comments" }],
    setup,
  });
  expect(run.code, run.stderr).toBe(0);
  return { result: parseResult(run.stdout), stderr: run.stderr };
}

/** A review of another tree with the cache: setup run, or restored, then the reviewer that reads it. */
async function installedOn(tree: typeof configured) {
  const run = await runWorkerOn(envelope(tree.request(), tree.bundle), {
    reviewerCommands: [{ command: USE_DEPS, format: "comments" }],
    setup: { command: INSTALL, network: false, cacheDir },
  });
  const result = parseResult(run.stdout);
  expect(result.status, result.error).toBe("ok");
  return result;
}

describe("the setup command", () => {
  it("prepares the tree for the reviewers; what it adds or changes is never proposed", async () => {
    const { result, stderr } = await review({ command: INSTALL, network: false });
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch).toContain("+++ b/seen.txt\n@@ -0,0 +1 @@\n+A\n");
    expect(result.commits[0]?.patch).not.toMatch(/deps\/|package-lock/);
    expect(result.summary).toContain(`Setup: \`${INSTALL}\` (`);
    // What it added, ignored by the project (build/) or not (deps/).
    expect(result.summary).toContain("added deps/, build/");
    expect(result.commits[0]?.patch).not.toContain("build/");
    expect(stderr).toContain("setup changed tracked files; those changes were undone");
  });

  it("fails the review when it fails, before any reviewer runs", async () => {
    const { result } = await review({ command: "exit 3", network: false }, "echo ran > ran.txt");
    expect(result).toMatchObject({
      status: "failed",
      commits: [],
      error: "the setup command failed: it exited with code 3",
    });
  });

  it("has the network only with --setup-network", async () => {
    const connect = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"`;
    const closed = await review({ command: connect, network: false });
    expect(closed.result.status).toBe("failed");
    const open = await review({
      command: `${connect} && mkdir -p deps/lib && echo net > deps/lib/v`,
      network: true,
    });
    expect(open.result.status, open.result.error).toBe("ok");
    expect(open.result.commits[0]?.patch).toContain("+net\n");
  });

  it("keeps what it added under the lockfile's sha256 and restores it instead of running again", async () => {
    const key = createHash("sha256").update(LOCKFILE).digest("hex");
    const first = await review({
      command: `${INSTALL} && touch deps/lib/run && chmod 6755 deps/lib/run`,
      network: false,
      cacheDir,
    });
    expect(first.result.status, first.result.error).toBe("ok");
    expect(first.result.summary).toContain(`kept in the cache for package-lock.json ${key.slice(0, 12)}`);
    // Only what setup added is kept: nothing of the repository.
    expect(
      execFileSync("find", [".", "-mindepth", "1"], { cwd: cacheDir, encoding: "utf8" }).split("\n").sort(),
    ).toEqual([
      "",
      `./${key}`,
      `./${key}/build`,
      `./${key}/build/out`,
      `./${key}/deps`,
      `./${key}/deps/lib`,
      `./${key}/deps/lib/run`,
      `./${key}/deps/lib/v`,
    ]);
    // Kept as files of the worker's user: no set-user-ID or set-group-ID bit survives.
    expect(statSync(join(cacheDir, key, "deps", "lib", "run")).mode & 0o7777).toBe(0o755);
    // The next review takes the cache as it is (changed here to tell), without running setup.
    writeFileSync(join(cacheDir, key, "deps", "lib", "v"), "B\n");
    const second = await review({ command: `${INSTALL} && exit 9`, network: false, cacheDir });
    expect(second.result.status, second.result.error).toBe("ok");
    expect(second.result.summary).toContain(
      `Setup: restored from the cache for package-lock.json ${key.slice(0, 12)}`,
    );
    expect(second.result.commits[0]?.patch).toContain("+B\n");
    expect(readFileSync(join(cacheDir, key, "deps", "lib", "v"), "utf8")).toBe("B\n");
    expect(existsSync(join(cacheDir, key, "src"))).toBe(false);
    // The same lockfile under an install configuration of the tree's own has an entry of its own.
    const third = await installedOn(configured);
    const own = createHash("sha256")
      .update(LOCKFILE)
      .update(`\0.npmrc\0${NPMRC.length}\0${NPMRC}`)
      .digest("hex");
    expect(third.summary).toContain(`kept in the cache for package-lock.json ${own.slice(0, 12)}`);
    expect(third.commits[0]?.patch).toContain("+A\n");
    // So does one whose workspace below the top has its own: it was given the first tree's entry.
    const fourth = await installedOn(nested);
    const nestedKey = createHash("sha256")
      .update(LOCKFILE)
      .update(`\0packages/web/.npmrc\0${NPMRC.length}\0${NPMRC}`)
      .update(`\0packages/web/bunfig.toml\0${BUNFIG.length}\0${BUNFIG}`)
      .digest("hex");
    expect(fourth.summary).toContain(`kept in the cache for package-lock.json ${nestedKey.slice(0, 12)}`);
    expect(fourth.commits[0]?.patch).toContain("+A\n");
  });
});
