// A throwaway OpenSSH server on 127.0.0.1 with its own host and client keys, for the ssh transport
// tests and the transport benchmark. Plain JS so that the benchmarks can use it as well.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

function freePort() {
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

function findSshd() {
  return ["/usr/sbin/sshd", "/usr/bin/sshd", "/usr/local/sbin/sshd"].find((path) => existsSync(path));
}

async function waitForLogin(config) {
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

function sshdConfig(dir, port, user) {
  return [
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
  ].join("\n");
}

function clientConfig(dir, port, user) {
  return [
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
  ].join("\n");
}

/**
 * Start sshd; resolves to `{ config, port, stop }` (`config` is an ssh_config with a `Host worker`
 * entry), or `{ reason }` when this machine cannot run one.
 */
export async function startSshd() {
  const sshd = findSshd();
  if (!sshd || !existsSync("/usr/bin/ssh")) {
    return { reason: "openssh-server is not installed (apt-get install -y openssh-server)" };
  }
  const dir = mkdtempSync(join(tmpdir(), "rr-sshd-"));
  const port = await freePort();
  const user = userInfo().username;
  for (const name of ["host_key", "client_key"]) {
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", join(dir, name)]);
  }
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")), { mode: 0o600 });
  const hostKey = readFileSync(join(dir, "host_key.pub"), "utf8").split(" ").slice(0, 2).join(" ");
  writeFileSync(join(dir, "known_hosts"), `[127.0.0.1]:${port} ${hostKey}\n`);
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  writeFileSync(join(dir, "sshd_config"), sshdConfig(dir, port, user));
  const config = join(dir, "ssh_config");
  writeFileSync(config, clientConfig(dir, port, user));
  // -D: stay in the foreground, so the server is our child and stops with us.
  const server = spawn(sshd, ["-D", "-f", join(dir, "sshd_config"), "-E", join(dir, "sshd.log")], {
    stdio: "ignore",
  });
  const stop = () => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  if (!(await waitForLogin(config))) {
    const log = readFileSync(join(dir, "sshd.log"), "utf8").trim();
    stop();
    return { reason: `sshd did not accept a login: ${log}` };
  }
  return { config, port, stop };
}
