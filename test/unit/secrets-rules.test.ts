import { describe, expect, test } from "vitest";
import { CONTENT_RULES, isExactKeyword, MAX_MATCH_LENGTH } from "../../src/secrets/content-rules.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import {
  ALNUM,
  BASE32,
  BASE64,
  BASE64URL,
  fake,
  fakeChars,
  HEX,
  SAMPLE_JWTS,
} from "../fixtures/secrets/fake-tokens.js";
import { PASSWORD_VECTORS } from "../fixtures/secrets/password-vectors.js";
import { PROVIDER_VECTORS, type RuleCases } from "../fixtures/secrets/rule-vectors.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");
/** A `${NAME}` variable reference, as shells, Compose, Terraform and JS templates write it. */
const ref = (name: string) => `\${${name}}`;

/** Per rule: texts that must give a finding of that rule, and near misses that must give no finding. */
const LOCAL_CASES: Record<string, RuleCases> = {
  "aws-access-token": {
    positive: [
      `export const accessKeyId = "${fake.awsKeyId()}";`,
      `aws_access_key_id=${fake.awsSessionKeyId(2)}`,
      `{"AccessKeyId":"${fake.awsKeyId(3)}"}`,
    ],
    negative: [
      `id = "${fake.awsKeyId().slice(0, 19)}"`,
      `id = "${fake.awsKeyId()}X"`,
      `id = "AK${"IA"}IOSFODNN7${"EXAMPLE"}"`,
      `id = "AK${"IA"}${"X".repeat(16)}"`,
      `id = "${fake.awsKeyId().toLowerCase()}"`,
    ],
  },
  "aws-secret-access-key": {
    positive: [
      `aws_secret_access_key = ${fake.awsSecret()}`,
      `  AWS_SECRET_ACCESS_KEY: "${fake.awsSecret(2)}"`,
      `{"SecretAccessKey": "${fake.awsSecret(3)}"}`,
      `secretAccessKey: '${fake.awsSecret(4)}',`,
      `new BasicAWSCredentials("${fake.awsKeyId()}", "${fake.awsSecret(5)}");`,
    ],
    negative: [
      `aws_secret_access_key = ${fakeChars(HEX, 40)}`,
      `aws_secret_access_key = \${AWS_SECRET_ACCESS_KEY}`,
      "secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,",
      `const digest = "${fake.awsSecret()}";`,
      `aws_secret_access_key = ${fake.awsSecret()}QQ`,
      'secret_path = "src/main/java/com/example/app/config/aws"',
      `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY${"EXAMPLE"}KEY`,
    ],
  },
  "github-pat": {
    positive: [`GITHUB_TOKEN=${fake.githubPat()}`, `git clone https://${fake.githubPat(2)}@github.com/o/r`],
    negative: [`t = "${fake.githubPat().slice(0, 39)}"`, `t = "gh${"p_"}${"x".repeat(36)}"`],
  },
  "github-oauth": {
    positive: [`token: ${fake.githubOauth()}`],
    negative: [`token: ${fake.githubOauth().slice(0, 30)}`],
  },
  "github-app-token": {
    positive: [`Authorization: token ${fake.githubServer()}`],
    negative: [`Authorization: token gh${"s_"}${"0".repeat(36)}`],
  },
  "github-refresh-token": {
    positive: [`refresh_token=${fake.githubRefresh()}`],
    negative: [`refresh_token=gh${"r_"}short`],
  },
  "github-fine-grained-pat": {
    positive: [`GH_TOKEN="${fake.githubFineGrained()}"`],
    negative: [`GH_TOKEN="git${"hub_pat_"}${fakeChars(ALNUM, 20)}"`],
  },
  "gitlab-pat": {
    positive: [`GITLAB_TOKEN=${fake.gitlabPat()}`, `"text":["token ${fake.gitlabPat(2)}"]`],
    negative: [`GITLAB_TOKEN=${fake.gitlabPat().slice(0, 24)}`, `GITLAB_TOKEN=gl${"pat-"}${"x".repeat(20)}`],
  },
  "gitlab-token": {
    positive: [`deploy_token: ${fake.gitlabDeploy()}`],
    negative: [`deploy_token: gl${"dt-"}tooshort`],
  },
  "slack-token": {
    positive: [`SLACK_BOT_TOKEN=${fake.slackBot()}`, `token = "${fake.slackUser()}"`],
    negative: [
      `SLACK_BOT_TOKEN=xo${"xb-"}your-bot-token-here`,
      `SLACK_BOT_TOKEN=xo${"xb-"}0000000000-0000000000-${"x".repeat(24)}`,
    ],
  },
  "slack-app-token": {
    positive: [`SLACK_APP_TOKEN=${fake.slackApp()}`],
    negative: [`SLACK_APP_TOKEN=xa${"pp-"}1-your-app-token`],
  },
  "slack-webhook-url": {
    positive: [`WEBHOOK = '${fake.slackWebhook()}'`],
    negative: [
      `url: https://hooks.sl${"ack.com"}/services/T00000000/B00000000/${"X".repeat(24)}`,
      `see https://hooks.sl${"ack.com"}/services/ for details`,
    ],
  },
  "stripe-access-token": {
    positive: [`stripe.api_key = "${fake.stripeLive()}"`, `STRIPE_KEY=${fake.stripeRestricted()}`],
    negative: [
      `stripe.api_key = "sk_t${"est_"}${fakeChars(ALNUM, 24)}"`,
      `stripe.api_key = "sk_l${"ive_"}${"x".repeat(24)}"`,
      `stripe.api_key = "sk_l${"ive_"}abc"`,
    ],
  },
  "gcp-api-key": {
    positive: [`const firebase = { apiKey: "${fake.googleApiKey()}" };`],
    negative: [`apiKey: "${fake.googleApiKey().slice(0, 30)}"`],
  },
  "gcp-service-account": {
    positive: [
      JSON.stringify(
        {
          type: "service_account",
          project_id: "fake-project",
          private_key_id: fakeChars(HEX, 40),
          private_key: fake.pemKey(""),
          client_email: "fake@fake-project.iam.gserviceaccount.com",
        },
        null,
        2,
      ),
    ],
    negative: [
      JSON.stringify({ type: "service_account", project_id: "fake-project", private_key: "" }, null, 2),
      'Download a key with "type": "service_account" from the console.',
    ],
  },
  "gcp-oauth-client-secret": {
    positive: [`{"client_secret":"${fake.gcpClientSecret()}"}`],
    negative: [`{"client_secret":"GOC${"SPX-"}short"}`],
  },
  "openai-api-key": {
    positive: [
      `export const OPENAI_KEY = "${fake.openaiLegacy()}";`,
      `OPENAI_API_KEY=${fake.openaiProject()}`,
    ],
    negative: [
      '<div class="sk-spinner sk-fading-circle sk-proj-card"></div>',
      `.sk-${fakeChars(ALNUM, 48)} { color: red; }`,
      `const key = \`sk-${ref("prefix")}-${ref("suffix")}\`;`,
    ],
  },
  "anthropic-api-key": {
    positive: [`ANTHROPIC_API_KEY=${fake.anthropic()}`],
    negative: [`ANTHROPIC_API_KEY=sk-a${"nt-api03-"}${"x".repeat(95)}`, `model = "sk-a${"nt-"}docs"`],
  },
  "sendgrid-api-token": {
    positive: [`SENDGRID_API_KEY=${fake.sendgrid()}`],
    negative: [
      "const SG = require('sg'); SG.setApiKey(key);",
      `SG.${fakeChars(ALNUM, 10)}.${fakeChars(ALNUM, 10)}`,
    ],
  },
  "twilio-api-key": {
    positive: [`export const TWILIO_API_KEY = "${fake.twilioApiKey()}";`],
    negative: [
      `sku: "S${"K"}${fakeChars(HEX, 31)}"`,
      `sku: "S${"K"}${"0".repeat(32)}"`,
      `id: "${fakeChars(HEX, 8)}-${fakeChars(HEX, 4)}-${fakeChars(HEX, 4)}-${fakeChars(HEX, 4)}-${fakeChars(HEX, 12)}"`,
    ],
  },
  "twilio-auth-token": {
    positive: [
      `client = Client("${fake.twilioSid()}", "${fake.hex32(2)}")`,
      `account_sid = '${fake.twilioSid()}'\nauth_token = '${fake.hex32(3)}'`,
      `TWILIO_AUTH_TOKEN=${fake.hex32(4)}`,
    ],
    negative: [
      `account_sid = '${fake.twilioSid()}'`,
      `TWILIO_AUTH_TOKEN=${ref("TWILIO_AUTH_TOKEN")}`,
      `checksum = "${fake.hex32(5)}"`,
    ],
  },
  "npm-access-token": {
    positive: [`    NPM_TOKEN=${fake.npm()} npm publish`, `//registry.npmjs.org/:_authToken=${fake.npm(2)}`],
    negative: [
      "echo $npm_config_user_agent $npm_package_version",
      `np${"m_"}${fakeChars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 36)}`,
    ],
  },
  "npm-auth-token": {
    positive: [
      `//npm.example.com/:_authToken=${fakeChars(HEX, 8)}-${fakeChars(HEX, 4)}-${fakeChars(HEX, 4)}-${fakeChars(HEX, 12)}`,
    ],
    negative: [`//registry.npmjs.org/:_authToken=${ref("NPM_TOKEN")}`],
  },
  "pypi-upload-token": {
    positive: [`password = ${fake.pypi()}`, `TWINE_PASSWORD=${fake.pypiShort()}`],
    negative: ["pip install pypi-simple-index-mirror-for-ci-jobs", `py${"pi-"}short`],
  },
  "vault-token": {
    positive: [
      `${fake.vaultService()}\n`,
      `VAULT_TOKEN=${fake.vaultBatch()}`,
      `export VAULT_TOKEN="${fake.vaultLegacy()}"`,
      `vault login ${fake.vaultLegacy(2)}`,
    ],
    negative: [
      `const t = ${fake.vaultLegacy()};`,
      "VAULT_ADDR=https://vault.example.com:8200",
      `VAULT_TOKEN=hv${"s."}short`,
      `vault.read(path); this.${"a".repeat(24)}`,
    ],
  },
  "hashicorp-tf-password": {
    path: "terraform/modules/db/main.tf",
    positive: [
      `resource "aws_db_instance" "db" {\n  username = "app"\n  password = "${fake.password()}"\n}`,
      `  master_password = "${fake.password(2)}"`,
      `admin_password="${fake.password(3)}"`,
    ],
    negative: [
      "  password = var.db_password",
      `  password = "${ref("var.db_password")}"`,
      `  password = "${ref("random_password.db.result")}"`,
      '  password = ""',
      '  password = "changeme"',
      '  password = "<password>"',
      "  password_length = 16",
      '  password_policy = "strict-policy-name"',
    ],
  },
  "private-key": {
    positive: [
      fake.pemKey("RSA "),
      fake.pemKey("EC ", 2),
      fake.pemKey("DSA ", 3),
      fake.pemKey("OPENSSH ", 4),
      fake.pemKey("ENCRYPTED ", 5),
      fake.pemKey("", 6),
      `-----BEG${"IN RSA "}PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${fakeChars(HEX, 32).toUpperCase()}\n\n${fake.privateKeyBody(7)}\n`,
      `-----BEG${"IN PGP "}PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${fake.privateKeyBody(8)}\n`,
      `{"private_key": "-----BEG${"IN PRIVATE "}KEY-----\\n${fakeChars(BASE64, 64, 9)}\\n"}`,
      `key: |\n  -----BEG${"IN RSA "}PRIVATE KEY-----\n  ${fakeChars(BASE64, 64, 10)}\n`,
    ],
    negative: [
      `if (pem.startsWith("-----BEG${"IN RSA "}PRIVATE KEY-----")) return parse(pem);`,
      `-----BEG${"IN RSA "}PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----`,
      `-----BEG${"IN PUBLIC "}KEY-----\n${fake.privateKeyBody()}\n-----END PUBLIC KEY-----`,
      `-----BEG${"IN CERTIFICATE"}-----\n${fake.privateKeyBody()}\n-----END CERTIFICATE-----`,
      `-----BEG${"IN RSA "}PRIVATE KEY-----\n${"A".repeat(64)}\n`,
    ],
  },
  "private-key-base64": {
    positive: [`    client-key-data: ${b64(fake.pemKey("RSA "))}`, `  tls.key: ${b64(fake.pemKey("", 2))}`],
    negative: [`  tls.crt: ${b64(`-----BEG${"IN CERTIFICATE"}-----\n${fake.privateKeyBody()}\n`)}`],
  },
  "putty-private-key": {
    positive: [
      `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: fake\nPublic-Lines: 1\n${fakeChars(BASE64, 64)}\nPrivate-Lines: 1\n${fakeChars(BASE64, 64, 2)}\n`,
    ],
    negative: ["PuTTY-User-Key-File-3 is the header of a .ppk file."],
  },
  jwt: {
    positive: [
      `{"user":"fake","token":"${fake.jwt()}"}`,
      `Authorization: Bearer ${fake.jwt(2)}`,
      // A documentation sample's header and payload under another key: a token like any other.
      `token: ${SAMPLE_JWTS[0]?.replace(/\.[^.]*$/, `.${fakeChars(BASE64URL, 43)}`)}`,
    ],
    negative: [
      ...SAMPLE_JWTS.map((token) => `Authorization: Bearer ${token}`),
      `const header = "${fake.jwt().split(".")[0]}";`,
      `token = "${fake.jwt().split(".").slice(0, 2).join(".")}."`,
      "const keyJsonObject = parseKeyJson(value);",
    ],
  },
  "url-credentials": {
    positive: [
      `DATABASE_URL=postgres://app:${fake.password()}@db.internal.example.com:5432/app`,
      `    psql postgres://app_user:${fake.password(2)}@db.example.com/app`,
      `redis://:${fake.password(3)}@cache.example.com:6379/0`,
      `amqp://deploy:${fake.password(4)}@\${RABBIT_HOST}/vhost`,
      `git remote add origin https://x-access-token:${fake.password(5)}@github.com/o/r.git`,
      `mongodb+srv://admin:Xy7#${fake.password(6)}@cluster0.example.mongodb.net/db`,
      `https://user:pass%20${fake.password(7)}@complex.url.com/path`,
      // A random password with `${` or braces in it, percent-encoded: no template once decoded.
      `postgres://app:Xk9%24%7B${fake.password(8)}@db.internal/app`,
      `postgres://app:%7B${fake.password(9)}%7D@db.internal/app`,
      `redis://:%3C${fake.password(10)}%3E@cache.internal:6379`,
    ],
    negative: [
      "git clone https://user@github.com/org/repo.git",
      "git clone git@github.com:org/repo.git",
      `DATABASE_URL=postgres://app:${ref("DB_PASSWORD")}@db:5432/app`,
      "DATABASE_URL=postgres://app:$DB_PASSWORD@db:5432/app",
      "mysql://root:password@localhost:3306/test",
      "https://username:<password>@example.com",
      "amqp://guest:guest@localhost:5672",
      "redis://:****@localhost:6379",
      "https://user:xxxx@host.example.com",
      "http://localhost:8080/@scope/package",
      "http://localhost:3000?redirect=user@example.com",
      'fmt.Sprintf("postgres://%s:%s@%s/%s", user, pass, host, db)',
      'f"postgres://{user}:{password}@{host}/{db}"',
      `\`postgres://${ref("user")}:${ref("password")}@${ref("host")}\``,
      "mongodb://{{ .Values.user }}:{{ .Values.password }}@mongo",
      "postgres://postgres:changeme@localhost/db",
      "&lt;protocol&gt;://[&lt;user&gt;[:&lt;password&gt;]@]&lt;hostname&gt;",
      "  cvs://:pserver:anoncvs@sources.example.org:/cvs/src",
      // A URL parser's test samples (requests' test_utils.py): placeholders, percent-encoded.
      '("http://user:pass%20pass@complex.url.com/path?query=yes", ("user", "pass pass")),',
      '"http://user:pass%23pass@complex.url.com/path?query=yes",',
      "https://user%40corp:test-secret@api.internal/v1",
    ],
  },
  "azure-storage-account-key": {
    positive: [
      `DefaultEndpointsProtocol=https;AccountName=fake;AccountKey=${fake.azureAccountKey()};EndpointSuffix=core.windows.net`,
    ],
    negative: ["DefaultEndpointsProtocol=https;AccountName=fake;AccountKey=<key>;"],
  },
  "digitalocean-token": {
    positive: [`DIGITALOCEAN_TOKEN=${fake.digitalocean()}`],
    negative: [`DIGITALOCEAN_TOKEN=do${"p_v1_"}${fakeChars(HEX, 20)}`],
  },
  "huggingface-access-token": {
    positive: [`HF_TOKEN=${fake.huggingface()}`],
    negative: [
      "from huggingface_hub import hf_hub_download",
      `h${"f_"}${"abcdefghijklmnopqrstuvwxyzabcdefgh"}`,
    ],
  },
  "shopify-token": {
    positive: [`SHOPIFY_ACCESS_TOKEN=${fake.shopify()}`],
    negative: [`SHOPIFY_ACCESS_TOKEN=shp${"at_"}${fakeChars(HEX, 20)}`],
  },
};

