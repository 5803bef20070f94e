// The credential formats the content scan looks for, as data in one place (ids follow gitleaks).
//
// Contract for every rule, relied on by the streaming scanner and checked by the rule tests:
// - every match STARTS with one of `keywords` (3 characters or more): the scanner finds all keywords
//   in one pass and tries a rule's regex only there. A keyword with an upper-case letter matches
//   exactly; an all-lower-case keyword matches in any case;
// - a match is at most MAX_MATCH_LENGTH characters (every quantifier is bounded), so a window overlap
//   of that size finds tokens split across chunks;
// - the secret is capture group `secretGroup`, or the first capture group that took part, or the match.
// Content is decoded as latin1 (one character per byte): patterns describe ASCII tokens.

export interface ContentRule {
  readonly id: string;
  readonly description: string;
  /** Where matches start: see the contract above. */
  readonly keywords: readonly string[];
  readonly pattern: RegExp;
  readonly secretGroup?: number;
  /** Minimum Shannon entropy (bits/char) of the secret; formats loose enough to match words need one. */
  readonly entropy?: number;
  /** Secret values that are not credentials: placeholders, variable references, one-case strings. */
  readonly reject?: RegExp;
  /** The rule applies only to paths matching this. */
  readonly paths?: RegExp;
}

export const MAX_MATCH_LENGTH = 12 * 1024;

/** `prefix` followed by each hex digit: keywords must have 3 characters at least. */
function hexKeywords(prefix: string, digits = "0123456789abcdefABCDEF"): string[] {
  return [...digits].map((digit) => prefix + digit);
}

/** Keywords with an upper-case letter are compared exactly, the others ignoring case. */
export function isExactKeyword(keyword: string): boolean {
  return /[A-Z]/.test(keyword);
}

