// Credentials of cloud providers and hosting platforms.
import { isPlaceholderOrWord, NOT_MIXED } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { END, namedValue, prefixedToken, UUID } from "./shape.js";

export const CLOUD_RULES: readonly ContentRule[] = [
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
  prefixedToken({
    id: "aws-amazon-bedrock-api-key-long-lived",
    description: "Amazon Bedrock long-term API key",
    prefixes: ["ABSK"],
    body: "[A-Za-z0-9+/]{109,269}={0,2}",
    entropy: 3.5,
  }),
  {
    id: "aws-amazon-bedrock-api-key-short-lived",
    description: "Amazon Bedrock short-term API key",
    keywords: ["bedrock-api-key-"],
    pattern: /bedrock-api-key-(YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%]{16,4000})/,
    entropy: 3.5,
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
  prefixedToken({
    id: "gcp-oauth-client-secret",
    description: "Google OAuth client secret",
    prefixes: ["GOCSPX-"],
    body: "[A-Za-z0-9_-]{24,40}",
    entropy: 3,
  }),
  {
    id: "azure-storage-account-key",
    description: "Azure storage account key",
    keywords: ["AccountKey"],
    pattern: /AccountKey\s{0,4}=\s{0,4}([A-Za-z0-9+/]{86}==)/,
    entropy: 4,
  },
  {
    id: "azure-ad-client-secret",
    description: "Microsoft Entra ID (Azure AD) client secret",
    // Three characters, a digit, then `Q~`: the keyword is the digit and `Q~`, the three before it
    // are checked behind the match (the secret is reported from the digit on).
    keywords: [..."0123456789"].map((digit) => `${digit}Q~`),
    pattern:
      /(?<=(?:^|[\\'"\x60\s>=:(,)])[a-zA-Z0-9_~.]{3})(\dQ~[a-zA-Z0-9_~.-]{31,34})(?=$|[\\'"\x60\s<),])/,
    entropy: 3,
  },
  prefixedToken({
    id: "alibaba-access-key-id",
    description: "Alibaba Cloud access key id",
    prefixes: ["LTAI"],
    body: "[A-Za-z0-9]{20}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  namedValue({
    id: "alibaba-secret-key",
    description: "Alibaba Cloud access key secret",
    names: ["alibaba"],
    value: "[A-Za-z0-9]{30}",
    entropy: 3,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "digitalocean-token",
    description: "DigitalOcean personal access, OAuth or refresh token",
    prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"],
    body: "[a-f0-9]{64}",
    entropy: 3,
  }),
  namedValue({
    id: "yandex-access-token",
    description: "Yandex Cloud IAM token, API key or static access key",
    names: ["yandex"],
    value: String.raw`t1\.[A-Za-z0-9_-]{1,200}={0,2}\.[A-Za-z0-9_-]{86}={0,2}|AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}`,
    entropy: 3,
  }),
  namedValue({
    id: "heroku-api-key",
    description: "Heroku API key",
    names: ["heroku"],
    value: UUID,
    entropy: 3,
  }),
  prefixedToken({
    id: "heroku-api-key-v2",
    description: "Heroku API key",
    prefixes: ["HRKU-AA"],
    body: "[0-9a-zA-Z_-]{58}",
    entropy: 4,
  }),
  {
    id: "flyio-access-token",
    description: "Fly.io access token",
    keywords: ["fo1_", "fm1a_", "fm1r_", "fm2_"],
    pattern: new RegExp(String.raw`(?<!\w)(fo1_[\w-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,4000}={0,3})${END}`),
    entropy: 4,
  },
  namedValue({
    id: "cloudflare-api-key",
    description: "Cloudflare API token or global API key",
    names: ["cloudflare"],
    value: "[A-Za-z0-9_-]{40}|[a-f0-9]{37}",
    entropy: 3,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "cloudflare-origin-ca-key",
    description: "Cloudflare Origin CA key",
    prefixes: ["v1.0-"],
    body: "[a-f0-9]{24}-[a-f0-9]{146}",
    entropy: 3,
  }),
  namedValue({
    id: "fastly-api-token",
    description: "Fastly API token",
    names: ["fastly"],
    value: "[A-Za-z0-9=_-]{32}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "netlify-access-token",
    description: "Netlify access token",
    names: ["netlify"],
    value: "[A-Za-z0-9=_-]{40,46}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "scalingo-api-token",
    description: "Scalingo API token",
    prefixes: ["tk-us-"],
    body: String.raw`[\w-]{48}`,
    entropy: 3,
  }),
];
