// Throughput of the credential content scan on ~50 MB of deterministic synthetic source text, and
// what each rule costs (cpu time with only that rule, minus the time with no rule at all), on that
// text and on 10 MB of keyword-dense text. Run: npm run build && node bench/scan.mjs [megabytes]
import { CONTENT_RULES } from "../dist/secrets/content-rules.js";
import { createContentScanner } from "../dist/secrets/scanner.js";

const MEGABYTES = Number(process.argv[2] ?? 50);
const CHUNK = 64 * 1024;

/** mulberry32: the same text on every run. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const pick = (items) => items[Math.floor(next() * items.length)];
const chars = (alphabet, length) => Array.from({ length }, () => pick(alphabet)).join("");
const HEX = "0123456789abcdef";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64 = `${ALNUM}+/`;
const WORDS = (
  "user item list value result data config options request response error message count index name " +
  "path file line node entry state event handler context buffer stream client server session cache " +
  "task disk mask access account key token schema parser format render update create delete start"
).split(" ");
const CAPS = ["Name", "Id", "Count", "Value", "Config", "Ref", "Key", "List", "Map", "Options", "Type"];
const ident = () => `${pick(WORDS)}${pick(CAPS)}`;

// Ordinary code at the keyword densities of real sources (counted on node_modules: a URL every
// ~1.6 KB, "password"/"secret" a few times per MB), plus lockfile hashes, UUIDs, git oids and CSS.
const COMMON = [
  () =>
    `  const ${ident()} = await ${pick(WORDS)}.get${pick(CAPS)}(${ident()}, { timeout: ${Math.floor(next() * 9000)} });`,
  () => `export function ${ident()}(${ident()}: string, ${ident()}: number): boolean {`,
  () => `  return ${ident()}.map((item) => item.${ident()} ?? defaultValue).filter(Boolean);`,
  () => `  if (!${ident()}) throw new Error(\`missing \${${ident()}} for ${pick(WORDS)} \${${ident()}}\`);`,
  () => `  for (const ${pick(WORDS)} of ${ident()}) ${ident()}.push(${pick(WORDS)}.${ident()});`,
  () =>
    `  // ${pick(WORDS)} the ${pick(WORDS)} before the ${pick(WORDS)} ${pick(WORDS)}s are ${pick(WORDS)}d`,
  () => `import { ${ident()}, ${ident()} } from "./${pick(WORDS)}/${pick(WORDS)}.js";`,
  () => "  }",
  () => "}",
  () => "",
];
const OCCASIONAL = [
  () => `  // see https://docs.example.com/${pick(WORDS)}/${pick(WORDS)}?page=${Math.floor(next() * 100)}`,
  () => `    "integrity": "sha512-${chars(B64, 86)}==",`,
  () => `  id: "${chars(HEX, 8)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 12)}",`,
  () => `  commit: "${chars(HEX, 40)}", // ${pick(WORDS)} Task for the ACCESS mask`,
  () => `.sk-spinner > .sk-${pick(WORDS)} { color: #${chars(HEX, 6)}; margin: 0 auto; }`,
  () => `  "type": "${pick(WORDS)}", "${ident()}": "${pick(WORDS)}",`,
];
const RARE = [
  () => `  password: process.env.${pick(["DB", "APP", "SMTP"])}_PASSWORD,`,
  () => `  const secretName = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:${ident()}";`,
];

function syntheticLine() {
  const roll = next();
  if (roll < 0.002) return pick(RARE)();
  if (roll < 0.05) return pick(OCCASIONAL)();
  return pick(COMMON)();
}

function syntheticFiles(totalBytes) {
  const files = [];
  let size = 0;
  while (size < totalBytes) {
    const lines = [];
    const target = 1024 + Math.floor(next() * 64 * 1024);
    let bytes = 0;
    while (bytes < target) {
      const line = syntheticLine();
      lines.push(line);
      bytes += line.length + 1;
    }
    const content = Buffer.from(`${lines.join("\n")}\n`, "latin1");
    files.push({ path: `src/module${files.length}.ts`, content });
    size += content.length;
  }
  return { files, size };
}

/** Keyword-dense text: each line has a rule keyword then token-like characters (many match in full). */
function denseFiles(totalBytes) {
  const keywords = CONTENT_RULES.flatMap((rule) => rule.keywords);
  const tails = [ALNUM, B64, HEX, `${ALNUM} =:"'/.-_`];
  const lines = [];
  let size = 0;
  while (size < totalBytes) {
    const line = `  value = "${pick(keywords)}${chars(pick(tails), 5 + Math.floor(next() * 60))}" ${pick(WORDS)}`;
    lines.push(line);
    size += line.length + 1;
  }
  const content = Buffer.from(`${lines.join("\n")}\n`, "latin1");
  const files = [];
  for (let offset = 0; offset < content.length; offset += 32 * 1024) {
    files.push({
      path: `src/dense${files.length}.ts`,
      content: content.subarray(offset, offset + 32 * 1024),
    });
  }
  return { files, size };
}

