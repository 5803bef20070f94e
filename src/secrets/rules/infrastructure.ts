// Credentials of infrastructure services: data platforms, secret stores, deployment and IaC tools.
import { isPlaceholderOrWord, NOT_MIXED } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { END, namedValue, prefixedToken } from "./shape.js";

export const INFRASTRUCTURE_RULES: readonly ContentRule[] = [
  prefixedToken({
    id: "planetscale-api-token",
    description: "PlanetScale API token, OAuth token or password",
    prefixes: ["pscale_tkn_", "pscale_oauth_", "pscale_pw_"],
    body: String.raw`[\w=.-]{32,64}`,
    entropy: 3,
  }),
  prefixedToken({
    id: "clickhouse-cloud-api-secret-key",
    description: "ClickHouse Cloud API secret key",
    prefixes: ["4b1d"],
    body: "[A-Za-z0-9]{38}",
    entropy: 3.5,
    reject: NOT_MIXED,
  }),
  prefixedToken({
    id: "databricks-api-token",
    description: "Databricks API token",
    prefixes: ["dapi"],
    body: "[a-f0-9]{32}(?:-\\d)?",
    entropy: 3,
  }),
  prefixedToken({
    id: "doppler-api-token",
    description: "Doppler personal, service, CLI, service-account, SCIM or audit token",
    prefixes: ["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
    body: String.raw`(?:[\w-]{1,40}\.)?[A-Za-z0-9]{40,44}`,
    entropy: 3.5,
  }),
  prefixedToken({
    id: "pulumi-api-token",
    description: "Pulumi access token",
    prefixes: ["pul-"],
    body: "[a-f0-9]{40}",
    entropy: 3,
  }),
  {
    id: "hashicorp-tf-api-token",
    description: "Terraform Cloud / HCP Terraform API token",
    keywords: ["atlasv1."],
    pattern: /(?<=\b[A-Za-z0-9]{14}\.)(atlasv1\.[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/,
    entropy: 3.5,
  },
  {
    id: "vault-token",
    description: "HashiCorp Vault service, batch or recovery token",
    keywords: ["hvs.", "hvb.", "hvr.", "vault"],
    // hvs./hvb./hvr. are unambiguous; the legacy `s.` + 24 form needs a vault name on the same line.
    pattern:
      /\b(hv[sbr]\.[A-Za-z0-9_-]{24,300})(?![A-Za-z0-9_-])|(?:vault|Vault|VAULT)[^\r\n]{0,80}?\b(s\.[A-Za-z0-9]{24})(?![A-Za-z0-9_.-])/,
    entropy: 3.5,
    reject: /^[^A-Z]*$|^[^a-z]*$/,
  },
  prefixedToken({
    id: "openshift-user-token",
    description: "OpenShift user token",
    prefixes: ["sha256~"],
    body: String.raw`[\w-]{43}`,
    entropy: 3.5,
  }),
  prefixedToken({
    id: "octopus-deploy-api-key",
    description: "Octopus Deploy API key",
    prefixes: ["API-"],
    body: "[A-Z0-9]{26}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  prefixedToken({
    id: "infracost-api-token",
    description: "Infracost API token",
    prefixes: ["ico-"],
    body: "[a-zA-Z0-9]{32}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  prefixedToken({
    id: "defined-networking-api-token",
    description: "Defined Networking API token",
    prefixes: ["dnkey-"],
    body: "[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}",
    entropy: 3,
  }),
  prefixedToken({
    id: "artifactory-api-key",
    description: "JFrog Artifactory API key",
    prefixes: ["AKCp"],
    body: "[A-Za-z0-9]{69}",
    entropy: 4.5,
  }),
  prefixedToken({
    id: "artifactory-reference-token",
    description: "JFrog Artifactory reference token",
    prefixes: ["cmVmd"],
    body: "[A-Za-z0-9]{59}",
    entropy: 4.5,
  }),
  namedValue({
    id: "jfrog-api-key",
    description: "JFrog API key or identity token",
    names: ["jfrog", "artifactory", "bintray", "xray"],
    value: "[A-Za-z0-9]{73}|[A-Za-z0-9]{64}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "1password-service-account-token",
    description: "1Password service account token",
    prefixes: ["ops_eyJ"],
    body: "[A-Za-z0-9+/]{250,8000}={0,3}",
    entropy: 4,
  }),
  {
    id: "1password-secret-key",
    description: "1Password account secret key",
    keywords: ["A3-"],
    pattern: new RegExp(
      String.raw`\b(A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})${END}`,
    ),
    entropy: 3.8,
  },
];
