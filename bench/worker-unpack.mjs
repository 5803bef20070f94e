// Worker unpack benchmark: validate the whole listing and write the tree in the same pass (one gunzip
// pass), against a bare `tar xzf` of the same bundle into tmpfs. Usage:
//   node bench/worker-unpack.mjs <bundle.tar.gz> [--runs=N] [--blob-ids=no]
// Needs `npm run build` (imports ../dist/worker/...). Prints one JSON line of medians in milliseconds:
// `workerMs` as the worker unpacks for its built-in reviewer (the writing thread started while the
// request is awaited, no blob ids), `workerBlobIdsMs` for a reviewer command (blob ids computed;
// not with --blob-ids=no, for the peak RSS of one worker's unpack).
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWritingThread, verifyAndUnpack } from "../dist/worker/unpack.js";

const [bundle, ...flags] = process.argv.slice(2);
if (!bundle) {
  console.error("usage: node bench/worker-unpack.mjs <bundle.tar.gz> [--runs=N]");
  process.exit(2);
}
const option = (name, fallback) =>
  flags.find((flag) => flag.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const runs = Number(option("runs", "5"));
const withBlobIds = option("blob-ids", "yes") !== "no";
const parent = statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() ? "/dev/shm" : tmpdir();
const size = statSync(bundle).size;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = async (fn) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const files = Number(
  execFileSync("sh", ["-c", 'tar -tvzf "$1" | grep -c "^[-l]"', "sh", bundle], { encoding: "utf8" }).trim(),
);
const scratch = mkdtempSync(join(parent, "rr-bench-unpack-"));
execFileSync("chmod", ["711", scratch]);
const samples = { worker: [], workerBlobIds: [], tar: [] };
/** One unpack into a fresh tree, its writing thread running before the clock starts. */
const unpack = async (tree, blobIds) => {
  const thread = startWritingThread(tree);
  // Unreferenced until the unpack takes it: nothing else keeps this process alive meanwhile.
  thread.ref();
  await once(thread, "online");
  const ms = await time(() => verifyAndUnpack(bundle, size, files, tree, { thread, blobIds }));
  rmSync(tree, { recursive: true, force: true });
  return ms;
};
try {
  for (let run = 0; run < runs; run++) {
    samples.worker.push(await unpack(join(scratch, `tree-${run}`), false));
    if (withBlobIds) samples.workerBlobIds.push(await unpack(join(scratch, `ids-${run}`), true));
    const plain = join(scratch, `plain-${run}`);
    samples.tar.push(
      await time(() => {
        execFileSync("mkdir", [plain]);
        execFileSync("tar", ["xzf", bundle, "-C", plain]);
      }),
    );
    rmSync(plain, { recursive: true, force: true });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const result = { bundle, bytes: size, files, on: parent, runs };
for (const [name, values] of Object.entries(samples))
  if (values.length > 0) result[`${name}Ms`] = Math.round(median(values));
console.log(JSON.stringify(result));
