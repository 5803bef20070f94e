// The confined worker's file is compiled with the code cache the build made for it (bin/worker-cli.mjs):
// taken under the worker's node flags, and a cache V8 refuses, or none, only costs the compile.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
    writeFileSync(`${file}.cache`, "not a code cache");
    expect(load(file)).toEqual({ rejected: true, exports: ["main"] });
  });
});
