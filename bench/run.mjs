// `npm run bench`: every speed and memory target, measured side by side in one run on this machine.
// Prints ratios against the baseline each target names. Not part of `npm test`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { env, generateRepo } from "./generate.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "git-review-remote.js");
const WORK = join(tmpdir(), "review-remote-bench");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall seconds and peak RSS (MB) of a command, with GNU time; the median of `runs` runs. */
function measure(command, { cwd = WORK, environment = process.env, runs = RUNS, input } = {}) {
  const walls = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const out = join(WORK, "time.out");
    const result = spawnSync("/usr/bin/time", ["-f", "%e %M", "-o", out, "sh", "-c", command], {
      cwd,
      env: environment,
      input,
      stdio: [input === undefined ? "ignore" : "pipe", "ignore", "pipe"],
      maxBuffer: 1 << 30,
    });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
    const [wall, kb] = readFileSync(out, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
    walls.push(wall);
    rss.push(kb / 1024);
  }
  return { wall: median(walls), rss: Math.max(...rss) };
}

/** Many fast runs timed in-process (start-up is ~0.1 s; /usr/bin/time has 10 ms resolution). */
function timeMany(file, args, { cwd = WORK, environment = process.env, runs = 21, input } = {}) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(file, args, {
      cwd,
      env: environment,
      input,
      stdio: [input === undefined ? "ignore" : "pipe", "ignore", "pipe"],
    });
    if (result.status !== 0) throw new Error(`${file} ${args.join(" ")} failed: ${result.stderr}`);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const rows = [];
function report(name, value, target) {
  const line = `${name.padEnd(58)} ${value.padEnd(34)} ${target}`;
  rows.push(line);
  console.log(line);
}
const x = (ratio) => `${ratio.toFixed(2)}x`;

function withBin(e) {
  const dir = join(WORK, "bin");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "git-review-remote"), `#!/bin/sh\nexec "${BIN}" "$@"\n`, { mode: 0o755 });
  return { ...e, PATH: `${dir}:${process.env.PATH}` };
}

function benchExport(label, files) {
  const dir = join(WORK, `repo-${files}`);
  if (!existsSync(join(dir, ".git"))) generateRepo(dir, { files });
  const e = withBin(env(dir));
  const baseline = measure("git archive --format=tar HEAD | gzip -6 > /dev/null", {
    cwd: dir,
    environment: e,
  });
  const ours = measure("git review-remote export -q > /dev/null", { cwd: dir, environment: e });
  report(
    `export vs git archive | gzip -6 (${label})`,
    `${x(ours.wall / baseline.wall)} (${ours.wall.toFixed(2)}s vs ${baseline.wall.toFixed(2)}s)`,
    "<= 1.5x (with the scan)",
  );
  report(`export peak RSS (${label})`, `${ours.rss.toFixed(0)} MB`, "<= 120 MB");
  return { dir, e };
}

function benchStartup() {
  const node = timeMany("node", ["-e", "0"]);
  const version = timeMany(BIN, ["--version"]);
  report(
    "git-review-remote --version vs node -e 0",
    `${x(version / node)} (${version.toFixed(0)} vs ${node.toFixed(0)} ms)`,
    "<= 1.5x",
  );
  return version;
}

function benchHook(versionMs) {
  const dir = join(WORK, "hook-repo");
  rmSync(dir, { recursive: true, force: true });
  generateRepo(dir, { files: 200, seed: 7 });
  const e = withBin(env(dir));
  const run = (args, input) => execFileSync("git", args, { cwd: dir, env: e, input, encoding: "utf8" });
  const head = run(["rev-parse", "HEAD"]).trim();
  writeFileSync(join(dir, "extra.ts"), "export const extra = 1;\n");
  run(["add", "-A"]);
  run(["commit", "-q", "-m", "extra"]);
  const tip = run(["rev-parse", "HEAD"]).trim();
  const stdin = `refs/heads/main ${tip} refs/heads/main ${head}\n`;
  run(["review-remote", "hook", "pre-push", "origin", "url"], stdin); // first push: the review is stored
  const hook = timeMany(BIN, ["hook", "pre-push", "origin", "url"], {
    cwd: dir,
    environment: e,
    input: stdin,
  });
  report(
    "hook re-push of a reviewed commit vs --version",
    `${x(hook / versionMs)} (${hook.toFixed(0)} ms)`,
    "<= 2x",
  );
}

