// Transport overhead: the same bundle through runTransport and through a raw `ssh ... cat` pipe.
// Usage: node bench/transport.mjs <bundle> <ssh_config>
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { runTransport } from "../dist/pipeline/transport.js";

const [bundle, config] = process.argv.slice(2);
const bytes = statSync(bundle).size;
const remote = "cat > /dev/null; echo '{}'";
const ssh = `ssh -F '${config}' worker "${remote}"`;

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

const raw = [];
const ours = [];
for (let i = 0; i < 5; i++) {
  let start = performance.now();
  const piped = spawnSync("sh", ["-c", `cat '${bundle}' | ${ssh}`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (piped.status !== 0) throw new Error("raw ssh pipe failed");
  raw.push(performance.now() - start);
  start = performance.now();
  await runTransport({
    command: ssh,
    workerName: "bench",
    cwd: process.cwd(),
    env: process.env,
    header: Buffer.from("{}\n"),
    bundlePath: bundle,
    bundleBytes: bytes,
    maxResultBytes: 1 << 20,
    timeoutSeconds: 600,
    onStderrLine: () => undefined,
  });
  ours.push(performance.now() - start);
}
console.log(JSON.stringify({ bytes, raw: median(raw), ours: median(ours) }));