function scanAll(scanner, files) {
  let findings = 0;
  for (const file of files) {
    const scan = scanner.scanFile(file.path);
    for (let offset = 0; offset < file.content.length; offset += CHUNK) {
      scan.write(file.content.subarray(offset, offset + CHUNK));
    }
    findings += scan.end().length;
  }
  return findings;
}

/** Best of `runs`, as wall-clock and as CPU time (other processes on a busy machine inflate the first). */
function time(label, scanner, files, runs = 3) {
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  let findings = 0;
  for (let run = 0; run < runs; run++) {
    const start = process.hrtime.bigint();
    const usage = process.cpuUsage();
    findings = scanAll(scanner, files);
    const used = process.cpuUsage(usage);
    wall = Math.min(wall, Number(process.hrtime.bigint() - start) / 1e6);
    cpu = Math.min(cpu, (used.user + used.system) / 1000);
  }
  return { label, wall, cpu, findings };
}

const { files, size } = syntheticFiles(MEGABYTES * 1024 * 1024);
const megabytes = size / 1024 / 1024;
const oneFile = [{ path: "src/huge.ts", content: Buffer.concat(files.map((file) => file.content)) }];

const all = time("all rules", createContentScanner(), files);
const single = time("all rules, one file", createContentScanner(), oneFile);
const none = time("no rules", createContentScanner({ rules: [] }), files);
console.log(`scanned ${megabytes.toFixed(1)} MB in ${files.length} files (chunks of ${CHUNK / 1024} KiB)`);
const rate = (ms) => `${(megabytes / (ms / 1000)).toFixed(0).padStart(5)} MB/s`;
for (const result of [all, single, none]) {
  const times = `${result.wall.toFixed(0).padStart(6)} ms wall ${rate(result.wall)}`;
  console.log(
    `  ${result.label.padEnd(22)}${times}   ${result.cpu.toFixed(0).padStart(6)} ms cpu ${rate(result.cpu)}`,
  );
}
if (all.findings !== 0) console.log(`  (unexpected: ${all.findings} findings in the synthetic text)`);

/**
 * Per rule: cpu time with only that rule minus with none, in interleaved rounds, best of each, so
 * that a busy machine, a late JIT tier or a garbage collection does not land on one rule.
 */
function ruleCosts(files) {
  const candidates = [
    { id: "(none)", rules: [] },
    ...CONTENT_RULES.map((rule) => ({ id: rule.id, rules: [rule] })),
  ];
  const best = new Map();
  for (let round = 0; round < 3; round++) {
    // A different order each round, so that a periodic garbage collection does not hit one rule each time.
    const shift = Math.floor((round * candidates.length) / 3);
    for (const candidate of [...candidates.slice(shift), ...candidates.slice(0, shift)]) {
      const result = time(candidate.id, createContentScanner({ rules: candidate.rules }), files, 1);
      best.set(candidate.id, Math.min(best.get(candidate.id) ?? Number.POSITIVE_INFINITY, result.cpu));
    }
  }
  const baseline = best.get("(none)");
  return CONTENT_RULES.map((rule) => ({ id: rule.id, ms: Math.max(0, best.get(rule.id) - baseline) })).sort(
    (a, b) => b.ms - a.ms,
  );
}

const dense = denseFiles(10 * 1024 * 1024);
const ordinaryCosts = new Map(ruleCosts(files).map((cost) => [cost.id, cost.ms]));
const denseCosts = ruleCosts(dense.files);
console.log(
  "cost of each rule, ms of cpu (scan with only that rule minus scan with none; a few ms is noise):",
);
console.log(
  `  ${"rule".padEnd(28)} ${`${megabytes.toFixed(0)} MB ordinary`.padStart(14)} ${"10 MB keyword-dense".padStart(20)}`,
);
for (const cost of denseCosts) {
  const ordinary = ordinaryCosts.get(cost.id) ?? 0;
  console.log(
    `  ${cost.id.padEnd(28)} ${ordinary.toFixed(1).padStart(14)} ${cost.ms.toFixed(1).padStart(20)}`,
  );
}
const [costliest] = [...ordinaryCosts].sort((a, b) => b[1] - a[1]);
console.log(
  `costliest rule on ordinary text: ${costliest?.[0]} (${costliest?.[1].toFixed(1)} ms of ${all.cpu.toFixed(0)} ms)`,
);
console.log(
  `costliest rule where its keywords are frequent: ${denseCosts[0]?.id} (${denseCosts[0]?.ms.toFixed(1)} ms)`,
);
