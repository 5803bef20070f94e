// The confined worker's file is compiled with the code cache the build made for it (bin/worker-cli.mjs):
// taken under the worker's node flags, and a cache V8 refuses, or none, only costs the compile.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NODE_FLAGS } from "../../src/os/node-flags.js";
import { PROJECT_ROOT } from "../helpers/repo.js";

const LOADER = join(PROJECT_ROOT, "bin", "worker-cli.mjs");
const dir = mkdtempSync(join(tmpdir(), "rr-code-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What node with the worker's flags says of `file` loaded as the confined worker loads its own. */
function load(file: string): { rejected: boolean; exports: string[] } {
  const script = `
    import { pathToFileURL } from "node:url";
    import { compileWorker, loadWorker } from ${JSON.stringify(LOADER)};
    const rejected = compileWorker(process.argv[1]).cachedDataRejected ?? true;
    const exports = Object.keys(loadWorker(pathToFileURL(process.argv[1])));
    console.log(JSON.stringify({ rejected, exports }));`;
  const run = spawnSync(process.execPath, [...NODE_FLAGS, "--input-type=module", "-e", script, file], {
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe("the confined worker's code cache", () => {
  it("is taken for the built worker under the worker's node flags", () => {
    const built = load(join(PROJECT_ROOT, "dist", "worker-cli.cjs"));
    expect(built).toEqual({ rejected: false, exports: expect.arrayContaining(["main"]) });
  });

  it("costs only the compile when it is refused or missing", () => {
    const file = join(dir, "module.cjs");
    writeFileSync(
      file,
      'const { join } = require("node:path");\nexports.main = () => join("a", __filename);\n',
    );
    expect(load(file)).toEqual({ rejected: true, exports: ["main"] });
    writeFileSync(cacheOf(file), "not a code cache");
    expect(load(file)).toEqual({ rejected: true, exports: ["main"] });
  });

  it("is read only by the node binary that made it: V8 would take another node 20's, and crash", () => {
    const built = join(PROJECT_ROOT, "dist", "worker-cli.cjs");
    const own = cacheOf(built);
    expect(existsSync(own), own).toBe(true);
    expect(own).toBe(`${built}.${process.version}-${process.arch}-${statSync(process.execPath).size}.cache`);
    // The same cache under another binary's name (another release, or another build of this one).
    const file = join(dir, "worker.cjs");
    copyFileSync(built, file);
    copyFileSync(own, `${file}.v20.15.0-${process.arch}-${statSync(process.execPath).size}.cache`);
    copyFileSync(own, `${file}.${process.version}-${process.arch}-1.cache`);
    expect(load(file)).toEqual({ rejected: true, exports: expect.arrayContaining(["main"]) });
    copyFileSync(own, cacheOf(file));
    expect(load(file)).toEqual({ rejected: false, exports: expect.arrayContaining(["main"]) });
  });
});

/** The code cache file this test's node reads for `file`. */
function cacheOf(file: string): string {
  return `${file}.${process.version}-${process.arch}-${statSync(process.execPath).size}.cache`;
}
