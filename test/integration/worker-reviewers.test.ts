import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { findSandbox } from "../../src/worker/find-sandbox.js";
import { FORBIDDEN_EXAMPLES } from "../helpers/forbidden-examples.js";
import {
  envelope,
  parseResult,
  processesWith,
  REVIEWERS,
  reviewerCommand,
  runWorkerOn,
  useBundledRepo,
  useWorkspaceRoot,
} from "./worker-helpers.js";

const workspaces = useWorkspaceRoot({ emptyAfterEach: true });

/** Whether a real sandbox works here, and why not (reported, never silently skipped). */
let sandboxWorks = false;
let sandboxReason = "";
try {
  const scratch = mkdtempSync(join(workspaces.root, "probe-"));
  execFileSync("chmod", ["711", scratch]);
  findSandbox("require", scratch, () => {});
  rmSync(scratch, { recursive: true, force: true });
  sandboxWorks = true;
} catch (error) {
  sandboxReason = (error as Error).message;
  console.warn(`worker sandbox tests skipped: ${sandboxReason}`);
}

const target = useBundledRepo((repo) => {
  repo.write("README.md", "# Project\n\nSome text.\n");
  repo.write("src/app.ts", "export const x = 1;\n");
  repo.write("scripts/run.sh", "#!/bin/sh\necho hi\n");
  execFileSync("chmod", ["755", join(repo.dir, "scripts/run.sh")]);
  return repo.commit("base");
});
const { request, applyProposals, fileInTree } = target;

