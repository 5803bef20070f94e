// The ssh transport for real: a throwaway sshd on 127.0.0.1 (started by the global setup), and the
// worker reached as `ssh ... git-review-remote worker`, configured the way users configure theirs.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { shellWords } from "../helpers/fixtures.js";
import { BIN, createTestRepo, repoState, repoTracker, runUnchanged } from "../helpers/repo.js";
import { createKeyDir, signerLine } from "../helpers/ssh-keys.mjs";

const sshd = inject("sshd");
if (!sshd) console.warn(`ssh transport tests skipped: ${inject("sshdReason")}`);

const repos = repoTracker();
const keys = createKeyDir();
afterAll(() => keys.remove());

describe.skipIf(!sshd)("ssh transport", () => {
  it("brings back a stored, schema-valid result from a worker over ssh", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("src/app.ts", "export const a = 1;   \n");
    repo.write("src/conflict.ts", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n");
    repo.commit();
    const config = sshd?.config as string;
    repo.git(
      "config",
      "review-remote.box.command",
      `ssh -F ${shellWords(config)} worker ${shellWords(process.execPath, BIN)} worker`,
    );
    const before = repoState(repo);
    const result = repo.run(["--worker", "box", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.status).toBe("imported");
    expect(json.comments).toContainEqual(
      expect.objectContaining({ path: "src/conflict.ts", severity: "error" }),
    );
    expect(repo.git("show", `${json.branch}:src/app.ts`)).toBe("export const a = 1;\n");
    expect({ ...repoState(repo), refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    const audit = JSON.parse(repo.run(["audit", "--json"]).stdout);
    expect(audit[0]).toMatchObject({ worker: "box", reviewId: json.id });
    expect(audit[0].command).toContain("ssh -F");
  });

  it("verifies a signing worker's receipt, and the printed ssh-keygen command agrees", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("src/app.ts", "export const a = 1;   \n");
    repo.commit();
    const key = keys.key("ed25519");
    const config = sshd?.config as string;
    const worker = shellWords(process.execPath, BIN, "worker", "--sign-key", key.private);
    repo.git("config", "review-remote.box.command", `ssh -F ${shellWords(config)} worker ${worker}`);
    repo.git(
      "config",
      "review-remote.box.allowedSigners",
      keys.allowedSigners([signerLine("box", key.public)]),
    );
    const result = repo.run(["--worker", "box"]);
    expect(result.status, result.stderr).toBe(0);
    const good = `Good signature from worker "box" with ED25519 key ${key.fingerprint}`;
    expect(result.stdout).toContain(good);
    const id = /^Review ([0-9a-f]{12}) by box/m.exec(result.stdout)?.[1] as string;
    expect(repo.run(["show", id]).stdout).toContain(`receipt  ${good}`);
    const verified = repo.run(["verify", id]);
    expect(verified.status, verified.stderr).toBe(0);
    const command = verified.stdout.trim().split("\n").at(-1)?.trim() as string;
    expect(command).toMatch(/^ssh-keygen -Y verify /);
    const again = spawnSync("sh", ["-c", command], { encoding: "utf8" });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `Good "git-review-remote@v1" signature for box with ED25519 key ${key.fingerprint}`,
    );
  });

  it("reports an unreachable host as a worker failure, exit 3, with ssh's own words", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a\n");
    repo.commit();
    repo.git(
      "config",
      "review-remote.gone.command",
      `ssh -F ${shellWords(sshd?.config as string)} -p 1 worker true`,
    );
    const result = runUnchanged(repo, ["--worker", "gone"], 3);
    expect(result.stderr).toMatch(/remote: ssh: connect to host .* port 1: Connection refused/);
    // No connection, no worker: no answer is coming to import.
    expect(result.stderr).not.toContain("can still be imported");
  });

  it.each([
    [
      "a key the host does not accept",
      (config: string) => config.replace(/IdentityFile .*/, `IdentityFile ${keys.key("ed25519").private}`),
      "Permission denied",
      "hint: ssh cannot ask for a password or a key's passphrase here (the worker's command runs without a terminal): use a key the host accepts, in ssh-agent if it has a passphrase; ssh -F <config> worker true tries it",
    ],
    [
      "a host key not yet trusted",
      (config: string) =>
        config
          .replace(/UserKnownHostsFile .*/, `UserKnownHostsFile ${join(keys.dir, "known_hosts_empty")}`)
          .replace(/StrictHostKeyChecking .*/, "StrictHostKeyChecking ask")
          .replace(/BatchMode .*/, "BatchMode no"),
      "Host key verification failed.",
      "hint: ssh cannot ask whether to trust the host's key here (the worker's command runs without a terminal): connect once by hand (ssh -F <config> worker true) to accept it",
    ],
  ])("says what ssh could not ask, with %s (exit 3, no import offered)", (_, edit, said, hint) => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a\n");
    repo.commit();
    const config = join(keys.dir, `ssh_config_${repo.git("rev-parse", "HEAD").trim().slice(0, 8)}`);
    writeFileSync(config, edit(readFileSync(sshd?.config as string, "utf8")));
    const worker = shellWords(process.execPath, BIN, "worker");
    repo.git("config", "review-remote.box.command", `ssh -F ${shellWords(config)} worker ${worker}`);
    const result = runUnchanged(repo, ["--worker", "box"], 3);
    expect(result.stderr).toContain(said);
    expect(result.stderr).toContain("git-review-remote: worker 'box' exited with status 255");
    // The hint's command is the worker's own ssh, its -F included, not a bare `ssh <host>` that
    // would try another host or key: run as it is, it meets the same refusal.
    const probe = `ssh -F ${shellWords(config)} worker true`;
    expect(result.stderr).toContain(hint.replace("ssh -F <config> worker true", probe));
    const tried = spawnSync("sh", ["-c", probe], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(tried.status).toBe(255);
    expect(tried.stderr).toContain(said);
    expect(result.stderr).not.toContain("can still be imported");
  });

  it("names the line a worker host's login script printed beside the result, and asks again once it is gone", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a   \n");
    repo.commit();
    // As an `echo` in the worker host's ~/.bashrc, which sshd's shell runs for the command too.
    const banner = join(repo.dir, ".git", "banner-on");
    writeFileSync(banner, "");
    const worker = shellWords(process.execPath, BIN, "worker");
    const remote = `test -f ${shellWords(banner)} && echo 'Welcome to box, load 0.01'; exec ${worker}`;
    repo.git(
      "config",
      "review-remote.box.command",
      `ssh -F ${shellWords(sshd?.config as string)} worker ${shellWords(remote)}`,
    );
    const rejected = runUnchanged(repo, ["--worker", "box"], 4);
    expect(rejected.stderr).toContain("result: not valid JSON: unexpected character 'W' (line 1, column 1)");
    expect(rejected.stderr).toContain(
      `hint: the worker's stdout holds more than its result: "Welcome to box, load 0.01" (line 1); a login script on the worker host`,
    );
    // The host fixed: not answered from the store as a rejection of the same request.
    rmSync(banner);
    const fixed = repo.run(["--worker", "box"]);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain("1 proposed commit");
  });

  it("names a line printed after the result", () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a\n");
    repo.commit();
    const remote = `${shellWords(process.execPath, BIN, "worker")}; echo logout`;
    repo.git(
      "config",
      "review-remote.box.command",
      `ssh -F ${shellWords(sshd?.config as string)} worker ${shellWords(remote)}`,
    );
    const rejected = runUnchanged(repo, ["--worker", "box"], 4);
    expect(rejected.stderr).toContain(
      `hint: the worker's stdout holds more than its result: "logout" (line 2)`,
    );
  });

  it("stops the remote reviewer when the client is interrupted, though ssh sends the worker no signal", async () => {
    const repo = createTestRepo();
    repos.add(repo);
    repo.write("a.txt", "a\n");
    repo.commit();
    // A sleep no other process has on its command line, to find the reviewer by from here.
    const token = `3599.${process.pid}${Date.now() % 100000}`;
    const worker = shellWords(
      process.execPath,
      BIN,
      "worker",
      "--reviewer-command",
      `echo thinking >&2; exec sleep ${token}`,
    );
    repo.git(
      "config",
      "review-remote.box.command",
      `ssh -F ${shellWords(sshd?.config as string)} worker ${shellWords(worker)}`,
    );
    const before = repoState(repo);
    // As a terminal does: SIGINT to the whole foreground process group, ssh included.
    const child = spawn("node", [BIN, "--worker", "box"], { cwd: repo.dir, env: repo.env, detached: true });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      const first = !stderr.includes("thinking");
      stderr += chunk;
      if (first && stderr.includes("thinking")) process.kill(-(child.pid as number), "SIGINT");
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(repoState(repo)).toEqual(before);
    // The worker notices its parent, the ssh session, is gone; without that the sleep ran an hour.
    let running = true;
    for (let attempt = 0; attempt < 150 && running; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      running = processesRunning(`sleep\0${token}`);
    }
    expect(running).toBe(false);
  });
});

/** Whether some process's command line contains `text` (its arguments joined by NUL). */
function processesRunning(text: string): boolean {
  return readdirSync("/proc").some((entry) => {
    if (!/^[0-9]+$/.test(entry)) return false;
    try {
      return readFileSync(join("/proc", entry, "cmdline"), "latin1").includes(text);
    } catch {
      return false;
    }
  });
}