/** Values that name or stand in for a password rather than being one. */
const PLACEHOLDER =
  /^(?:\$\w+|\$\(.*\)|%\w+%|%\(?\w*\)?[sdv]|<.*>|&lt;.*&gt;|\[.*\]|\{.*\}|\*+|x+|\.+|-+|_+|•+|(?:(?:your|my|the|some|a|an|example|sample|dummy|default|db|admin|user|super)[-_]?)?(?:password|passwd|pass|pwd|passphrase|secret|token|changeme|change[-_]?me|example|placeholder|redacted|hidden|dummy|test|testing|foo|bar|baz|guest|admin|root|default|none|null|nil|empty|todo|fixme|value|string|required))$|\$\{|\{\{|%\{/i;

/** Random keys mix cases; an all-lowercase or all-uppercase value is a word, a hex digest or a name. */
const ONE_CASE = /^[^A-Z]*$|^[^a-z]*$/;

export const CONTENT_RULES: readonly ContentRule[] = [
  {
    id: "aws-access-token",
    description: "AWS access key id",
    keywords: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    pattern: /\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b/,
    entropy: 3,
    reject: /EXAMPLE$/, // the documented AKIAIOSFODNN7EXAMPLE family
  },
  {
    id: "aws-secret-access-key",
    description: "AWS secret access key",
    keywords: ["aws", "secret", "AKIA", "ASIA"],
    // After an aws/secret key name (`aws_secret_access_key = `, `SecretAccessKey": "`), or within a
    // few characters after an access key id (`new BasicAWSCredentials("AKIA…", "…")`).
    pattern:
      /(?:aws|Aws|AWS|secret|Secret|SECRET)[\w.-]{0,40}["']?\s{0,4}(?:=>|:=|[:=])\s{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])|\b(?:AKIA|ASIA)[A-Z2-7]{16}\b[^A-Za-z0-9/+=\r\n]{1,40}?(?:[\w-]{1,40}\s{0,4}[:=]\s{0,4}["']?)?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/,
    entropy: 4.2,
    reject: /^[^A-Z]*$|^[^a-z]*$|^[^0-9]*$|EXAMPLE/,
  },
  {
    id: "github-pat",
    description: "GitHub personal access token",
    keywords: ["ghp_"],
    pattern: /\b(ghp_[A-Za-z0-9]{36,251})(?![A-Za-z0-9_])/,
    entropy: 3.5,
  },
  {
    id: "github-oauth",
    description: "GitHub OAuth access token",
    keywords: ["gho_"],
    pattern: /\b(gho_[A-Za-z0-9]{36,251})(?![A-Za-z0-9_])/,
    entropy: 3.5,
  },
  {
    id: "github-app-token",
    description: "GitHub App user-to-server or server-to-server token",
    keywords: ["ghu_", "ghs_"],
    pattern: /\b(gh[us]_[A-Za-z0-9]{36,251})(?![A-Za-z0-9_])/,
    entropy: 3.5,
  },
  {
    id: "github-refresh-token",
    description: "GitHub refresh token",
    keywords: ["ghr_"],
    pattern: /\b(ghr_[A-Za-z0-9]{36,251})(?![A-Za-z0-9_])/,
    entropy: 3.5,
  },
  {
    id: "github-fine-grained-pat",
    description: "GitHub fine-grained personal access token",
    keywords: ["github_pat_"],
    pattern: /\b(github_pat_[A-Za-z0-9_]{60,251})(?![A-Za-z0-9_])/,
    entropy: 3.5,
  },
  {
    id: "gitlab-pat",
    description: "GitLab personal access token",
    keywords: ["glpat-"],
    pattern: /\b(glpat-[A-Za-z0-9_-]{20,80}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?)(?![A-Za-z0-9_.-])/,
    entropy: 3,
  },
  {
    id: "gitlab-token",
    description: "GitLab deploy, runner, trigger, CI job, feed, incoming mail or OAuth token",
    keywords: ["gldt-", "glrt-", "glptt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-"],
    pattern:
      /\b((?:gldt|glrt|glptt|glcbt|glft|glimt|glagent|gloas|glsoat)-[A-Za-z0-9_-]{20,80}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?)(?![A-Za-z0-9_.-])/,
    entropy: 3,
  },
  {
    id: "slack-token",
    description: "Slack bot, user, app-level, configuration or refresh token",
    keywords: ["xox"],
    pattern: /\b(xox[abeoprs]-(?:[0-9]{1,16}-){1,4}[A-Za-z0-9][A-Za-z0-9-]{15,255})(?![A-Za-z0-9-])/,
    entropy: 3,
  },
  {
    id: "slack-app-token",
    description: "Slack app-level token",
    keywords: ["xapp-"],
    pattern: /\b(xapp-\d-[A-Z0-9]{6,16}-\d{6,16}-[a-z0-9]{32,80})(?![A-Za-z0-9])/i,
    entropy: 3,
  },
  {
    id: "slack-webhook-url",
    description: "Slack incoming webhook URL",
    keywords: ["hooks.slack.com"],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/+-]{30,160})/,
    entropy: 3,
  },
  {
    id: "stripe-access-token",
    description: "Stripe live secret or restricted key",
    keywords: ["sk_live_", "rk_live_"],
    pattern: /\b([sr]k_live_[A-Za-z0-9]{16,247})(?![A-Za-z0-9])/,
    entropy: 3,
  },
  {
    id: "gcp-api-key",
    description: "Google API key",
    keywords: ["AIza"],
    pattern: /\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/,
    entropy: 3.5,
  },
  {
    id: "gcp-service-account",
    description: "Google service-account key (JSON with a private key)",
    keywords: ['"type"', '"private_key"'],
    pattern:
      /"type"\s{0,8}:\s{0,8}"service_account"[\s\S]{0,4000}?"private_key"\s{0,8}:\s{0,8}"-----BEGIN[ A-Z]{0,40}PRIVATE KEY-----(?:\\[rn]|\s){1,8}([A-Za-z0-9+/=]{32,128})|"private_key"\s{0,8}:\s{0,8}"-----BEGIN[ A-Z]{0,40}PRIVATE KEY-----(?:\\[rn]|\s){1,8}([A-Za-z0-9+/=]{32,128})[\s\S]{0,4000}?"type"\s{0,8}:\s{0,8}"service_account"/,
    entropy: 3.5,
  },
  {
    id: "gcp-oauth-client-secret",
    description: "Google OAuth client secret",
    keywords: ["GOCSPX-"],
    pattern: /\b(GOCSPX-[A-Za-z0-9_-]{24,40})(?![A-Za-z0-9_-])/,
    entropy: 3,
  },
  {
    id: "openai-api-key",
    description: "OpenAI API key",
    keywords: ["sk-"],
    pattern:
      /\b(sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{16,200}T3BlbkFJ[A-Za-z0-9_-]{16,200}|sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
  },
  {
    id: "anthropic-api-key",
    description: "Anthropic API or admin key",
    keywords: ["sk-ant-"],
    pattern: /\b(sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{32,200})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
  },
  {
    id: "sendgrid-api-token",
    description: "SendGrid API key",
    keywords: ["SG."],
    pattern: /\b(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
  },
  {
    id: "twilio-api-key",
    description: "Twilio API key",
    keywords: hexKeywords("SK"),
    pattern: /\b(SK[0-9a-fA-F]{32})\b/,
    entropy: 3,
  },
  {
    id: "twilio-auth-token",
    description: "Twilio auth token (next to an account SID or a twilio auth token name)",
    keywords: [...hexKeywords("AC", "0123456789abcdef"), "twilio"],
    pattern:
      /\bAC[0-9a-f]{32}\b[^0-9a-f]{1,40}?(?:[\w-]{1,40}\s{0,4}[:=]\s{0,4}["']?)?\b([0-9a-f]{32})\b|(?:twilio|Twilio|TWILIO)[\w.-]{0,30}?(?:token|Token|TOKEN)["']?\s{0,4}(?:=>|[:=])\s{0,4}["']?([0-9a-f]{32})\b/,
    entropy: 3,
  },
  {
    id: "npm-access-token",
    description: "npm access token",
    keywords: ["npm_"],
    pattern: /\b(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])/,
    entropy: 3.5,
    reject: /^npm_[^0-9]*$/,
  },
  {
    id: "npm-auth-token",
    description: "npm registry auth token in .npmrc",
    keywords: ["_authtoken"],
    pattern: /_authToken\s{0,4}=\s{0,4}["']?([A-Za-z0-9_.+/=-]{20,512})/,
    entropy: 3,
  },
  {
    id: "pypi-upload-token",
    description: "PyPI upload token",
    keywords: ["pypi-"],
    pattern: /\b(pypi-[A-Za-z0-9_-]{32,1000})(?![A-Za-z0-9_-])/,
    entropy: 3.8,
    reject: /^pypi-(?:[^A-Z]*|[^a-z]*|[^0-9]*)$/,
  },
  {
    id: "vault-token",
    description: "HashiCorp Vault service, batch or recovery token",
    keywords: ["hvs.", "hvb.", "hvr.", "vault"],
    // hvs./hvb./hvr. are unambiguous; the legacy `s.` + 24 form needs a vault name on the same line.
    pattern:
      /\b(hv[sbr]\.[A-Za-z0-9_-]{24,300})(?![A-Za-z0-9_-])|(?:vault|Vault|VAULT)[^\r\n]{0,80}?\b(s\.[A-Za-z0-9]{24})(?![A-Za-z0-9_.-])/,
    entropy: 3.5,
    reject: ONE_CASE,
  },
  {
    id: "hashicorp-tf-password",
    description: "Hard-coded password in Terraform/HCL",
    keywords: ["password", "passwd", "pwd"],
    pattern: /(?:password|passwd|pwd)"?[ \t]{0,8}[=:][ \t]{0,8}"((?:[^"\\\r\n]|\\.){6,256})"/i,
    entropy: 2.5,
    reject: PLACEHOLDER,
    paths: /\.(?:tf|tfvars|hcl|nomad)(?:\.json)?$/i,
  },
  {
    id: "private-key",
    description: "Private key block",
    keywords: ["-----BEGIN", "---- BEGIN"],
    // The header alone appears in PEM parsers; a key needs its body (armor headers such as
    // Proc-Type/DEK-Info/Version may come between). `\n` may be written escaped, as in JSON.
    pattern:
      /((?:-----BEGIN|---- BEGIN)[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?(?:-----| ----)(?:(?:\s|\\[rn]){1,8}[A-Za-z][\w-]{0,40}:[ \t][^\r\n\\]{0,200}){0,8}(?:\s|\\[rn]){1,8}[A-Za-z0-9+/=]{32,256})/,
    entropy: 3.5,
  },
  {
    id: "private-key-base64",
    description: "Base64-encoded private key block (kubeconfig client-key-data, Kubernetes secrets)",
    keywords: ["LS0tLS1CRUdJTi"],
    // base64("-----BEGIN ") then base64("PRIVATE KEY") at any of its three alignments.
    pattern:
      /\b(LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,60}?(?:UFJJVkFURSBLRV|BSSVZBVEUgS0VZ|QUklWQVRFIEtFW)[A-Za-z0-9+/]{64,256})/,
    entropy: 4,
  },
  {
    id: "putty-private-key",
    description: "PuTTY private key",
    keywords: ["PuTTY-User-Key-File-"],
    pattern:
      /PuTTY-User-Key-File-\d{1,2}:[\s\S]{0,4000}?Private-Lines:[ \t]{0,4}\d{1,4}\r?\n([A-Za-z0-9+/=]{32,256})/,
    entropy: 3.5,
  },
  {
    id: "jwt",
    description: "JSON Web Token",
    keywords: ["eyJ", "eyA"],
    pattern:
      /\b(ey[JA][A-Za-z0-9_-]{12,1024}\.ey[JA][A-Za-z0-9_-]{12,8192}\.[A-Za-z0-9_-]{16,1024}={0,2})(?![A-Za-z0-9_=-])/,
    entropy: 3,
  },
  {
    id: "url-credentials",
    description: "Password in a URL (scheme://user:password@host)",
    keywords: ["://"],
    // The password (group 2) must differ from the user (`guest:guest@`) and be no placeholder or
    // variable reference (`:${DB_PASSWORD}@`, `:<password>@`, `:%s@`, `:****@`).
    pattern: /:\/\/([^\s:@/?#[\]'"`<>\\]{0,128}):(?!\1@)([^\s:@/?[\]'"`<>\\]{4,256})@(?=[^\s@/"'`<>\\])/,
    secretGroup: 2,
    reject: PLACEHOLDER,
  },
  {
    id: "azure-storage-account-key",
    description: "Azure storage account key",
    keywords: ["AccountKey"],
    pattern: /AccountKey\s{0,4}=\s{0,4}([A-Za-z0-9+/]{86}==)/,
    entropy: 4,
  },
  {
    id: "digitalocean-token",
    description: "DigitalOcean personal access, OAuth or refresh token",
    keywords: ["dop_v1_", "doo_v1_", "dor_v1_"],
    pattern: /\b(do[opr]_v1_[a-f0-9]{64})\b/,
    entropy: 3,
  },
  {
    id: "huggingface-access-token",
    description: "Hugging Face access token",
    keywords: ["hf_"],
    pattern: /\b(hf_[A-Za-z]{34})\b/,
    entropy: 4,
    reject: /^hf_(?:[^A-Z]*|[^a-z]*)$/,
  },
  {
    id: "shopify-token",
    description: "Shopify access, custom app, private app or shared secret token",
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    pattern: /\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b/,
    entropy: 3,
  },
];
