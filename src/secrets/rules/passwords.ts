// Passwords and user:password pairs written next to the names that announce them: URLs, curl command
// lines, configuration files, Terraform, Kubernetes Secret manifests, NuGet and Bundler settings.
// Each judges its value with the shared placeholder rules, so documentation examples pass.
import {
  isDecodedPlaceholderPair,
  isPlaceholder,
  isPlaceholderOrWord,
  isPlaceholderPair,
} from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { anyCase, namedValue } from "./shape.js";

/**
 * Configuration text: .properties, INI, YAML, TOML, dotenv and friends, and JSON (`appsettings.json`,
 * node-config's `config/production.json`, `secrets.json`), where `"apiKey": "…"` is the same setting;
 * Terraform's `.tf.json` is hashicorp-tf-password's.
 */
const CONFIG_PATHS =
  /(?:^|\/)(?:[^/]*\.(?:properties|ini|cfg|conf|cnf|ya?ml|toml|env|(?<!\.tf\.)json|json5|jsonc)|\.env(?:\.[^/]*)?|[^/]*\.env\.[^/]*)$/i;

const YAML_PATHS = /\.ya?ml$/i;

/** `user:` of a curl `-u`/`--user` argument inside a match. */
const CURL_USER = /(?:-u|--user)(?:=|[ \t]{1,4})["']?([^\s"':]{0,128}):/;

/** A URL, an ARN, a path, a dotted name or a file name: configuration values that are not secrets. */
const NOT_A_SECRET_VALUE = /^(?:[a-z][\w+.-]*:|[.~]?\/)|^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)+$/i;

/**
 * A package's version as lockfiles write it, with pnpm's peers after it: a dependency whose name
 * holds a secret's word (`'@inquirer/password': 5.1.2(@types/node@22.19.19)`, which every
 * pnpm-lock.yaml of a project with @inquirer/prompts has) names a package, not a password.
 */
const PACKAGE_VERSION = /^[~^=v]?\d+\.\d+\.\d+(?:[-+][\w.-]*)?(?:\(\S*\))?$/;

/**
 * What a schema or an API model says of a value rather than being one: a regex (anchored, with an
 * escape such as `\\d`, as JSON writes it, or a character class with a count) or a JMESPath to a
 * field (`Jobs[-1].JobId`), as AWS's models have under `"pattern"` and `"output_token"` beside
 * `SecretArn` and `NextToken` (2 of 7718 JSON files without this: botocore's; 0 with it).
 */
