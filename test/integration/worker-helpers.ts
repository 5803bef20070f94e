// Shared by the worker tests: real repos, real `git archive | gzip -n` bundles, envelopes built with the
// protocol module, and the worker run in-process with stream objects against a private temp root.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { createRequest, type Request, type RequestFields } from "../../src/protocol/request.js";
import { envelopeHeader } from "../../src/protocol/request-line.js";
import { runWorker, type WorkerOptions } from "../../src/worker/flow.js";
import type { ReportFormat } from "../../src/worker/formats/types.js";
import { WORKSPACE_ROOT_ENV } from "../../src/worker/workspace.js";
import { BIN, createTestRepo, type TestRepo } from "../helpers/repo.js";

const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");
export const REVIEWERS = join(FIXTURES, "reviewers");
export const TARS = join(FIXTURES, "tars");

/** `git archive --format=tar HEAD | gzip -n`, as the export side sends it. */
function archiveRepo(repo: TestRepo, rev = "HEAD"): Buffer {
  const tar = execFileSync("git", ["archive", "--format=tar", rev], {
    cwd: repo.dir,
    env: repo.env,
    maxBuffer: 1 << 30,
  });
  return gzip(tar);
}

export function gzip(data: Buffer): Buffer {
  return execFileSync("gzip", ["-n", "-c"], { input: data, maxBuffer: 1 << 30 });
}

/** Regular files and symlinks in a tar+gzip bundle (what bundle.files counts). */
export function countFiles(bundle: Buffer): number {
  const listed = spawnSync("tar", ["-tvzf", "-"], { input: bundle, encoding: "utf8", maxBuffer: 1 << 30 });
  return listed.stdout.split("\n").filter((line) => /^[-l]/.test(line)).length;
}

export function makeRequest(bundle: Buffer, fields: Partial<RequestFields> = {}): Request {
  return createRequest({
    bundle: {
      sha256: createHash("sha256").update(bundle).digest("hex"),
      bytes: bundle.length,
      format: "tar+gzip",
      files: fields.bundle?.files ?? countFiles(bundle),
    },
    snapshot: { commit: "0".repeat(40), kind: "commit" },
    range: null,
    question: "Review this change for bugs and propose fixes.",
    actions: ["comment", "propose"],
    forbiddenPaths: [".github/**", ".husky/**", ".gitattributes", ".gitmodules"],
    limits: { ...DEFAULT_LIMITS },
    ...fields,
    ...(fields.bundle ? { bundle: fields.bundle } : {}),
  } as RequestFields);
}

export function envelope(request: Request, bundle: Buffer): Buffer {
  return Buffer.concat([envelopeHeader(request), bundle]);
}

/** Worker options for one reviewer command, with the fixture reviewers as the host's tools. */
export function reviewerCommand(
  command: string,
  format: ReportFormat = "comments",
): Pick<WorkerOptions, "reviewerCommands" | "tools"> {
  return { reviewerCommands: [{ command, format }], tools: [REVIEWERS] };
}

export interface WorkerRun {
  code: number;
  stdout: string;
  stderr: string;
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString("utf8");
}

/** Runs the worker in this process on `input`. */
export async function runWorkerOn(
  input: Buffer | Readable,
  options: Partial<Omit<WorkerOptions, "stdin" | "stdout" | "stderr">> = {},
): Promise<WorkerRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const stdin = Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const code = await runWorker({ sandbox: "auto", ...options, stdin, stdout, stderr });
  return { code, stdout: out(), stderr: err() };
}

/**
 * A private workspace root for one test file, removed after its tests; `leftovers()` lists what a run
 * left behind, `settled()` the same once a worker process's detached removal had time to finish (it
 * outlives the worker). With `emptyAfterEach`, every test must leave nothing behind in it (the
 * sandbox probe's scratch aside).
 */
export function useWorkspaceRoot(options: { emptyAfterEach?: boolean } = {}): {
  root: string;
  leftovers(): string[];
  settled(): Promise<string[]>;
} {
  const root = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "rr-worker-test-"));
  // The sandbox user must be able to reach the workspaces inside.
  chmodSync(root, 0o755);
  process.env[WORKSPACE_ROOT_ENV] = root;
  afterAll(() => {
    delete process.env[WORKSPACE_ROOT_ENV];
    rmSync(root, { recursive: true, force: true });
  });
  if (options.emptyAfterEach)
    afterEach(() => expect(readdirSync(root).filter((name) => !name.startsWith("probe-"))).toEqual([]));
  return {
    root,
    leftovers: () => readdirSync(root),
    async settled() {
      for (let i = 0; i < 200 && readdirSync(root).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return readdirSync(root);
    },
  };
}

