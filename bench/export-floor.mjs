// What the export costs at the least in node: git archive piped through node's gzip (level 4, the
// export's buffer sizes) into a sha256 and a file, and nothing else: no listing, filter, tar
// inspection, manifest or content scan. Run in a repo; writes the gzip to the file named.
//   node bench/export-floor.mjs <output.tar.gz>
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";

const output = process.argv[2];
if (!output) {
  console.error("usage: node bench/export-floor.mjs <output.tar.gz>");
  process.exit(2);
}
const hash = createHash("sha256");
const archive = spawn("git", ["archive", "--format=tar", "HEAD"], { stdio: ["ignore", "pipe", "inherit"] });
await pipeline(
  archive.stdout,
  createGzip({ level: 4, chunkSize: 256 * 1024, highWaterMark: 256 * 1024 }),
  new Transform({
    transform(chunk, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  }),
  createWriteStream(output),
);
hash.digest("hex");