/** The cases of every source, concatenated per rule. */
function mergeCases(...sources: Record<string, RuleCases>[]): Record<string, RuleCases> {
  const merged: Record<string, RuleCases> = {};
  for (const source of sources) {
    for (const [id, cases] of Object.entries(source)) {
      const into = merged[id] ?? { positive: [], negative: [] };
      merged[id] = {
        path: into.path ?? cases.path,
        positive: [...into.positive, ...cases.positive],
        negative: [...into.negative, ...cases.negative],
      };
    }
  }
  return merged;
}

const CASES = mergeCases(LOCAL_CASES, PROVIDER_VECTORS, PASSWORD_VECTORS);
const scanner = createContentScanner();
const rulesIn = (path: string, text: string) => scanner.scanText(path, text).map((finding) => finding.rule);

describe("content rules", () => {
  test("every rule has positive and negative cases", () => {
    expect(Object.keys(CASES).sort()).toEqual(CONTENT_RULES.map((rule) => rule.id).sort());
    for (const cases of Object.values(CASES)) {
      expect(cases.positive.length).toBeGreaterThan(0);
      expect(cases.negative.length).toBeGreaterThan(0);
    }
  });

  test("rule ids are unique", () => {
    const ids = CONTENT_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("keywords have 3 characters at least and every quantifier is bounded", () => {
    for (const rule of CONTENT_RULES) {
      for (const keyword of rule.keywords) expect(keyword.length, rule.id).toBeGreaterThanOrEqual(3);
      expect(unboundedQuantifiers(rule.pattern.source), rule.id).toEqual([]);
    }
  });

  for (const rule of CONTENT_RULES) {
    const cases = CASES[rule.id] ?? { positive: [], negative: [] };
    const path = cases.path ?? "src/app.ts";

    test.each(cases.positive.map((text, index) => [index, text]))(
      `${rule.id} finds positive case %i`,
      (_, text) => {
        expect(rulesIn(path, text)).toContain(rule.id);
      },
    );

    test.each(cases.negative.map((text, index) => [index, text]))(
      `${rule.id} finds nothing in negative case %i`,
      (_, text) => {
        expect(rulesIn(path, text)).toEqual([]);
      },
    );

    test(`${rule.id} matches start with one of its keywords and stay short`, () => {
      const global = new RegExp(rule.pattern.source, `${rule.pattern.flags}g`);
      for (const text of cases.positive) {
        const matches = [...text.matchAll(global)];
        expect(matches.length, text).toBeGreaterThan(0);
        for (const match of matches) {
          expect(startsWithKeyword(text, match.index, rule.keywords), match[0]).toBe(true);
          expect(match[0].length).toBeLessThanOrEqual(MAX_MATCH_LENGTH);
        }
      }
    });
  }

  test("hashicorp-tf-password applies to Terraform and HCL files only", () => {
    const line = `  password = "${fake.password()}"`;
    for (const path of ["main.tf", "prod.tfvars", "nomad/job.hcl", "infra/x.tf.json"]) {
      expect(rulesIn(path, line), path).toEqual(["hashicorp-tf-password"]);
    }
    for (const path of ["settings.py", "main.tf.bak", "docs/terraform.md"])
      expect(rulesIn(path, line), path).toEqual([]);
  });

  test("ordinary code gives no finding", () => {
    const ordinary = [
      `const id = "${fakeChars(HEX, 8)}-${fakeChars(HEX, 4)}-4${fakeChars(HEX, 3)}-a${fakeChars(HEX, 3)}-${fakeChars(HEX, 12)}";`,
      `commit ${fakeChars(HEX, 40)}`,
      `tree ${fakeChars(HEX, 64)}`,
      `"integrity": "sha512-${fakeChars(BASE64, 86)}==",`,
      `"integrity": "sha1-${fakeChars(BASE64, 27)}=",`,
      `.sk-${fakeChars("abcdefghij", 8)} { animation: sk-bounce 2s infinite; }`,
      'password = ""',
      "  password: process.env.DB_PASSWORD,",
      'const secretName = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:app";',
      `const digest = createHash("sha256").update(secret).digest("base64"); // ${fakeChars(BASE64, 44)}`,
      `const AKIA_PATTERN = /AKIA[A-Z2-7]{16}/; // ${fakeChars(BASE32, 30)}`,
      "export const environment = { production: false, apiBase: '/api' };",
      `  host: db\n  password: ${ref("DB_PASSWORD")}`,
    ];
    for (const text of ordinary) expect(rulesIn("src/app.ts", text), text).toEqual([]);
  });
});

function startsWithKeyword(text: string, at: number, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => {
    const here = text.slice(at, at + keyword.length);
    return isExactKeyword(keyword) ? here === keyword : here.toLowerCase() === keyword;
  });
}

/** `*`, `+` and `{n,}` outside character classes and escapes. */
function unboundedQuantifiers(source: string): string[] {
  const found: string[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "*" || c === "+") found.push(`${c} at ${i}`);
    else if (c === "{" && /^\{\d+,\}/.test(source.slice(i))) found.push(`{n,} at ${i}`);
  }
  return found;
}

