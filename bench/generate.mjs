// Deterministic synthetic repositories for the benchmarks: source-like text in nested directories,
// a few binary files, one commit with a fixed identity and date. Same arguments, same commit id.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WORDS = (
  "const let function return import export from class extends interface type async await if else for while " +
  "switch case break continue new this null undefined true false value result error config options request " +
  "response handler buffer stream promise resolve reject length index count total items map filter reduce"
).split(" ");

/** mulberry32: a tiny seeded PRNG, so every run builds the same bytes. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceText(random, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const indent = "  ".repeat(Math.floor(random() * 4));
    const count = 3 + Math.floor(random() * 9);
    const words = [];
    for (let i = 0; i < count; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
    const line = `${indent}${words.join(" ")};`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

export function env(home) {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_"))),
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
    GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
  };
}

/** A repo of `files` files averaging `averageBytes`, in `dir`. Returns the HEAD commit id. */
export function generateRepo(dir, { files = 20000, averageBytes = 3000, seed = 42 } = {}) {
  const random = prng(seed);
  mkdirSync(dir, { recursive: true });
  const e = env(dir);
  execFileSync("git", ["init", "-q", "-b", "main", dir], { env: e });
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`);
    mkdirSync(sub, { recursive: true });
    const bytes = Math.max(64, Math.floor(averageBytes * 2 * random()));
    if (i % 20 === 19) {
      const data = Buffer.alloc(bytes);
      for (let j = 0; j < bytes; j++) data[j] = Math.floor(random() * 256);
      writeFileSync(join(sub, `asset${i}.bin`), data);
    } else {
      writeFileSync(join(sub, `file${i}.ts`), sourceText(random, bytes));
    }
  }
  execFileSync("git", ["-c", "gc.auto=0", "add", "-A"], { cwd: dir, env: e });
  execFileSync("git", ["-c", "gc.auto=0", "commit", "-q", "-m", "synthetic"], { cwd: dir, env: e });
  return execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, env: e, encoding: "utf8" }).trim();
}

/**
 * `count` small commits on top of HEAD, each appending a line with trailing whitespace to one file
 * (the built-in reviewer proposes a fix): the range `HEAD~count..HEAD` of a range review.
 */
export function addCommits(dir, count = 3) {
  const e = env(dir);
  const git = (args) =>
    execFileSync("git", ["-c", "gc.auto=0", ...args], { cwd: dir, env: e, encoding: "utf8" });
  const files = git(["ls-files", "-z", "*.ts"]).split("\0").filter(Boolean);
  for (let i = 0; i < count; i++) {
    const file = join(dir, files[(i * 7919) % files.length]);
    writeFileSync(file, `export const change${i} = ${i};  \n`, { flag: "a" });
    git(["commit", "-q", "-a", "-m", `change ${i + 1}`]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, files] = process.argv.slice(2);
  console.log(generateRepo(dir, { files: Number(files ?? 20000) }));
}
