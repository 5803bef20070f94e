// Starts a throwaway OpenSSH server on 127.0.0.1 for the ssh transport tests, with its own host and
// client keys in a temp dir. Tests read `sshd` with `inject("sshd")`; it is null, with the reason,
// when the machine has no sshd (the ssh tests then report themselves as skipped, never silently).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export interface SshdInfo {
  /** An ssh_config with a `Host worker` entry for the server. */
  config: string;
  port: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    sshd: SshdInfo | null;
    sshdReason: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function findSshd(): string | undefined {
  return ["/usr/sbin/sshd", "/usr/bin/sshd", "/usr/local/sbin/sshd"].find((path) => existsSync(path));
}

async function waitForLogin(config: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      execFileSync("ssh", ["-F", config, "-o", "ConnectTimeout=1", "worker", "true"], { stdio: "ignore" });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return false;
}

export default async function setup(project: TestProject) {
  const sshd = findSshd();
  if (!sshd || !existsSync("/usr/bin/ssh")) {
    project.provide("sshd", null);
    project.provide("sshdReason", "openssh-server is not installed (apt-get install -y openssh-server)");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "rr-sshd-"));
  const port = await freePort();
  const user = userInfo().username;
  const keygen = (name: string) =>
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", join(dir, name)]);
  keygen("host_key");
  keygen("client_key");
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")), { mode: 0o600 });
  writeFileSync(
    join(dir, "known_hosts"),
    `[127.0.0.1]:${port} ${readFileSync(join(dir, "host_key.pub"), "utf8").split(" ").slice(0, 2).join(" ")}\n`,
  );
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const sshdConfig = join(dir, "sshd_config");
  writeFileSync(
    sshdConfig,
    [
      "ListenAddress 127.0.0.1",
      `Port ${port}`,
      `HostKey ${join(dir, "host_key")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `AllowUsers ${user}`,
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "UsePAM no",
      "StrictModes no",
      "PrintMotd no",
      "AllowTcpForwarding no",
      "X11Forwarding no",
      "PermitTTY no",
      "LogLevel ERROR",
      "MaxStartups 50:30:100",
      "",
    ].join("\n"),
  );
  const config = join(dir, "ssh_config");
  writeFileSync(
    config,
    [
      "Host worker",
      "  HostName 127.0.0.1",
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, "client_key")}`,
      "  IdentitiesOnly yes",
      `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
      "  StrictHostKeyChecking yes",
      "  BatchMode yes",
      "  LogLevel ERROR",
      "",
    ].join("\n"),
  );
  // -D: stay in the foreground, so the server is our child and dies with the teardown.
  const server = spawn(sshd, ["-D", "-f", sshdConfig, "-E", join(dir, "sshd.log")], { stdio: "ignore" });
  if (!(await waitForLogin(config))) {
    server.kill();
    project.provide("sshd", null);
    project.provide(
      "sshdReason",
      `sshd did not accept a login: ${readFileSync(join(dir, "sshd.log"), "utf8").trim()}`,
    );
    return;
  }
  project.provide("sshd", { config, port });
  project.provide("sshdReason", "");
  return () => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  };
}
