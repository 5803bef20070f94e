import { describe, expect, it } from "vitest";
import { matchSecretName } from "../../src/secrets/names.js";

describe("secret name rules", () => {
  it.each([
    [".env", "dotenv"],
    [".env.production", "dotenv"],
    ["app/.env.local", "dotenv"],
    ["docker/prod.env", "dotenv"],
    ["ios/xcode.env", "dotenv"],
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
    [".composer/auth.json", "tool-credentials"],
    [".config/composer/auth.json", "tool-credentials"],
    ["deploy/.dockerconfigjson", "tool-credentials"],
    ["jenkins/secrets/hudson.util.Secret", "tool-credentials"],
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
    "locales/en/auth.json",
    "composer/auth.json.md",
    // React Native's template commits it: `export NODE_BINARY=$(command -v node)`.
    "examples/react-native/ios/.xcode.env",
  ])("exports %s", (path) => {
    expect(matchSecretName(path)).toBeUndefined();
  });
});

describe("the copies and variants of a secret name", () => {
  it.each([
    [".env-production", "dotenv"],
    ["config/.env_local", "dotenv"],
    [".env~", "dotenv"],
    ["deploy/id_rsa.bak", "private-key"],
    ["id_ed25519.old", "private-key"],
    ["certs/server.key.orig", "private-key"],
    ["certs/server.key~", "private-key"],
    ["keys/.id_rsa.swp", "private-key"],
    ["keys/.id_ed25519.swo", "private-key"],
    [".npmrc.bak", "tool-credentials"],
    ["credentials.json.save", "cloud-credentials"],
    ["infra/kubeconfig.BAK", "kubeconfig"],
    [".netrc.old~", "tool-credentials"],
  ])("%s is kept out like the file it copies (%s)", (path, rule) => {
    expect(matchSecretName(path)?.id).toBe(rule);
  });

  it.each([
    ".env-example",
    ".env_sample",
    ".env-template",
    "docs/.env_dist",
    "notes.bak",
    "src/app.ts~",
    "id_rsa.pub",
    "id_rsa.pub.bak",
    ".vimrc.swp",
    "server.keyboard.bak",
  ])("%s is no secret name", (path) => {
    expect(matchSecretName(path)).toBeUndefined();
  });
});

describe("secret name verdicts remembered per component", () => {
  it("judge a name by where it stands, whichever place it was first seen in", () => {
    // `.ssh/` is a directory rule and `id_rsa` a name rule: each component's remembered verdict must
    // keep both, so that a name seen first as a file is still caught as a directory, and the reverse.
    expect(matchSecretName("notes/.ssh")).toBeUndefined();
    expect(matchSecretName("home/.ssh/known_hosts")?.id).toBe("ssh-dir");
    expect(matchSecretName("other/.ssh")).toBeUndefined();
    expect(matchSecretName("id_rsa/readme.md")?.id).toBe("private-key");
    expect(matchSecretName("keys/id_rsa")?.id).toBe("private-key");
    // A component once clean stays clean only as itself: its folded or cased kin are judged anew.
    expect(matchSecretName("src/config.ts")).toBeUndefined();
    expect(matchSecretName("src/.ENV")?.id).toBe("dotenv");
    expect(matchSecretName("src/.env. ")?.id).toBe("dotenv");
  });

  it("judge ten thousand distinct clean names and still catch a secret after them", () => {
    for (let i = 0; i < 10_000; i++) expect(matchSecretName(`pkg${i}/src/file${i}.ts`)).toBeUndefined();
    expect(matchSecretName("pkg1/src/.env")?.id).toBe("dotenv");
  });
});
