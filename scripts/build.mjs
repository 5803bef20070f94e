// `npm run build`: bundles src/ into dist/ with esbuild, one ESM entry (dist/cli.js) and a chunk per
// lazily imported part, so each process parses only what it runs. The chunks land directly in dist/:
// src/package-files.ts finds the package's own files one level above itself, which holds for src/ and
// for a chunk in dist/ alike (checked below). Type checking is `npm run typecheck`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = resolve(ROOT, "dist");
/** The confined worker's node flags (src/os/node-flags.ts): its code cache is made under the same. */
const WORKER_NODE_FLAGS = ["--max-semi-space-size=4"];
/** Finds the package's files relative to itself: it must land one level below the root. */
const PACKAGE_FILES = "src/package-files.ts";

/**
 * zod's namespace carries all its 60-odd message locales; only English is ever used (its default),
 * and the others would be parsed by every process.
 */
const englishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/node_modules/zod/")
        ? { path: "zod-locales", namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: ROOT,
    }));
  },
};

rmSync(DIST, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: [
    "src/cli.ts",
    // Loaded on their own by the tests (a fixture worker that signs receipts, the check that the glob
    // library loads lazily), the JSON schema generator and the bench (the worker's unpack, the
    // transport, receipts); they share the CLI's chunks.
    "src/receipt/sign.ts",
    "src/paths/glob.ts",
    "src/protocol/json-schema.ts",
    "src/protocol/limits.ts",
    "src/protocol/request.ts",
    "src/secrets/content-rules.ts",
    "src/secrets/scanner.ts",
    "src/worker/unpack.ts",
    "src/pipeline/transport.ts",
    "src/receipt/statement.ts",
    "src/receipt/verify.ts",
  ],
  outbase: "src",
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.15",
  // zod is bundled (node would otherwise open some 70 of its files in every process); the glob library
  // stays a package, loaded with require() the first time a glob is matched.
  external: ["ignore"],
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
  metafile: true,
  plugins: [englishOnly],
});
/**
 * The worker run inside its namespaces runs the `worker` command and no other: the commands the
 * table loads lazily are left out of its build, each import of one failing (a third of the file,
 * 0.4 MB of the client's code: export, secrets, merge, report, that every confined worker parsed).
 */
const workerCommandOnly = {
  name: "worker-command-only",
  setup(build) {
    build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
      args.kind === "dynamic-import" &&
      args.importer === resolve(ROOT, "src/commands/table.ts") &&
      args.path !== "./worker.js"
        ? { path: args.path, namespace: "left-out" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the confined worker's build`)});`,
    }));
  },
};

// The worker run inside its namespaces (the local worker, and every worker on its host) loads
// nearly all of its code anyway: one file, without the few dozen chunk loads (bin/ picks it). It is
// CommonJS, so that bin/ can compile it with V8's code cache (below): node 20 keeps none for ESM.
const worker = await build({
  absWorkingDir: ROOT,
  entryPoints: { "worker-cli": "src/cli.ts" },
  outdir: DIST,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.15",
  external: ["ignore"],
  define: { "import.meta.url": "__workerCliUrl" },
  banner: { js: 'const __workerCliUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
  metafile: true,
  plugins: [englishOnly, workerCommandOnly],
});
const [workerFile, workerOutput] = Object.entries(worker.metafile.outputs)[0] ?? [];
const workerInputs = workerOutput?.inputs ?? {};
if (!("src/commands/worker.ts" in workerInputs) || "src/commands/export.ts" in workerInputs) {
  throw new Error("build: dist/worker-cli.cjs must hold the worker command and no other");
}
/**
 * V8's code cache of dist/worker-cli.cjs, as bin/ compiles it (the same wrapper, the same node flags:
 * a cache made otherwise is refused and the file compiled from its source; named for this node
 * binary, so that another node never reads it). Compiling the 0.8 MB file took some 25 ms of every confined worker's start.
 */
const cache = spawnSync(
  process.execPath,
  [
    ...WORKER_NODE_FLAGS,
    "--input-type=module",
    "-e",
    `import { writeFileSync } from "node:fs";
     import { codeCacheFile, compileWorker } from ${JSON.stringify(resolve(ROOT, "bin", "worker-cli.mjs"))};
     writeFileSync(codeCacheFile(process.argv[1]), compileWorker(process.argv[1]).createCachedData());`,
    resolve(ROOT, workerFile),
  ],
  { stdio: "inherit" },
);
if (cache.status !== 0) throw new Error("build: the worker's code cache could not be made");
const outputs = { ...result.metafile.outputs, ...worker.metafile.outputs };
const [holder, ...others] = Object.entries(outputs).filter(([, output]) => PACKAGE_FILES in output.inputs);
if (
  !holder ||
  others.length > 1 ||
  [holder, ...others].some(([file]) => dirname(resolve(ROOT, file)) !== DIST)
) {
  throw new Error(`build: ${PACKAGE_FILES} must be bundled into files directly in dist/`);
}
// zod's code ships inside dist/: its licence goes with it.
copyFileSync(resolve(ROOT, "node_modules", "zod", "LICENSE"), resolve(DIST, "zod.LICENSE"));
// The build's id: a digest of every file it wrote (esbuild's output is deterministic, so the same
// sources give the same id). Cached verdicts are keyed by it beside the version, so a build of the
// same version with other rules or other words never answers with the old ones (src/version.ts).
const digest = createHash("sha256");
for (const file of Object.keys(outputs).sort()) {
  digest
    .update(`${file}\0`)
    .update(readFileSync(resolve(ROOT, file)))
    .update("\0");
}
writeFileSync(
  resolve(DIST, "build.json"),
  `${JSON.stringify({ build: digest.digest("hex").slice(0, 16) })}\n`,
);