describe("worker with fixture reviewers", () => {
  it("turns an edit into one proposed commit whose patch applies to the snapshot", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand(join(REVIEWERS, "edit.sh")),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch).toMatch(/^diff --git a\/README.md b\/README.md\n/);
    const tree = applyProposals(result.commits.map((commit) => commit.patch));
    expect(fileInTree(tree, "README.md")).toContain("Reviewed: Review this change");
  });

  it("turns two reviewer commits into two proposals, in order, with their messages", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand(join(REVIEWERS, "two-commits.sh")),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.commits.map((commit) => commit.message)).toEqual([
      "First reviewer commit",
      "Second reviewer commit\n\nWith a body.",
    ]);
    const tree = applyProposals(result.commits.map((commit) => commit.patch));
    expect(fileInTree(tree, "added.ts")).toBe("export const added = 1;\n");
  });

  it("gives the reviewer a consistent repository at the baseline: status, diff, stash, checkout, fsck", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand(join(REVIEWERS, "git-workout.sh")),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits.map((commit) => commit.message)).toEqual(["Add y"]);
    const tree = applyProposals(result.commits.map((commit) => commit.patch));
    expect(fileInTree(tree, "src/app.ts")).toBe("export const x = 1;\nexport const y = 2;\n");
  });

  it("returns the comments the reviewer wrote and skips malformed lines with a warning", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand(join(REVIEWERS, "comments.sh")),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.comments).toEqual([
      {
        path: "README.md",
        line: 1,
        severity: "warning",
        message: "Title could be clearer.",
        rule: "fixture/title",
      },
      { severity: "info", message: "Whole-change remark." },
    ]);
    expect(result.commits).toEqual([]);
    expect(run.stderr).toContain("comments line 2: not valid JSON; skipped");
    expect(run.stderr).toContain("comments line 4: endLine");
  });

  it("fails a reviewer that outlives the time limit and kills its whole process group", async () => {
    const marker = `hang-marker-${process.pid}-${Date.now()}`;
    const started = Date.now();
    const run = await runWorkerOn(
      envelope(request({ limits: { ...DEFAULT_LIMITS, timeoutSeconds: 2 } }), target.bundle),
      {
        ...reviewerCommand(`${join(REVIEWERS, "hang.sh")} ${marker}`),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/timed out/);
    expect(result.commits).toEqual([]);
    expect(Date.now() - started).toBeLessThan(8000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesWith(marker)).toEqual([]);
  });

  it("stops a reviewer writing 1 GiB at the file size limit", async () => {
    const started = Date.now();
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand(join(REVIEWERS, "write-1g.sh")),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/file size limit/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("fails a reviewer that exits non-zero", async () => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      ...reviewerCommand("echo broken >&2; exit 3"),
    });
    expect(run.code).toBe(0);
    expect(parseResult(run.stdout)).toMatchObject({
      status: "failed",
      error: "the reviewer exited with code 3",
    });
    expect(run.stderr).toContain("broken");
  });

  it("fails a reviewer that makes a merge commit", async () => {
    const command =
      "git checkout -q -b side && echo a > a.txt && git add a.txt && git commit -q -m a && git checkout -q review && " +
      "echo b > b.txt && git add b.txt && git commit -q -m b && git merge -q --no-edit side";
    const run = await runWorkerOn(envelope(request(), target.bundle), reviewerCommand(command));
    expect(run.code, run.stderr).toBe(0);
    expect(parseResult(run.stdout)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/straight line/),
    });
  });

  it("leaves out proposals over maxPatchBytes with a comment naming the limit, keeping the comments", async () => {
    const limits = { ...DEFAULT_LIMITS, maxPatchBytes: 1000 };
    const run = await runWorkerOn(envelope(request({ limits }), target.bundle), {
      ...reviewerCommand(
        'seq 1 2000 > numbers.txt && echo \'{"path":"src/app.ts","severity":"info","message":"kept"}\' > "$REVIEW_REMOTE_COMMENTS"',
      ),
    });
    const result = parseResult(run.stdout);
    expect(result).toMatchObject({ status: "ok", commits: [] });
    expect(result.comments).toEqual([
      {
        severity: "warning",
        rule: "limits.maxPatchBytes",
        message: expect.stringMatching(/^The proposed changes were left out: .*over the limit of 1000 bytes/),
      },
      { path: "src/app.ts", severity: "info", message: "kept" },
    ]);
  });

  it("leaves out proposals over maxCommits the same way", async () => {
    const limits = { ...DEFAULT_LIMITS, maxCommits: 1 };
    const run = await runWorkerOn(envelope(request({ limits }), target.bundle), {
      ...reviewerCommand(
        "echo a > a.txt && git add a.txt && git commit -q -m a && echo b > b.txt && git add b.txt && git commit -q -m b",
      ),
    });
    const result = parseResult(run.stdout);
    expect(result).toMatchObject({ status: "ok", commits: [] });
    expect(result.comments[0]).toMatchObject({ rule: "limits.maxCommits", severity: "warning" });
  });

  it("leaves out binary, executable and forbidden changes with a note", async () => {
    const command =
      "printf 'a\\0b' > blob.bin && printf '#!/bin/sh\\n' > tool.sh && chmod +x tool.sh && mkdir -p .github && " +
      "echo x > .github/ci.yml && chmod -x scripts/run.sh && echo ok >> src/app.ts";
    const run = await runWorkerOn(envelope(request(), target.bundle), reviewerCommand(command));
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch).toMatch(/^diff --git a\/src\/app.ts b\/src\/app.ts\n/);
    expect(result.commits[0]?.patch).not.toMatch(/blob.bin|tool.sh|\.github|run\.sh/);
    expect(result.comments.map((comment) => comment.path).sort()).toEqual([
      ".github/ci.yml",
      "blob.bin",
      "scripts/run.sh",
      "tool.sh",
    ]);
    applyProposals(result.commits.map((commit) => commit.patch));
  });

  it("leaves every forbidden family alone, whatever the reviewer wrote", async () => {
    const paths = Object.values(FORBIDDEN_EXAMPLES).flat();
    const writes = paths.map((path) => {
      const dir = path.includes("/") ? `mkdir -p '${path.slice(0, path.lastIndexOf("/"))}' && ` : "";
      return `${dir}echo pwned > '${path}'`;
    });
    const command = [...writes, "echo ok >> src/app.ts"].join(" && ");
    const run = await runWorkerOn(envelope(request(), target.bundle), reviewerCommand(command));
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    expect(result.commits[0]?.patch.match(/^diff --git .*$/gm)).toEqual([
      "diff --git a/src/app.ts b/src/app.ts",
    ]);
    const noted = new Set(result.comments.map((comment) => comment.path));
    for (const path of paths) expect(noted.has(path), path).toBe(true);
  });
});