function benchScan() {
  const out = execFileSync("node", [join(ROOT, "bench", "scan.mjs")], { encoding: "utf8" });
  const mbps = /([\d.]+) MB\/s/.exec(out)?.[1];
  report("content scan alone", `${mbps ?? "?"} MB/s`, ">= 100 MB/s");
  const costly = out.split("\n").find((line) => /most/i.test(line));
  if (costly) console.log(`  ${costly.trim()}`);
}

function benchWorkerUnpack(label, dir, e) {
  const json = JSON.parse(
    execFileSync("git", ["review-remote", "export", "--json", "-q"], { cwd: dir, env: e, encoding: "utf8" }),
  );
  const script = join(ROOT, "bench", "worker-unpack.mjs");
  if (!existsSync(script))
    return report("worker unpack", "not measured (bench/worker-unpack.mjs missing)", "<= 1.3x tar xzf");
  const out = JSON.parse(execFileSync("node", [script, json.path, "--runs=5"], { encoding: "utf8" }));
  report(
    `worker unpack (${label}, sandbox ${out.sandbox}) vs tar xzf to tmpfs`,
    `${x(out.workerMs / out.tarMs)} (${out.workerMs} vs ${out.tarMs} ms)`,
    "<= 1.3x",
  );
  const rss = measure(`node ${script} ${json.path} --runs=1`, { runs: 1 });
  report(`worker unpack peak RSS (${label})`, `${rss.rss.toFixed(0)} MB`, "flat in bundle size");
}

async function benchTransport(dir, e) {
  const { startSshd } = await import("../test/helpers/sshd.mjs");
  const sshd = await startSshd();
  if ("reason" in sshd) return report("transport vs raw ssh cat", `not measured: ${sshd.reason}`, "<= 1.1x");
  try {
    const json = JSON.parse(
      execFileSync("git", ["review-remote", "export", "--json", "-q"], {
        cwd: dir,
        env: e,
        encoding: "utf8",
      }),
    );
    const out = JSON.parse(
      execFileSync("node", [join(ROOT, "bench", "transport.mjs"), json.path, sshd.config], {
        encoding: "utf8",
      }),
    );
    report(
      `transport vs raw ssh cat (${(out.bytes / 1048576).toFixed(0)} MB bundle)`,
      `${x(out.ours / out.raw)} (${out.ours.toFixed(0)} vs ${out.raw.toFixed(0)} ms)`,
      "<= 1.1x",
    );
  } finally {
    sshd.stop();
  }
}

