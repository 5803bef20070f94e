import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { WORKSPACE_PREFIX } from "../../src/worker/workspace.js";
import { refusingMountPath } from "../helpers/fixtures.js";
import {
  envelope,
  makeRequest,
  parseResult,
  processesWith,
  REVIEWERS,
  startWorker,
  TARS,
  useWorkspaceRoot,
} from "./worker-helpers.js";

const workspaces = useWorkspaceRoot();

const bundle = readFileSync(join(TARS, "00-benign-git-archive.tar.gz"));

function startWorkerHere(args: string[], env: Record<string, string> = {}) {
  return startWorker(args, { root: workspaces.root, env });
}

/** The worker's answer to the benign request, started as startWorkerHere starts it. */
function answerHere(args: string[], env: Record<string, string> = {}) {
  const { child, done } = startWorkerHere(args, env);
  child.stdin?.end(envelope(makeRequest(bundle), bundle));
  return done;
}

/** A PATH of every program in /usr/bin but `missing`: a machine without it. */
function pathWithout(missing: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rr-no-${missing}-`));
  for (const name of readdirSync("/usr/bin"))
    if (name !== missing) symlinkSync(join("/usr/bin", name), join(dir, name));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Without unshare the worker cannot make namespaces: its workspace is an ordinary directory. */
const noUnshare = pathWithout("unshare");

describe("worker as a subprocess (node bin/git-review-remote.js worker)", () => {
  it("answers an envelope on stdin with one result on stdout, removes stale workspaces, leaves nothing behind", async () => {
    const stale = join(workspaces.root, `${WORKSPACE_PREFIX}999999999-stale`);
    mkdirSync(join(stale, "tree"), { recursive: true });
    const run = await answerHere(["--sandbox=auto"]);
    expect(run.code, run.stderr).toBe(0);
    expect(parseResult(run.stdout)).toMatchObject({ status: "ok", worker: { name: "git-review-remote" } });
    expect(await workspaces.settled()).toEqual([]);
  });

  it("exits with its answer before an ordinary workspace is removed, which a detached process then removes", async () => {
    // An `rm` that waits for a go-ahead: the removal cannot be over when the worker exits.
    const bin = mkdtempSync(join(tmpdir(), "rr-slow-rm-"));
    const release = join(bin, "release");
    writeFileSync(
      join(bin, "rm"),
      `#!/bin/sh\nwhile [ ! -e "${release}" ]; do sleep 0.05; done\nexec /bin/rm "$@"\n`,
      { mode: 0o755 },
    );
    try {
      const { child, done } = startWorkerHere(["--sandbox=auto"], { PATH: `${bin}:${noUnshare}` });
      child.stdin?.end(envelope(makeRequest(bundle), bundle));
      const run = await done;
      expect(run.code, run.stderr).toBe(0);
      expect(parseResult(run.stdout).status).toBe("ok");
      // The worker does not wait for its remover to start: the rename comes a moment after the exit.
      const renamed = new RegExp(`^${WORKSPACE_PREFIX}(\\d+)-removed$`);
      for (let i = 0; i < 200 && !workspaces.leftovers().some((name) => renamed.test(name)); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const [removing, ...others] = workspaces.leftovers();
      expect(others).toEqual([]);
      const remover = Number(renamed.exec(removing ?? "")?.[1]);
      expect(remover).not.toBe(child.pid);
      expect(existsSync(`/proc/${remover}`)).toBe(true);
      writeFileSync(release, "");
      expect(await workspaces.settled()).toEqual([]);
    } finally {
      writeFileSync(release, "");
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("exits non-zero with a message and an empty stdout on a hostile bundle", async () => {
    const hostile = readFileSync(join(TARS, "01-dotdot-traversal.tar.gz"));
    const { child, done } = startWorkerHere([]);
    child.stdin?.end(envelope(makeRequest(hostile), hostile));
    const run = await done;
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("(rule: dotdot)");
    expect(await workspaces.settled()).toEqual([]);
  });

  it("refuses a bad limit with exit 2, naming the flag, before reading the request", async () => {
    const run = await answerHere(["--max-tree-bytes", "lots"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "--max-tree-bytes must be a positive number of bytes, with an optional k, m or g, not 'lots'",
    );
    expect(await workspaces.settled()).toEqual([]);
  });

  describe("on a machine without bwrap", () => {
    const noBwrap = pathWithout("bwrap");

    it("--sandbox=require refuses to run the reviewer and says why", async () => {
      const run = await answerHere(["--sandbox=require", "--reviewer-command", "true"], {
        PATH: noBwrap,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(
        "git-review-remote worker: no working sandbox: bwrap (bubblewrap) is not installed",
      );
      expect(await workspaces.settled()).toEqual([]);
    });

    it("--sandbox=auto warns and reports sandbox none", async () => {
      const run = await answerHere(["--sandbox=auto", "--reviewer-command", "true"], {
        PATH: noBwrap,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("warning: running the reviewer without a sandbox");
      expect(parseResult(run.stdout).worker.sandbox).toBe("none");
    });
  });

  describe("with the built-in reviewer, which runs in the worker's own process", () => {
    const noBwrap = pathWithout("bwrap");

    it("--sandbox=auto looks for no sandbox: no warning, and the result says none", async () => {
      const run = await answerHere(["--sandbox=auto"], { PATH: noBwrap });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain("without a sandbox");
      expect(parseResult(run.stdout)).toMatchObject({ status: "ok", worker: { sandbox: "none" } });
      expect(await workspaces.settled()).toEqual([]);
    });

    it("--sandbox=require still refuses where no sandbox works", async () => {
      const run = await answerHere(["--sandbox=require"], { PATH: noBwrap });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("no working sandbox: bwrap (bubblewrap) is not installed");
      expect(await workspaces.settled()).toEqual([]);
    });
  });

  describe("on a machine where the worker cannot make namespaces", () => {
    it("--sandbox=require refuses before reading the request, and says why", async () => {
      const run = await answerHere(["--sandbox=require"], { PATH: noUnshare });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        "git-review-remote worker: no working sandbox: cannot confine the workspace: unshare or setpriv (util-linux) is missing\n",
      );
      expect(await workspaces.settled()).toEqual([]);
    });

    it("--sandbox=auto warns that the workspace has no limit and still answers", async () => {
      const run = await answerHere(["--sandbox=auto", "--reviewer-command", "true"], {
        PATH: noUnshare,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        "warning: the workspace has no size or file limit: unshare or setpriv (util-linux) is missing",
      );
      expect(parseResult(run.stdout)).toMatchObject({
        status: "ok",
        worker: { sandbox: expect.any(String) },
      });
      expect(await workspaces.settled()).toEqual([]);
    });
  });

  describe("where the namespaces are made but a tmpfs cannot be mounted in them", () => {
    // A `mount` that refuses: the worker learns it from its real run in the namespaces, before the
    // worker inside them started, so the request on stdin is still unread for the fallback.
    const dir = mkdtempSync(join(tmpdir(), "rr-no-tmpfs-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const path = refusingMountPath(dir);

    it("--sandbox=require refuses with mount's reason", async () => {
      const run = await answerHere(["--sandbox=require"], { PATH: path });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        "git-review-remote worker: no working sandbox: cannot confine the workspace: mount: permission denied (fixture)\n",
      );
      expect(await workspaces.settled()).toEqual([]);
    });

    it("--sandbox=auto warns and answers the request it had not read yet", async () => {
      const run = await answerHere(["--sandbox=auto", "--reviewer-command", "true"], {
        PATH: path,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        "warning: the workspace has no size or file limit: mount: permission denied (fixture)",
      );
      expect(parseResult(run.stdout)).toMatchObject({ status: "ok" });
      expect(await workspaces.settled()).toEqual([]);
    });
  });

  it("counts the request's time limit from its arrival: a worker started early is not out of time", async () => {
    // A client may start its worker before the bundle is ready (the local worker starts while the
    // export runs): idle longer than the whole limit, it still has the whole limit once the request comes.
    const request = makeRequest(bundle, { limits: { ...DEFAULT_LIMITS, timeoutSeconds: 3 } });
    const { child, done } = startWorkerHere(["--sandbox=auto"]);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    child.stdin?.end(envelope(request, bundle));
    const run = await done;
    expect(run.code, run.stderr).toBe(0);
    expect(parseResult(run.stdout)).toMatchObject({ status: "ok" });
    expect(await workspaces.settled()).toEqual([]);
  });

  it("stopped by SIGTERM while it waits for its request, it removes its workspace", async () => {
    const { child, done } = startWorkerHere(["--sandbox=auto"]);
    // Up to the point where it waits on stdin: its workspace exists.
    for (let i = 0; i < 100 && workspaces.leftovers().length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(workspaces.leftovers().length).toBeGreaterThan(0);
    child.kill("SIGTERM");
    const run = await done;
    expect(run.code).toBe(143);
    expect(run.stdout).toBe("");
    expect(workspaces.leftovers()).toEqual([]);
  });

  it("on SIGTERM kills the reviewer's process group and removes its workspace", async () => {
    const marker = `sigterm-marker-${process.pid}-${Date.now()}`;
    const request = makeRequest(bundle, { limits: { ...DEFAULT_LIMITS, timeoutSeconds: 120 } });
    const { child, done } = startWorkerHere([
      "--sandbox=auto",
      "--tools",
      REVIEWERS,
      "--reviewer-command",
      `${join(REVIEWERS, "hang.sh")} ${marker}`,
    ]);
    child.stdin?.end(envelope(request, bundle));
    for (let i = 0; i < 100 && processesWith(marker).length < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(2);
    child.kill("SIGTERM");
    const run = await done;
    expect(run.code).toBe(143);
    expect(run.stdout).toBe("");
    // The kernel reaps the sandbox's pid namespace asynchronously; a loaded machine may take a moment.
    for (let i = 0; i < 50 && processesWith(marker).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processesWith(marker)).toEqual([]);
    expect(workspaces.leftovers()).toEqual([]);
  });
});
