// `npm run bench`: every speed and memory target, measured side by side in one run on this machine.
// Prints ratios against the baseline each target names. Not part of `npm test`.
//   node bench/run.mjs [section...]     sections: startup hook scan export review rss unpack transport
//                                       import fanout (all when none is named)
//   BENCH_RUNS=N                        runs of each side of a ratio (interleaved; medians and ranges)
//   BENCH_RANGE_REPO=<dir>              the range review and its RSS on a real repository too (its last 3 commits)
//   BENCH_BIN=<bin/git-review-remote.js> another build of the tool (before/after comparisons)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { addCommits, env, generateRepo } from "./generate.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = resolve(process.env.BENCH_BIN ?? join(ROOT, "bin", "git-review-remote.js"));
const WORK = join(tmpdir(), "review-remote-bench");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECTIONS = process.argv.slice(2);
const wanted = (section) => SECTIONS.length === 0 || SECTIONS.includes(section);
/** Where the raw pipe unpacks: tmpfs, as the worker does. */
const SHM = statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() ? "/dev/shm" : tmpdir();

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
function detail(text) {
  rows.push(`  ${text}`);
  console.log(`  ${text}`);
}
const x = (ratio) => `${ratio.toFixed(2)}x`;

/** One run of a shell command: wall seconds (hrtime), CPU seconds of it and its children, peak RSS (MB). */
function runOnce(command, { cwd = WORK, environment = process.env, after } = {}) {
  const out = join(WORK, "time.out");
  const start = process.hrtime.bigint();
  const result = spawnSync("/usr/bin/time", ["-f", "%U %S %M", "-o", out, "sh", "-c", command], {
    cwd,
    env: environment,
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 30,
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  const [user, system, kb] = readFileSync(out, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
  after?.();
  return { wall, cpu: user + system, rss: kb / 1024 };
}

/**
 * Both sides of a ratio, run alternately (ours first, then the baseline, `runs` times), so that
 * whatever else the machine is doing weighs on both alike. Medians, ranges and CPU time.
 */
function interleave(ours, baseline, { runs = RUNS, ...options } = {}) {
  const samples = { ours: [], baseline: [] };
  for (let i = 0; i < runs; i++) {
    samples.ours.push(runOnce(ours, options.ours ?? options));
    samples.baseline.push(runOnce(baseline, options.baseline ?? options));
  }
  const summary = (list) => ({
    wall: median(list.map((sample) => sample.wall)),
    min: Math.min(...list.map((sample) => sample.wall)),
    max: Math.max(...list.map((sample) => sample.wall)),
    cpu: median(list.map((sample) => sample.cpu)),
    rss: Math.max(...list.map((sample) => sample.rss)),
  });
  return { ours: summary(samples.ours), baseline: summary(samples.baseline) };
}

const seconds = (value) => (value === undefined ? "n/a" : `${value.toFixed(2)}s`);

/** The ratio of the medians with the two times it came from; ranges and CPU on the line below. */
function reportRatio(name, { ours, baseline }, target) {
  report(
    name,
    `${x(ours.wall / baseline.wall)} (${seconds(ours.wall)} vs ${seconds(baseline.wall)})`,
    target,
  );
  const range = (side) => `${seconds(side.min)}-${seconds(side.max)}`;
  detail(
    `ranges ${range(ours)} vs ${range(baseline)} (${RUNS} runs each, interleaved); ` +
      `cpu ${x(ours.cpu / baseline.cpu)} (${seconds(ours.cpu)} vs ${seconds(baseline.cpu)})`,
  );
}

function withBin(e) {
  const dir = join(WORK, "bin");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "git-review-remote"), `#!/bin/sh\nexec "${BIN}" "$@"\n`, { mode: 0o755 });
  return { ...e, PATH: `${dir}:${process.env.PATH}` };
}

function syntheticRepo(files) {
  const dir = join(WORK, `repo-${files}`);
  if (!existsSync(join(dir, ".git"))) generateRepo(dir, { files });
  return { dir, e: withBin(env(dir)) };
}

/** Forgets the bundles a repo's exports stored, so that the next export is built (cold). */
function forgetExports(dir) {
  rmSync(join(dir, ".git", "review-remote"), { recursive: true, force: true });
}

function benchExport(label, files) {
  const { dir, e } = syntheticRepo(files);
  forgetExports(dir);
  const baseline = "git archive --format=tar HEAD | gzip -4 > /dev/null";
  const measured = interleave("git review-remote export -q > /dev/null", baseline, {
    ours: { cwd: dir, environment: e, after: () => forgetExports(dir) },
    baseline: { cwd: dir, environment: e },
  });
  reportRatio(`export vs git archive | gzip -4 (${label})`, measured, "<= 1.1x (with the scan)");
  report(`export peak RSS (${label})`, `${measured.ours.rss.toFixed(0)} MB`, "<= 120 MB");
  // The least any export in node costs: the same pipe through node's gzip, with nothing else.
  const floorOut = join(WORK, "floor.tar.gz");
  const floor = interleave(`node ${join(ROOT, "bench", "export-floor.mjs")} ${floorOut}`, baseline, {
    cwd: dir,
    environment: e,
  });
  rmSync(floorOut, { force: true });
  reportRatio(`  floor: git archive | node's gzip, nothing else (${label})`, floor, "(no target)");
  // The same commit and policy again (a second worker, question or retry): the stored bundle, checked.
  runOnce("git review-remote export -q > /dev/null", { cwd: dir, environment: e });
  const warm = interleave("git review-remote export -q > /dev/null", baseline, { cwd: dir, environment: e });
  reportRatio(`  warm: stored bundle reused (${label})`, warm, "(no target)");
  forgetExports(dir);
}

/** A clone of a synthetic repo with three small commits on top: the range HEAD~3..HEAD. */
function rangeRepo(files) {
  const source = syntheticRepo(files).dir;
  const dir = join(WORK, `range-${files}`);
  if (!existsSync(join(dir, ".git"))) {
    execFileSync("git", ["clone", "-q", source, dir], { env: env(dir) });
    addCommits(dir, 3);
  }
  return { dir, e: withBin(env(dir)) };
}

/** `git archive HEAD | gzip -4 | gzip -d | tar x` into a fresh tmpfs dir: the bytes of a review, moved. */
function rawPipe(target) {
  return `mkdir ${target} && git archive HEAD | gzip -4 | gzip -d | tar x -C ${target}`;
}

function benchRangeReview(label, dir, e) {
  const target = join(SHM, "review-remote-bench-raw");
  rmSync(target, { recursive: true, force: true });
  const clean = () => rmSync(target, { recursive: true, force: true });
  const measured = interleave("git review-remote HEAD~3..HEAD --no-cache -q", rawPipe(target), {
    ours: { cwd: dir, environment: e },
    baseline: { cwd: dir, environment: e, after: clean },
  });
  reportRatio(
    `range review (${label}) vs git archive | gzip -4 | gzip -d | tar x`,
    measured,
    "<= 2.5x (stretch 2x)",
  );
}

/** The full review of a ~200-file repo against `--version`: what a person waits for beyond start-up. */
function benchSmallReview() {
  const dir = join(WORK, "small-200");
  if (!existsSync(join(dir, ".git"))) generateRepo(dir, { files: 200, seed: 11 });
  const e = withBin(env(dir));
  const walls = { ours: [], version: [] };
  for (let i = 0; i < Math.max(11, RUNS); i++) {
    walls.ours.push(
      timeMany("git", ["review-remote", "HEAD", "--no-cache", "-q"], { cwd: dir, environment: e, runs: 1 }),
    );
    walls.version.push(timeMany(BIN, ["--version"], { runs: 1 }));
  }
  const ours = median(walls.ours);
  const version = median(walls.version);
  report(
    "full review of a 200-file repo vs --version",
    `${x(ours / version)} (${ours.toFixed(0)} vs ${version.toFixed(0)} ms)`,
    "<= 5x",
  );
  const range = (list) => `${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)} ms`;
  detail(
    `ranges ${range(walls.ours)} vs ${range(walls.version)} (${walls.ours.length} runs each, interleaved)`,
  );
}

/** Peak RSS of the local process and of the worker in one range review (their own debug lines). */
function benchReviewRss(label, dir, e) {
  const peaks = { local: [], worker: [] };
  for (let i = 0; i < RUNS; i++) {
    const run = spawnSync("git", ["review-remote", "HEAD~3..HEAD", "--no-cache"], {
      cwd: dir,
      env: { ...e, REVIEW_REMOTE_DEBUG: "1" },
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`review failed: ${run.stderr.slice(-500)}`);
    const peak = (prefix) =>
      Number(
        new RegExp(`^${prefix}debug: [^\\n]*exit maxrss=(\\d+)MB`, "m").exec(run.stderr)?.[1] ?? Number.NaN,
      );
    peaks.local.push(peak(""));
    peaks.worker.push(peak("remote: "));
  }
  // Peak RSS moves with when the collector runs: the highest of the runs, and the lowest beside it.
  const side = (list) => `${Math.max(...list)} MB (${Math.min(...list)}-${Math.max(...list)})`;
  report(
    `range review peak RSS (${label}): local process, worker`,
    `${side(peaks.local)}, ${side(peaks.worker)}`,
    "<= 120 MB each, flat",
  );
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
  // Piped stderr: the hook's own line would land in the middle of the table.
  const run = (args, input) =>
    execFileSync("git", args, { cwd: dir, env: e, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
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
  // The scan's summary lines, not a rule of its table whose name holds "most" (mattermost-...).
  for (const line of out.split("\n").filter((line) => line.startsWith("costliest rule"))) {
    console.log(`  ${line.trim()}`);
  }
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
    `worker unpack (${label}) vs tar xzf to tmpfs`,
    `${x(out.workerMs / out.tarMs)} (${out.workerMs} vs ${out.tarMs} ms)`,
    "<= 1.3x",
  );
  detail(
    `the built-in reviewer's unpack (no blob ids); with them, for a reviewer command: ` +
      `${x(out.workerBlobIdsMs / out.tarMs)} (${out.workerBlobIdsMs} ms)`,
  );
  const rss = measure(`node ${script} ${json.path} --runs=1 --blob-ids=no`, { runs: 1 });
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
  // ~0.1 s: timed in-process over many runs (GNU time's 10 ms steps would swing the ratio by 0.2x).
  const rawMs = timeMany(
    "sh",
    [
      "-c",
      `export GIT_INDEX_FILE=${WORK}/raw-index; git read-tree HEAD && git apply --cached ${patchFile} && ` +
        `t=$(git write-tree) && c=$(git commit-tree $t -p HEAD -m raw) && git update-ref refs/bench/raw-$$ $c`,
    ],
    { cwd: dir, environment: e },
  );
  const raw = { wall: rawMs / 1000 };
  const walls = [];
  const stages = [];
  for (let i = 0; i < Math.max(RUNS, 11); i++) {
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
    `${x(stage / raw.wall)} (${(stage * 1000).toFixed(0)} vs ${rawMs.toFixed(0)} ms)`,
    "<= 2x",
  );
  report("  the same through the CLI, start-up included", `${x(ours / raw.wall)} (${ours.toFixed(2)}s)`, "");
}

/** Times (s) and CPU of one fan-out run's processes, from their debug lines (each counts from its own start). */
function fanOutStages(stderr) {
  const local = {};
  const workers = new Map();
  for (const line of stderr.split("\n")) {
    const match = /^(?:remote(?:\[([^\]]+)\])?: )?debug: ([\d.]+)s rss=\d+MB (.*)$/.exec(line);
    if (!match) continue;
    const [, name, time, message] = match;
    const at = Number(time);
    const cpu = Number(/ cpu=([\d.]+)s/.exec(message)?.[1] ?? Number.NaN);
    const remote = line.startsWith("remote");
    if (!remote) {
      if (message.startsWith("export: archived")) local.exported = at;
      else if (message.startsWith("send: to worker")) local.lastSend = at;
      else if (message.startsWith("validate: ")) local.firstAnswer ??= at;
      else if (message.startsWith("import: done")) local.lastImport = at;
      else if (message.startsWith("exit ")) Object.assign(local, { exit: at, cpu });
      continue;
    }
    const key = name ?? "";
    if (!workers.has(key)) workers.set(key, { cpu: 0, processes: 0 });
    const worker = workers.get(key);
    if (message.startsWith("worker: request ")) worker.read = at;
    else if (message.startsWith("worker: unpacked")) worker.unpacked = at;
    else if (message.startsWith("worker: reviewer done")) worker.reviewed = at;
    else if (message.startsWith("exit ")) {
      // The worker's own process exits first; `git review-remote worker` around it (which made its
      // namespaces) after it. Both are the worker's CPU.
      worker.exit ??= at;
      worker.commandExit = at;
      worker.cpu += cpu;
      worker.processes++;
    }
  }
  return { local, workers: [...workers.values()] };
}

/** CPU seconds the whole machine has spent busy (every process, ours and others'), from /proc/stat. */
function machineBusy() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** One `git review-remote --no-cache` to the first `count` of w1..w4: wall, local peak RSS, stages. */
function fanOutRun(dir, e, count) {
  const workers = Array.from({ length: count }, (_, i) => ["--worker", `w${i + 1}`]).flat();
  const busy = machineBusy();
  const start = process.hrtime.bigint();
  const result = spawnSync("git", ["review-remote", "--no-cache", ...workers], {
    cwd: dir,
    env: { ...e, REVIEW_REMOTE_DEBUG: "1" },
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  // How many cores were busy meanwhile, with this run's processes or anyone else's.
  const cores = (machineBusy() - busy) / wall;
  if (result.status !== 0) throw new Error(`fan-out to ${count} failed: ${result.stderr.slice(-500)}`);
  // The local process's own peak (its debug line), not its workers'.
  const rss = Number(/^debug: [^\n]*exit maxrss=(\d+)MB/m.exec(result.stderr)?.[1]);
  return { wall, rss, cores, ...fanOutStages(result.stderr) };
}

function benchFanOut(dir, e) {
  const local = `'${process.execPath}' '${BIN}' worker --sandbox=auto`;
  for (let i = 1; i <= 4; i++) {
    execFileSync("git", ["config", `review-remote.w${i}.command`, local], { cwd: dir, env: e });
  }
  const runs = { one: [], four: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.one.push(fanOutRun(dir, e, 1));
    runs.four.push(fanOutRun(dir, e, 4));
  }
  // The CPU of the run's node processes (their debug lines): git's and the kernel's are not in it.
  const cpuOf = (run) => run.local.cpu + run.workers.reduce((sum, worker) => sum + worker.cpu, 0);
  const summary = (list) => ({
    wall: median(list.map((run) => run.wall)),
    min: Math.min(...list.map((run) => run.wall)),
    max: Math.max(...list.map((run) => run.wall)),
    cpu: median(list.map(cpuOf)),
  });
  reportRatio(
    "fan-out: 4 local workers vs 1 (wall)",
    { ours: summary(runs.four), baseline: summary(runs.one) },
    "<= 1.6x",
  );
  const peak = (list) => Math.max(...list.map((run) => run.rss));
  const peaks = (list) => `${Math.min(...list.map((run) => run.rss))}-${peak(list)}`;
  report(
    "fan-out: local process peak RSS, 4 workers vs 1",
    `${peak(runs.four)} MB vs ${peak(runs.one)} MB (${peaks(runs.four)} vs ${peaks(runs.one)})`,
    "flat",
  );
  // Where the wall goes, medians over the runs (and, for a worker's, over the workers of a run too).
  const at = (list, pick) => median(list.map(pick).filter((value) => !Number.isNaN(value)));
  const everyWorker = (list) => list.flatMap((run) => run.workers);
  const stages = (label, list) => {
    const workers = everyWorker(list);
    detail(
      `${label} local: export ${seconds(at(list, (r) => r.local.exported))}, ` +
        `then last worker started ${seconds(at(list, (r) => r.local.lastSend - r.local.exported))}, ` +
        `first answer ${seconds(at(list, (r) => r.local.firstAnswer - r.local.exported))}, ` +
        `last import ${seconds(at(list, (r) => r.local.lastImport - r.local.exported))}, ` +
        `exit ${seconds(at(list, (r) => r.local.exit))}; own cpu ${seconds(at(list, (r) => r.local.cpu))}`,
    );
    detail(
      `${label} each worker: start and read ${seconds(at(workers, (w) => w.read))}, ` +
        `unpack ${seconds(at(workers, (w) => w.unpacked - w.read))}, ` +
        `review ${seconds(at(workers, (w) => w.reviewed - w.unpacked))}, ` +
        `exit ${seconds(at(workers, (w) => w.exit))} (its command ${seconds(at(workers, (w) => w.commandExit))}); ` +
        `cpu ${seconds(at(workers, (w) => w.cpu))} in ${at(workers, (w) => w.processes)} node processes`,
    );
    // A run of four needs both cores: one taken by someone else slows it far more than a run of one.
    detail(
      `${label} cores busy on the machine meanwhile: ${at(list, (r) => r.cores).toFixed(2)}, ` +
        `of them this run's node processes ${at(list, (r) => cpuOf(r) / r.wall).toFixed(2)} (its git and kernel work, and anyone else's, the rest)`,
    );
  };
  stages("1:", runs.one);
  stages("4:", runs.four);
  // The least four workers can take on this machine: the export, done once, then four times one
  // worker's CPU over its cores (or one worker's wall, if longer), then the local tail. A little low:
  // a worker's git and kernel work (its tmpfs) are not in its CPU.
  const cores = availableParallelism();
  const one = summary(runs.one);
  const exported = at(runs.one, (r) => r.local.exported);
  const answered = at(runs.one, (r) => r.local.lastImport - r.local.exported);
  const tail = at(runs.one, (r) => r.local.exit - r.local.lastImport);
  const workerCpu = at(everyWorker(runs.one), (w) => w.cpu);
  const floor = exported + Math.max(answered, (4 * workerCpu) / cores) + tail;
  report(
    `  floor: 4 x one worker's cpu on ${cores} cores after one export`,
    `${x(floor / one.wall)} (${seconds(floor)} vs ${seconds(one.wall)})`,
    "(no target)",
  );
}

mkdirSync(WORK, { recursive: true });
console.log(`${"benchmark".padEnd(58)} ${"measured".padEnd(34)} target`);
if (wanted("startup") || wanted("hook")) {
  const version = benchStartup();
  if (wanted("hook")) benchHook(version);
}
if (wanted("scan")) benchScan();
if (wanted("review")) {
  const big = rangeRepo(20000);
  benchRangeReview("20k files", big.dir, big.e);
  const real = process.env.BENCH_RANGE_REPO;
  if (real) benchRangeReview(basename(resolve(real)), resolve(real), withBin(env(resolve(real))));
  benchSmallReview();
}
if (wanted("rss")) {
  for (const files of [5000, 20000]) {
    const repo = rangeRepo(files);
    benchReviewRss(`${files / 1000}k files`, repo.dir, repo.e);
  }
  const real = process.env.BENCH_RANGE_REPO;
  if (real) benchReviewRss(basename(resolve(real)), resolve(real), withBin(env(resolve(real))));
}
if (wanted("export")) {
  benchExport("5k files", 5000);
  benchExport("20k files", 20000);
}
const small = syntheticRepo(5000);
const big = syntheticRepo(20000);
if (wanted("unpack")) {
  benchWorkerUnpack("5k files", small.dir, small.e);
  benchWorkerUnpack("20k files", big.dir, big.e);
}
if (wanted("transport")) await benchTransport(big.dir, big.e);
if (wanted("import")) benchImport(big.dir, big.e);
if (wanted("fanout")) benchFanOut(big.dir, big.e);
writeFileSync(join(WORK, "results.txt"), `${rows.join("\n")}\n`);