/** A one-commit result touching 500 files, imported, against the raw plumbing that applies it. */
function benchImport(dir, e) {
  const git = (args, options = {}) =>
    execFileSync("git", args, { cwd: dir, env: e, encoding: "utf8", ...options });
  const files = git(["ls-files", "*.ts"]).split("\n").filter(Boolean).slice(0, 500);
  for (const file of files)
    writeFileSync(join(dir, file), `${readFileSync(join(dir, file), "utf8")}// reviewed\n`);
  const patch = git(["diff", "--no-color", "HEAD"]);
  git(["checkout", "--", "."]);
  const patchFile = join(WORK, "import.patch");
  writeFileSync(patchFile, patch);
  git(["config", "review-remote.offline.command", "cat > /dev/null; exit 1"]);
  const raw = measure(
    `export GIT_INDEX_FILE=${WORK}/raw-index; git read-tree HEAD && git apply --cached ${patchFile} && ` +
      `t=$(git write-tree) && c=$(git commit-tree $t -p HEAD -m raw) && git update-ref refs/bench/raw-$$ $c`,
    { cwd: dir, environment: e },
  );
  const walls = [];
  const stages = [];
  for (let i = 0; i < RUNS; i++) {
    spawnSync("git", ["review-remote", "--worker", "offline", "--no-cache", "-q"], { cwd: dir, env: e });
    const records = join(dir, ".git", "review-remote", "reviews");
    const id = execFileSync("ls", ["-t", records], { encoding: "utf8" }).split("\n")[0];
    const request = JSON.parse(readFileSync(join(records, id, "request.json"), "utf8"));
    const result = join(WORK, "import-result.json");
    writeFileSync(
      result,
      JSON.stringify({
        schema: "git-review-remote/result@1",
        requestId: request.id,
        bundleSha256: request.bundle.sha256,
        status: "ok",
        summary: "500 files",
        worker: { name: "bench", version: "1", sandbox: "none" },
        comments: [],
        commits: [{ message: "Touch 500 files", patch }],
      }),
    );
    const start = process.hrtime.bigint();
    const run = spawnSync("git", ["review-remote", "import", result, "--request", id, "-q"], {
      cwd: dir,
      env: { ...e, REVIEW_REMOTE_DEBUG: "1" },
      encoding: "utf8",
    });
    walls.push(Number(process.hrtime.bigint() - start) / 1e9);
    // The stage itself, without the CLI's start-up: from the result read to the branch created.
    const at = (label) => Number(new RegExp(`debug: ([\\d.]+)s [^\\n]*${label}`).exec(run.stderr)?.[1]);
    stages.push(at("import: done") - at("validate: "));
  }
  const ours = median(walls);
  const stage = median(stages);
  report(
    "import of a 500-file result (validate + import) vs raw plumbing",
    `${x(stage / raw.wall)} (${stage.toFixed(2)}s vs ${raw.wall.toFixed(2)}s)`,
    "<= 2x",
  );
  report("  the same through the CLI, start-up included", `${x(ours / raw.wall)} (${ours.toFixed(2)}s)`, "");
}

function benchFanOut(dir, e) {
  const local = `'${process.execPath}' '${BIN}' worker --sandbox=auto`;
  for (let i = 1; i <= 4; i++) {
    execFileSync("git", ["config", `review-remote.w${i}.command`, local], { cwd: dir, env: e });
  }
  const run = (count) => {
    const workers = Array.from({ length: count }, (_, i) => ["--worker", `w${i + 1}`]).flat();
    const start = process.hrtime.bigint();
    const result = spawnSync("git", ["review-remote", "--no-cache", "-q", ...workers], {
      cwd: dir,
      env: { ...e, REVIEW_REMOTE_DEBUG: "1" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`fan-out to ${count} failed: ${result.stderr.slice(-500)}`);
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    // The local process's own peak (debug line), not its workers'.
    const rss = Number(/exit maxrss=(\d+)MB/.exec(result.stderr)?.[1]);
    return { wall, rss };
  };
  const one = run(1);
  const four = run(4);
  report(
    "fan-out: 4 local workers vs 1 (wall)",
    `${x(four.wall / one.wall)} (${four.wall.toFixed(1)}s vs ${one.wall.toFixed(1)}s)`,
    "<= 1.6x",
  );
  report("fan-out: local process peak RSS, 4 workers vs 1", `${four.rss} MB vs ${one.rss} MB`, "flat");
}

mkdirSync(WORK, { recursive: true });
console.log(`${"benchmark".padEnd(58)} ${"measured".padEnd(34)} target`);
const version = benchStartup();
benchHook(version);
benchScan();
const small = benchExport("5k files", 5000);
const big = benchExport("20k files", 20000);
benchWorkerUnpack("5k files", small.dir, small.e);
benchWorkerUnpack("20k files", big.dir, big.e);
await benchTransport(big.dir, big.e);
benchImport(big.dir, big.e);
benchFanOut(big.dir, big.e);
writeFileSync(join(WORK, "results.txt"), `${rows.join("\n")}\n`);