export interface BundledRepo {
  repo: TestRepo;
  /** The commit `build` returned: the one the requests name. */
  snapshot: string;
  /** `git archive` of HEAD, as the export sends it. */
  bundle: Buffer;
  /** A request for the snapshot, with `fields` over the defaults. */
  request(fields?: Partial<RequestFields>): Request;
  /** Each proposed patch applied in order to a private index at the snapshot: the final tree. */
  applyProposals(patches: readonly string[]): string;
  /** A file's content in a tree of the repository, decoded as `encoding` (UTF-8 by default). */
  fileInTree(tree: string, path: string, encoding?: BufferEncoding): string;
}

/**
 * The repository a test file's worker reviews, made once before its tests: `build` writes and commits
 * it and returns the commit to review. Removed after the file's tests.
 */
export function useBundledRepo(build: (repo: TestRepo) => string): BundledRepo {
  const made: BundledRepo = {
    repo: undefined as unknown as TestRepo,
    snapshot: "",
    bundle: Buffer.alloc(0),
    request: (fields = {}) =>
      makeRequest(made.bundle, { snapshot: { commit: made.snapshot, kind: "commit" }, ...fields }),
    applyProposals(patches) {
      const { repo } = made;
      const dir = mkdtempSync(join(tmpdir(), "rr-apply-"));
      const env = { ...repo.env, GIT_INDEX_FILE: join(dir, "index") };
      try {
        execFileSync("git", ["read-tree", made.snapshot], { cwd: repo.dir, env });
        for (const [index, patch] of patches.entries()) {
          writeFileSync(join(dir, `${index}.patch`), patch);
          execFileSync("git", ["apply", "--cached", join(dir, `${index}.patch`)], { cwd: repo.dir, env });
        }
        return execFileSync("git", ["write-tree"], { cwd: repo.dir, env, encoding: "utf8" }).trim();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    fileInTree(tree, path, encoding = "utf8") {
      const { repo } = made;
      return execFileSync("git", ["cat-file", "blob", `${tree}:${path}`], {
        cwd: repo.dir,
        env: repo.env,
        encoding,
      });
    },
  };
  beforeAll(() => {
    made.repo = createTestRepo();
    made.snapshot = build(made.repo);
    made.bundle = archiveRepo(made.repo);
  });
  afterAll(() => made.repo?.cleanup());
  return made;
}

export function parseResult(stdout: string): Record<string, unknown> & {
  status: string;
  comments: Array<Record<string, unknown>>;
  commits: Array<{ message: string; patch: string }>;
  worker: { sandbox: string };
  error?: string;
} {
  return JSON.parse(stdout);
}

export interface WorkerExit {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/**
 * The built CLI's worker as a real subprocess on a private workspace root; `runAs` starts it through
 * `setpriv` as that unprivileged user.
 */
export function startWorker(
  args: string[],
  options: { root: string; env?: Record<string, string>; runAs?: number },
): { child: ChildProcess; done: Promise<WorkerExit> } {
  const { FAKE_TOKEN: _ignored, ...env } = process.env;
  const cli = [process.execPath, BIN, "worker", ...args];
  const user = options.runAs === undefined ? [] : [`--reuid=${options.runAs}`, `--regid=${options.runAs}`];
  const argv = user.length > 0 ? ["setpriv", ...user, "--clear-groups", ...cli] : cli;
  const child = spawn(argv[0] as string, argv.slice(1), {
    env: { ...env, [WORKSPACE_ROOT_ENV]: options.root, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A worker that refuses before it reads the request (no sandbox) closes stdin: the envelope the
  // test writes then fails with EPIPE, which the exit code and stderr already account for.
  child.stdin?.on("error", () => {});
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const done = new Promise<WorkerExit>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Pids of the processes whose command line holds `marker`. */
export function processesWith(marker: string): string[] {
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
}
