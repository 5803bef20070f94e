// Worker unpack benchmark: validate the whole listing and write the tree in the same pass (one gunzip
// pass), against a bare `tar xzf` of the same bundle into tmpfs. Usage:
//   node bench/worker-unpack.mjs <bundle.tar.gz> [--runs=N]
// Needs `npm run build` (imports ../dist/worker/...). Prints one JSON line of medians in milliseconds.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyAndUnpack } from "../dist/worker/unpack.js";

const [bundle, ...flags] = process.argv.slice(2);
if (!bundle) {
  console.error("usage: node bench/worker-unpack.mjs <bundle.tar.gz> [--runs=N]");
  process.exit(2);
}
const option = (name, fallback) =>
  flags.find((flag) => flag.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const runs = Number(option("runs", "5"));
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
const samples = { worker: [], tar: [] };
try {
  for (let run = 0; run < runs; run++) {
    const tree = join(scratch, `tree-${run}`);
    samples.worker.push(await time(() => verifyAndUnpack(bundle, size, files, tree)));
    rmSync(tree, { recursive: true, force: true });
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
for (const [name, values] of Object.entries(samples)) result[`${name}Ms`] = Math.round(median(values));
console.log(JSON.stringify(result));
