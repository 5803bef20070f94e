// The worker run inside its namespaces loads dist/worker-cli.cjs, compiled with the V8 code cache
// scripts/build.mjs makes beside it (node 20 keeps none for ES modules or require). A cache V8
// refuses (another node, other flags) or none at all: the file is compiled from its source.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, Script } from "node:vm";

/** `file` as a CommonJS module's function, compiled with its cache when V8 takes it. */
export function compileWorker(file) {
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
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