describe("config-password in JSON configuration", () => {
  test.each([
    [
      "config/production.json",
      `{\n  "db": { "host": "db.internal", "password": "${fake.password(11)}" }\n}\n`,
    ],
    ["appsettings.json", `{\n  "AzureAd": {\n    "ClientSecret": "${fakeChars(ALNUM, 34, 12)}"\n  }\n}\n`],
    ["secrets.json", `{"stripe":{"apiKey":"${fakeChars(ALNUM, 32, 13)}"}}`],
    [".vscode-test/settings.jsonc", `{\n  // local\n  "api_key": "${fakeChars(HEX, 40, 14)}"\n}\n`],
  ])("finds the value of a secret's name in %s", (path, text) => {
    expect(rulesIn(path, text)).toContain("config-password");
  });

  test.each([
    [
      "botocore/service-2.json",
      '"pattern":"^arn:aws:secretsmanager:[a-zA-Z0-9-:]+:secret:ecr\\\\-cache\\\\/[a-z]+$"',
    ],
    [
      "botocore/service-2.json",
      '"pattern":"arn:[a-z\\\\d-]+:secretsmanager:[a-z0-9-]+:[0-9]+:secret:[a-zA-Z0-9_.-]+"',
    ],
    [
      "botocore/paginators-1.json",
      '"input_token": "NextToken",\n"output_token": "StreamDescription.Shards[-1].ShardId"',
    ],
    [
      "package-lock.json",
      '"node_modules/js-tokens": {\n  "version": "4.0.0",\n  "resolved": "https://registry.npmjs.org/js-tokens/-/js-tokens-4.0.0.tgz"\n}',
    ],
    [
      "locales/en.json",
      '{"password_reset_token_expired": "Your reset link has expired", "secretQuestion": "Question"}',
    ],
    [
      "config/app.json",
      '{"tokenExpiry": "3600", "passwordPolicy": "strong", "secretName": "my-app-secret-v2"}',
    ],
    ["config/default.json", `{"apiKey": "\${API_KEY}", "clientSecret": "<your-client-secret>", "token": ""}`],
  ])("leaves what only looks like one in %s", (path, text) => {
    expect(rulesIn(path, text)).toEqual([]);
  });
});

