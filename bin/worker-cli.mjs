// The worker run inside its namespaces loads dist/worker-cli.cjs, compiled with the V8 code cache
// scripts/build.mjs makes beside it (node 20 keeps none for ES modules or require). A cache V8
// refuses (other flags) or none at all: the file is compiled from its source. The cache is named for
// the node binary that made it: V8 checks only its own version, and node 20 releases share one V8
// version, so a cache made by another node 20 can be taken and crash it (20.20's, in 20.15).
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, Script } from "node:vm";

/** The file of `file`'s code cache made by this node binary: its version, arch and size. */
export function codeCacheFile(file) {
  return `${file}.${process.version}-${process.arch}-${statSync(process.execPath).size}.cache`;
}

/** `file` as a CommonJS module's function, compiled with its cache when V8 takes it. */
export function compileWorker(file) {
  let cachedData;
  try {
    cachedData = readFileSync(codeCacheFile(file));
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(file, "utf8");
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // An import() left in the file (a node builtin) loads as it would in a module of its own.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
}

/** The exports of `url`'s file, run as node runs a CommonJS module. */
export function loadWorker(url) {
  const file = fileURLToPath(url);
  const module = { exports: {} };
  const run = compileWorker(file).runInThisContext();
  run(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}