const DESCRIBES_A_VALUE =
  /^\^.*\$$|\\[\\dwsWDSbB.()[\]{}|*+?^$-]|\][+*?]|\]\{\d|^[A-Za-z_]\w*(?:\[-?\d*\*?\])?(?:\.[A-Za-z_]\w*(?:\[-?\d*\*?\])?)+$/;

/**
 * A name that holds a secret's word but names something about it: `secretName`, `secret_key_ref`,
 * `TOKEN_PATH`, `passwordPolicy`. Its value is a name, a path or a setting (`my-app-secret-v2`,
 * `projects/1/secrets/db/versions/latest`), however random it looks; `secret_key_base` or
 * `api_token` still name the value itself.
 */
const NAMES_ABOUT_A_SECRET =
  /(?:[_.-](?:name|ref|id|arn|path|file|url|uri|endpoint|type|length|expiry|ttl|policy|field|header|env|var)|(?:Name|Ref|Id|ID|Arn|ARN|Path|File|Url|URL|Uri|URI|Endpoint|Type|Length|Expiry|Ttl|TTL|Policy|Field|Header|Env|Var)|_(?:NAME|REF|ID|ARN|PATH|FILE|URL|URI|ENDPOINT|TYPE|LENGTH|EXPIRY|TTL|POLICY|FIELD|HEADER|ENV|VAR))s?["']?[ \t]{0,4}[:=]/;

/** The text of a base64 value when it decodes to printable text, else undefined. */
function decodeBase64Text(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return undefined;
  const text = Buffer.from(value, "base64").toString("latin1");
  return /^[\x20-\x7e]*$/.test(text) ? text : undefined;
}

/** A Basic credential (`Basic dXNlcjpwYXNz`) whose decoded `user:password` is a placeholder pair. */
function isPlaceholderBasic(encoded: string): boolean {
  const text = decodeBase64Text(encoded);
  if (text === undefined) return false;
  const colon = text.indexOf(":");
  return colon === -1 ? isPlaceholder(text) : isPlaceholderPair(text.slice(0, colon), text.slice(colon + 1));
}

/** Password-like names a configuration value is assigned to. */
const SECRET_NAMES = [
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "secret",
  "token",
  "api_key",
  "apikey",
  "api-key",
];

/** YAML line skipping that stays inside one document. */
const LINE = String.raw`(?!---)[^\r\n]{0,500}\r?\n`;
/** One `key: value` entry of a Secret's data; the value is group 1 of the entry (no template, no quote). */
const DATA_ENTRY = String.raw`[ \t]{1,12}["']?[\w.-]{1,253}["']?:[ \t]{0,4}(?:[|>][-+]?[ \t]{0,4}\r?\n[ \t]{1,16})?["']?((?![$<{])[^\s"'#]{6,4096})`;
/**
 * A Secret's `data:` and up to 20 indented lines before the entry. An indented line is one blank and
 * the rest of it: written as 1-12 blanks then any text, the text's own blanks could take a line's
 * indentation in as many ways as it has blanks, and a `data:` with no Secret near (a ConfigMap,
 * `normalize-package-data:` in a pnpm-lock.yaml) was tried in every combination over its 20 lines:
 * pnpm's own lockfile never finished scanning.
 */
const DATA_BLOCK = String.raw`(?:data|stringData):[ \t]{0,4}\r?\n(?:[ \t][^\r\n]{0,311}\r?\n){0,20}?${DATA_ENTRY}`;

export const PASSWORD_RULES: readonly ContentRule[] = [
  {
    id: "url-credentials",
    description: "Password in a URL (scheme://user:password@host)",
    keywords: ["://"],
    // User (1), password (2, differs from the user) and, looked ahead, the host (3).
    pattern:
      /:\/\/([^\s:@/?#[\]'"`<>\\]{0,128}):(?!\1@)([^\s:@/?[\]'"`<>\\]{4,256})@(?=([^\s@/"'`<>\\?#]{1,253}))/,
    secretGroup: 2,
    // A URL's user and password are percent-encoded: judged as they read (`user:pass%20pass`).
    reject: (secret, match) =>
      isPlaceholderPair(match[1], secret, match[3]) || isDecodedPlaceholderPair(match[1], secret, match[3]),
  },
  {
    id: "curl-auth-user",
    description: "Password in a curl -u/--user argument",
    keywords: ["curl"],
    pattern:
      /\bcurl\b(?:[^\r\n]|\\\r?\n){0,400}?[ \t](?:-u|--user)(?:=|[ \t]{1,4})(?:"[^"\r\n:]{0,128}:([^"\r\n]{3,256})"|'[^'\r\n:]{0,128}:([^'\r\n]{3,256})'|[^\s"':]{0,128}:([^\s"']{3,256}))/,
    reject: (secret, match) => isPlaceholderPair(CURL_USER.exec(match[0])?.[1], secret),
  },
  {
    id: "curl-auth-header",
    description: "Credential in a curl Authorization or API-key header",
    keywords: ["curl"],
    pattern:
      /\bcurl\b(?:[^\r\n]|\\\r?\n){0,400}?[ \t](?:-H|--header)(?:=|[ \t]{1,4})["']?(?:Authorization:[ \t]{0,5}(?:Basic|Bearer|Token|Api-Token)[ \t]{1,4}|(?:X-)?(?:Api-?Key|Auth-?Token|Access-?Token)[ \t]{0,3}:[ \t]{0,5})([\w=~@.+/-]{8,512})/i,
    entropy: 2.75,
    reject: (secret, match) =>
      isPlaceholder(secret) || (/Basic/i.test(match[0]) && isPlaceholderBasic(secret)),
  },
  {
    id: "config-password",
    description: "Password, secret or token with a random value in a configuration file",
    keywords: SECRET_NAMES,
    pattern: new RegExp(
      String.raw`(?:${SECRET_NAMES.map(anyCase).join("|")})[\w.-]{0,30}?["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([^\s"'#;,]{10,256})`,
    ),
    entropy: 3.2,
    reject: (secret, match) =>
      isPlaceholderOrWord(secret) ||
      NOT_A_SECRET_VALUE.test(secret) ||
      DESCRIBES_A_VALUE.test(secret) ||
      PACKAGE_VERSION.test(secret) ||
      NAMES_ABOUT_A_SECRET.test(match[0].slice(0, match[0].length - secret.length)),
    paths: CONFIG_PATHS,
  },
  {
    id: "hashicorp-tf-password",
    description: "Hard-coded password in Terraform/HCL",
    keywords: ["password", "passwd", "pwd"],
    pattern: /(?:password|passwd|pwd)"?[ \t]{0,8}[=:][ \t]{0,8}"((?:[^"\\\r\n]|\\.){6,256})"/i,
    entropy: 2.5,
    reject: isPlaceholder,
    paths: /\.(?:tf|tfvars|hcl|nomad)(?:\.json)?$/i,
  },
  {
    id: "kubernetes-secret-yaml",
    description: "Value in the data or stringData of a Kubernetes Secret manifest",
    keywords: ["kind:", "data:", "stringdata:"],
    // `kind: Secret` then the data, or the data then `kind: Secret` (kubectl writes keys in order).
    pattern: new RegExp(
      String.raw`kind:[ \t]{0,8}["']?Secret["']?[ \t]{0,8}\r?\n(?:${LINE}){0,60}?[ \t]{0,8}${DATA_BLOCK}|${DATA_BLOCK}["']?[ \t]{0,8}\r?\n(?:${LINE}){0,40}?kind:[ \t]{0,8}["']?Secret\b`,
    ),
    reject: (secret) => {
      const text = decodeBase64Text(secret);
      return isPlaceholder(secret) || (text !== undefined && (text.length < 4 || isPlaceholder(text)));
    },
    paths: YAML_PATHS,
  },
  {
    id: "nuget-config-password",
    description: "Password in a NuGet configuration",
    keywords: ["<add key="],
    pattern: /<add key="(?:ClearText)?Password"\s{1,8}value="([^"]{8,256})"/i,
    reject: isPlaceholder,
    paths: /(?:^|\/)nuget\.config$/i,
  },
  namedValue({
    id: "sidekiq-secret",
    description: "Sidekiq Pro/Enterprise gem server credentials",
    names: ["BUNDLE_ENTERPRISE__CONTRIBSYS__COM", "BUNDLE_GEMS__CONTRIBSYS__COM"],
    value: "[a-f0-9]{8}:[a-f0-9]{8}",
  }),
];