describe("worker sandbox", () => {
  let server: Server;
  let port = 0;
  let outside: string;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    outside = mkdtempSync(join(tmpdir(), "rr-outside-"));
    execFileSync("chmod", ["777", outside]);
    process.env.FAKE_TOKEN = "ghp_fake_token_for_the_worker_test";
  });
  afterAll(() => {
    server.close();
    rmSync(outside, { recursive: true, force: true });
    delete process.env.FAKE_TOKEN;
  });

  const probe = async (sandbox: "require" | "off", network = false) => {
    const run = await runWorkerOn(envelope(request(), target.bundle), {
      sandbox,
      network,
      ...reviewerCommand(`${join(REVIEWERS, "probe-sandbox.sh")} ${outside} ${port}`),
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    return {
      result,
      findings: Object.fromEntries(result.comments.map((comment) => String(comment.message).split(": "))),
    };
  };

  it.skipIf(!sandboxWorks)(
    "with --sandbox=require the reviewer cannot write outside, read secrets, reach the network or see tokens",
    async () => {
      const { result, findings } = await probe("require");
      expect(result.worker.sandbox).toBe(process.getuid?.() === 0 ? "bwrap+setpriv" : "bwrap");
      expect(findings).toMatchObject({
        "write-outside": "blocked",
        "write-usr": "blocked",
        "read-root": "blocked",
        "read-shadow": "blocked",
        dns: "blocked",
        connect: "blocked",
        token: "hidden",
      });
      if (process.getuid?.() === 0) expect(findings.uid).not.toBe("0");
      expect(readdirSync(outside)).toEqual([]);
    },
  );

  it.skipIf(!sandboxWorks)("with --network the reviewer reaches the network, and nothing more", async () => {
    const { findings } = await probe("require", true);
    expect(findings).toMatchObject({
      "write-outside": "blocked",
      "read-shadow": "blocked",
      connect: "allowed",
      token: "hidden",
    });
    expect(readdirSync(outside)).toEqual([]);
  });

  it.skipIf(!sandboxWorks)(
    "finds programs in --tools directories and nothing named by a path outside them",
    async () => {
      const tools = mkdtempSync(join(tmpdir(), "rr-tools-"));
      try {
        mkdirSync(join(tools, "bin"));
        mkdirSync(join(tools, "node_modules", ".bin"), { recursive: true });
        writeFileSync(join(tools, "bin", "say-a"), `#!/bin/sh\necho a >> a.txt\n`, { mode: 0o755 });
        writeFileSync(join(tools, "node_modules", ".bin", "say-b"), `#!/bin/sh\necho b >> a.txt\n`, {
          mode: 0o755,
        });
        execFileSync("chmod", ["-R", "a+rX", tools]);
        const found = await runWorkerOn(envelope(request(), target.bundle), {
          sandbox: "require",
          tools: [tools],
          reviewerCommands: [{ command: "say-a && say-b", format: "comments" }],
        });
        const result = parseResult(found.stdout);
        expect(result.status, result.error).toBe("ok");
        expect(result.commits[0]?.patch).toContain("+a\n+b\n");
        // The tools directory is read-only in the sandbox.
        const readOnly = await runWorkerOn(envelope(request(), target.bundle), {
          sandbox: "require",
          tools: [tools],
          reviewerCommands: [{ command: `touch ${tools}/x`, format: "comments" }],
        });
        expect(parseResult(readOnly.stdout).status).toBe("failed");
        // A script named by its path outside any --tools directory is not in the sandbox.
        const outsideTools = await runWorkerOn(envelope(request(), target.bundle), {
          sandbox: "require",
          reviewerCommands: [{ command: join(tools, "bin", "say-a"), format: "comments" }],
        });
        expect(parseResult(outsideTools.stdout)).toMatchObject({
          status: "failed",
          error:
            "the reviewer exited with code 127: a command was not found in the sandbox, which sees /usr, node and --tools DIR (DIR/bin and DIR/node_modules/.bin first on PATH)",
        });
      } finally {
        rmSync(tools, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!sandboxWorks)(
    "names a --tools directory the sandbox's user cannot reach, as a toolchain under /root",
    async () => {
      // rustup's toolchains under a 0700 home: a root worker's sandbox user cannot pass it.
      const home = mkdtempSync(join(tmpdir(), "rr-home-"));
      try {
        const tools = join(home, ".rustup", "toolchains", "stable");
        mkdirSync(join(tools, "bin"), { recursive: true });
        writeFileSync(join(tools, "bin", "say-a"), `#!/bin/sh\necho a >> a.txt\n`, { mode: 0o755 });
        execFileSync("chmod", ["-R", "a+rX", home]);
        execFileSync("chmod", ["700", home]);
        const run = await runWorkerOn(envelope(request(), target.bundle), {
          sandbox: "require",
          tools: [tools],
          reviewerCommands: [{ command: "say-a", format: "comments" }],
        });
        const result = parseResult(run.stdout);
        if (process.getuid?.() === 0) {
          expect(result.status).toBe("failed");
          expect(result.error).toBe(
            `--tools ${tools}: ${home} is not searchable by the sandbox's user (uid ${execFileSync("id", ["-u", "review-remote"]).toString().trim()}, whom a root worker runs reviewers as); put the tools where that user can reach them (under /opt, say)`,
          );
          expect(run.stderr).not.toContain("Can't find source path");
        } else {
          // Run as the directory's owner, the sandbox reaches it.
          expect(result.status, result.error).toBe("ok");
          expect(result.commits[0]?.patch).toContain("+a\n");
        }
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  );

  it("with --sandbox=off the reviewer still gets a scrubbed environment", async () => {
    const { result, findings } = await probe("off");
    expect(result.worker.sandbox).toBe("none");
    expect(findings.token).toBe("hidden");
    rmSync(join(outside, "outside.txt"), { force: true });
  });
});
