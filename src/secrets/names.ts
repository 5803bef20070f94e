// Secret file names: files that never leave, decided by name alone (gitignore-style globs).
// Each rule names a whole class, and stays narrow enough that `src/environment.ts`,
// `docs/secrets-management.md` or `.env.example` are still exported.
import { globSource } from "../paths/glob.js";

export interface NameRule {
  id: string;
  description: string;
  globs: readonly string[];
  /** Names inside the class that are templates, not secrets. */
  except?: readonly string[];
}

export const NAME_RULES: readonly NameRule[] = [
  {
    id: "dotenv",
    description: "dotenv file",
    globs: [".env", ".env.*", "*.env", ".envrc", ".flaskenv"],
    except: [
      ".env.example",
      ".env.sample",
      ".env.template",
      ".env.dist",
      ".env.defaults",
      ".env.schema",
      "*.env.example",
      "*.env.sample",
      "*.env.template",
    ],
  },
  {
    id: "private-key",
    description: "private key or key store",
    globs: [
      "*.pem",
      "*.key",
      "*.p12",
      "*.pfx",
      "*.p8",
      "*.jks",
      "*.keystore",
      "*.bks",
      "*.ppk",
      "*.kdbx",
      "*.gpg",
      "*.pgp",
      "id_rsa",
      "id_dsa",
      "id_ecdsa",
      "id_ed25519",
      "id_ecdsa_sk",
      "id_ed25519_sk",
      "secring.*",
      "*.agekey",
      "*.keytab",
      "*.jceks",
    ],
  },
  {
    id: "vpn-config",
    description: "OpenVPN configuration (carries inline keys)",
    globs: ["*.ovpn"],
  },
  {
    id: "ssh-dir",
    description: "SSH configuration directory",
    globs: [".ssh/"],
  },
  {
    id: "gnupg-dir",
    description: "GnuPG home",
    globs: [".gnupg/"],
  },
  {
    id: "cloud-credentials",
    description: "cloud provider credentials",
    globs: [
      ".aws/",
      ".azure/",
      ".config/gcloud/",
      "credentials.json",
      "client_secret*.json",
      "application_default_credentials.json",
      "service-account*.json",
      "*-service-account.json",
      "serviceAccountKey.json",
      "*firebase-adminsdk*.json",
      ".s3cfg",
      ".boto",
      ".oci/",
    ],
  },
  {
    id: "kubeconfig",
    description: "Kubernetes client config",
    globs: ["kubeconfig", "*.kubeconfig", "kubeconfig.*", ".kube/config"],
  },
  {
    id: "terraform-state",
    description: "Terraform state or variables",
    globs: [
      "*.tfstate",
      "*.tfstate.*",
      "*.tfvars",
      "*.tfvars.json",
      ".terraformrc",
      "terraform.rc",
      ".terraform/",
    ],
  },
  {
    id: "tool-credentials",
    description: "tool credential file",
    globs: [
      ".npmrc",
      ".pypirc",
      ".netrc",
      "_netrc",
      ".git-credentials",
      ".pgpass",
      ".my.cnf",
      ".htpasswd",
      ".vault-token",
      ".docker/config.json",
      ".dockercfg",
      ".gem/credentials",
      ".cargo/credentials",
      ".cargo/credentials.toml",
      ".config/gh/hosts.yml",
      ".terraform.d/credentials.tfrc.json",
      ".password-store/",
    ],
  },
];

/**
 * Each rule's globs as one alternation: one regex test per rule and path. Case-insensitive: `.ENV`
 * or `ID_RSA` hold the same secrets, and macOS and Windows check them out as the same files.
 */
const COMPILED = NAME_RULES.map((rule) => ({
  rule,
  match: new RegExp(rule.globs.map(globSource).join("|"), "is"),
  except: rule.except ? new RegExp(rule.except.map(globSource).join("|"), "is") : undefined,
}));

/**
 * `path` as Windows (and Samba, and git for Windows) names its files: trailing dots and spaces of each
 * component dropped, so `.env `, `.env.` and `id_rsa. ` are the files they look like. A component of
 * dots and spaces only (`.`, `..`) is kept.
 */
export function foldSecretName(path: string): string {
  return path
    .split("/")
    .map((component) => component.replace(/[. ]+$/, "") || component)
    .join("/");
}

/** The rule that keeps `path` out, or undefined. `path` is relative to the top, `/`-separated. */
export function matchSecretName(path: string): NameRule | undefined {
  const folded = foldSecretName(path);
  for (const { rule, match, except } of COMPILED) {
    if (!match.test(folded)) continue;
    if (except?.test(folded.slice(folded.lastIndexOf("/") + 1))) continue;
    return rule;
  }
  return undefined;
}