describe("YAML that only looks like a secret's", () => {
  test("a pnpm-lock.yaml names @inquirer/password with its version and peers: a package", () => {
    const lock = [
      "  '@inquirer/prompts@7.8.6(@types/node@22.19.19)':",
      "    dependencies:",
      "      '@inquirer/password': 5.1.2(@types/node@22.19.19)",
      "      '@inquirer/confirm': 5.1.18(@types/node@22.19.19)",
      "",
    ].join("\n");
    expect(rulesIn("pnpm-lock.yaml", lock)).toEqual([]);
    expect(rulesIn("config/app.yaml", `password: ${fake.password()}\n`)).toEqual(["config-password"]);
  });

  test("a data: key followed by many indented lines and no Secret is read to its end", () => {
    // A ConfigMap, or pnpm-lock.yaml's normalize-package-data:, where the lines' own blanks once
    // let the Secret rule split each line's indentation every way, 20 lines deep: it never ended.
    const lines = (indent: number) => `${" ".repeat(indent)}specifier: ^4.0.8\n`.repeat(40);
    for (const indent of [2, 6, 12]) {
      const text = `kind: ConfigMap\ndata:\n${lines(indent)}    normalize-package-data:\n${lines(indent)}`;
      expect(rulesIn("deploy/configmap.yaml", text), `indent ${indent}`).toEqual([]);
    }
    // The Secret itself is still found past 19 lines of other data.
    const other = "  other: x\n".repeat(19);
    const secret = `kind: Secret\ndata:\n${other}  password: ${b64(fake.password())}\n`;
    expect(rulesIn("deploy/secret.yaml", secret)).toContain("kubernetes-secret-yaml");
  });
});
