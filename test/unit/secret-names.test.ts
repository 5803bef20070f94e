import { describe, expect, it } from "vitest";
import { matchSecretName } from "../../src/secrets/names.js";

describe("secret name rules", () => {
  it.each([
    [".env", "dotenv"],
    [".env.production", "dotenv"],
    ["app/.env.local", "dotenv"],
    ["docker/prod.env", "dotenv"],
    [".envrc", "dotenv"],
    ["certs/server.key", "private-key"],
    ["id_ed25519", "private-key"],
    ["keys/deploy.ppk", "private-key"],
    ["certs/client.pfx", "private-key"],
    ["android/app/release.keystore", "private-key"],
    [".ssh/config", "ssh-dir"],
    ["home/.ssh/known_hosts", "ssh-dir"],
    [".aws/credentials", "cloud-credentials"],
    ["credentials.json", "cloud-credentials"],
    ["infra/kubeconfig", "kubeconfig"],
    ["infra/terraform.tfstate.backup", "terraform-state"],
    ["prod.tfvars", "terraform-state"],
    [".npmrc", "tool-credentials"],
    [".pypirc", "tool-credentials"],
    [".netrc", "tool-credentials"],
    [".git-credentials", "tool-credentials"],
    [".pgpass", "tool-credentials"],
    [".htpasswd", "tool-credentials"],
    [".vault-token", "tool-credentials"],
    [".docker/config.json", "tool-credentials"],
    [".ENV", "dotenv"],
    ["certs/CERT.PFX", "private-key"],
    ["ID_RSA", "private-key"],
    ["vault.KDBX", "private-key"],
    [".SSH/config", "ssh-dir"],
  ])("keeps %s back (%s)", (path, rule) => {
    expect(matchSecretName(path)?.id).toBe(rule);
  });

  it.each([
    "src/environment.ts",
    "config/envoy.yaml",
    "scripts/venv-setup.sh",
    "docs/environment-variables.md",
    "docs/secrets-management.md",
    "components/Secretary.tsx",
    "tests/secrets.test.ts",
    "lib/tempemail.js",
    "docs/keypem.md",
    "lib/prevent.js",
    "package-lock.json",
    ".env.example",
    ".ENV.EXAMPLE",
    "config/.env.sample",
    "src/keys.ts",
    "docs/ssh.md",
    "src/credentials.ts",
    "docs/kubeconfig-guide.md",
  ])("exports %s", (path) => {
    expect(matchSecretName(path)).toBeUndefined();
  });
});
