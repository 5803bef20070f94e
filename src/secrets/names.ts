// Secret file names: files that never leave, decided by name alone (gitignore-style globs).
// Each rule names a whole class, and stays narrow enough that `src/environment.ts`,
// `docs/secrets-management.md` or `.env.example` are still exported.
import { type GlobScope, globScope, globSource } from "../paths/glob.js";

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
    globs: [".env", ".env.*", ".env-*", ".env_*", "*.env", ".envrc", ".flaskenv"],
    except: [
      ".env.example",
      ".env[-_]example",
      ".env[-_]sample",
      ".env[-_]template",
      ".env[-_]dist",
      ".env.sample",
      ".env.template",
      ".env.dist",
      ".env.defaults",
      ".env.schema",
      "*.env.example",
      "*.env.sample",
      "*.env.template",
      // React Native's, committed by every app its template makes ("This `.xcode.env` file is
      // versioned"): it sets NODE_BINARY; what is local goes in the ignored `.xcode.env.local`.
      ".xcode.env",
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
      // Composer's http-basic, GitHub and GitLab tokens, in its home (a project's own auth.json, beside
      // composer.json, is one name of too many others to keep back: its tokens are found by content).
      ".composer/auth.json",
      ".config/composer/auth.json",
      // A Kubernetes docker-registry Secret's payload, as `kubectl create secret` reads it from a file.
      ".dockerconfigjson",
      // Jenkins' key for every credential its credentials.xml holds.
      "hudson.util.Secret",
      ".terraform.d/credentials.tfrc.json",
      ".password-store/",
    ],
  },
];

/** A rule's globs by where they are tested (globScope), each scope one alternation. */
interface ScopedGlobs {
  component?: RegExp;
  directory?: RegExp;
  path?: RegExp;
}

/** Case-insensitive: `.ENV` or `ID_RSA` hold the same secrets, and macOS and Windows check them out as the same files. */
function scoped(globs: readonly string[]): ScopedGlobs {
  const scopes = globs.map(globScope);
  const union = (scope: GlobScope["scope"]) => {
    const sources = scopes.filter((glob) => glob.scope === scope).map((glob) => glob.source);
    return sources.length > 0 ? new RegExp(sources.join("|"), "is") : undefined;
  };
  return { component: union("component"), directory: union("directory"), path: union("path") };
}

const COMPILED = NAME_RULES.map((rule) => ({
  rule,
  match: scoped(rule.globs),
  except: rule.except ? new RegExp(rule.except.map(globSource).join("|"), "is") : undefined,
}));

/** Every rule's globs at once: most paths of a tree match none, and are done after one pass. */
const ANY_RULE = scoped(NAME_RULES.flatMap((rule) => rule.globs));

function matchesScoped(globs: ScopedGlobs, path: string, components: readonly string[]): boolean {
  if (globs.path?.test(path)) return true;
  const last = components.length - 1;
  for (let i = 0; i <= last; i++) {
    const component = components[i] as string;
    if (globs.component?.test(component) || (i < last && globs.directory?.test(component))) return true;
  }
  return false;
}

/** What ANY_RULE says of one component: bit 1 when it matches as a name, bit 2 as a directory. */
const AS_NAME = 1;
const AS_DIRECTORY = 2;
const MAX_REMEMBERED = 1 << 17;
/**
 * Verdicts on the components seen so far. A tree repeats its directory names on every path below
 * them (`packages`, `src`, `test`, `fixtures`), and the component alternation is most of the cost
 * of judging a path: measured on a 27.7k-file monorepo, three passes took 968 ms, 330 ms with this.
 */
const verdicts = new Map<string, number>();

function verdictOf(component: string): number {
  let verdict = verdicts.get(component);
  if (verdict === undefined) {
    verdict =
      (ANY_RULE.component?.test(component) ? AS_NAME : 0) |
      (ANY_RULE.directory?.test(component) ? AS_DIRECTORY : 0);
    if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
    verdicts.set(component, verdict);
  }
  return verdict;
}

/** matchesScoped(ANY_RULE, ...), with each component's verdict remembered. */
function matchesAnyRule(path: string, components: readonly string[]): boolean {
  if (ANY_RULE.path?.test(path)) return true;
  const last = components.length - 1;
  for (let i = 0; i <= last; i++) {
    const verdict = verdictOf(components[i] as string);
    if (verdict & AS_NAME || (i < last && verdict & AS_DIRECTORY)) return true;
  }
  return false;
}

/** A component that ends in a dot or a space, which Windows drops. */
const WINDOWS_TRAILER = /[. ](?:\/|$)/;

/**
 * `path` as Windows (and Samba, and git for Windows) names its files: trailing dots and spaces of each
 * component dropped, so `.env `, `.env.` and `id_rsa. ` are the files they look like. A component of
 * dots and spaces only (`.`, `..`) is kept.
 */
export function foldSecretName(path: string): string {
  if (!WINDOWS_TRAILER.test(path)) return path;
  return path
    .split("/")
    .map((component) => component.replace(/[. ]+$/, "") || component)
    .join("/");
}

/**
 * What editors, tools and people make of a file they copy aside: `id_rsa.bak`, `.env~`, `server.key.orig`,
 * vim's `.id_rsa.swp`. The copy holds what the file held.
 */
const BACKUP_SUFFIX = /(?:~|\.(?:bak|backup|old|orig|save|tmp|copy|sw[a-p]))+$/i;

/**
 * Verdicts on whole paths judged so far (null: no rule). An export judges each path twice, as a tree
 * entry when it filters and as a tar entry when it reads the archive: the second is a lookup. The
 * export forgets them when it ends (forgetJudgedPaths): its keys hold on to the tree's listing.
 */
const judged = new Map<string, NameRule | null>();

/** Forgets the verdicts on whole paths; any later judgment is made again, the same. */
export function forgetJudgedPaths(): void {
  judged.clear();
}

/** The rule that keeps `path` out, or undefined. `path` is relative to the top, `/`-separated. */
export function matchSecretName(path: string): NameRule | undefined {
  let verdict = judged.get(path);
  if (verdict === undefined) {
    verdict = judgeSecretName(path) ?? null;
    if (judged.size >= MAX_REMEMBERED) judged.clear();
    judged.set(path, verdict);
  }
  return verdict ?? undefined;
}

function judgeSecretName(path: string): NameRule | undefined {
  const rule = matchFoldedName(foldSecretName(path));
  if (rule !== undefined || !BACKUP_SUFFIX.test(path)) return rule;
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  const original = name.replace(BACKUP_SUFFIX, "");
  // vim's swap file of `id_rsa` is `.id_rsa.swp`: a dot before the name, then the suffix.
  const swapped = /\.sw[a-p]$/i.test(name) && original.startsWith(".") ? original.slice(1) : undefined;
  for (const candidate of [original, swapped]) {
    if (!candidate) continue;
    const found = matchFoldedName(foldSecretName(path.slice(0, slash + 1) + candidate));
    if (found !== undefined) return found;
  }
  return undefined;
}

function matchFoldedName(folded: string): NameRule | undefined {
  const components = folded.split("/");
  if (!matchesAnyRule(folded, components)) return undefined;
  for (const { rule, match, except } of COMPILED) {
    if (!matchesScoped(match, folded, components)) continue;
    if (except?.test(components[components.length - 1] as string)) continue;
    return rule;
  }
  return undefined;
}
