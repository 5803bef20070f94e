// Real SSH keys, certificates and a private ssh-agent in a temp dir, made with ssh-keygen itself, for the
// receipt tests and the receipt benchmark. Plain JS so that the benchmarks can use it as well.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A directory of keys; `remove()` deletes it and stops any agent started in it. */
export function createKeyDir() {
  const dir = mkdtempSync(join(tmpdir(), "rr-keys-"));
  const agents = [];
  let count = 0;
  return {
    dir,
    /** A new key pair without a passphrase: `{ private, public, fingerprint }`. */
    key(type = "ed25519", { passphrase = "" } = {}) {
      const file = join(dir, `key${++count}-${type}`);
      const bits = type === "rsa" ? ["-b", "2048"] : [];
      execFileSync("ssh-keygen", ["-q", "-t", type, ...bits, "-N", passphrase, "-C", "test", "-f", file]);
      return { private: file, public: `${file}.pub`, fingerprint: fingerprintOf(`${file}.pub`) };
    },
    /** A user certificate of `key` signed by `ca` for `principals`, valid for `validity`. */
    certify(ca, key, principals, validity = "-5m:+1h") {
      execFileSync("ssh-keygen", [
        "-q",
        "-s",
        ca.private,
        "-I",
        "test-cert",
        "-n",
        principals,
        "-V",
        validity,
        key.public,
      ]);
      return key.public.replace(/\.pub$/, "-cert.pub");
    },
    /** An allowed_signers file of the given lines. */
    allowedSigners(lines) {
      const file = join(dir, `allowed_signers${++count}`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      return file;
    },
    /** A private ssh-agent holding `keys`; returns the environment that reaches it. */
    agent(keys) {
      const socket = join(dir, `agent${++count}.sock`);
      const started = spawnSync("ssh-agent", ["-a", socket, "-s"], { encoding: "utf8" });
      const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(started.stdout)?.[1]);
      if (!Number.isInteger(pid)) throw new Error(`ssh-agent did not start: ${started.stderr}`);
      agents.push(pid);
      const env = { ...process.env, SSH_AUTH_SOCK: socket };
      for (const key of keys) execFileSync("ssh-add", ["-q", key.private], { env, stdio: "ignore" });
      return env;
    },
    remove() {
      for (const pid of agents) {
        try {
          process.kill(pid, "SIGTERM");
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `SHA256:...` as ssh-keygen -l prints it. */
function fingerprintOf(publicKeyFile) {
  return execFileSync("ssh-keygen", ["-l", "-f", publicKeyFile], { encoding: "utf8" }).split(" ")[1];
}

/** `<principal> [options] <key>`: one allowed_signers line for a public key file. */
export function signerLine(principal, publicKeyFile, options = "") {
  const key = readFileSync(publicKeyFile, "utf8").trim();
  return [principal, options, key].filter((part) => part !== "").join(" ");
}
