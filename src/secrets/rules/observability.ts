// Credentials of monitoring, logging, error-tracking and feature-flag services.
import { isPlaceholderOrWord, NOT_MIXED } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { namedValue, prefixedToken } from "./shape.js";

export const OBSERVABILITY_RULES: readonly ContentRule[] = [
  namedValue({
    id: "datadog-access-token",
    description: "Datadog API or application key",
    names: ["datadog"],
    value: "[A-Za-z0-9]{40}|[a-f0-9]{32}",
    entropy: 3,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "new-relic-user-api-key",
    description: "New Relic user API, insert or browser key",
    prefixes: ["NRAK-", "NRII-", "NRJS-"],
    body: "(?<=NRAK-)[A-Za-z0-9]{27}|(?<=NRII-)[A-Za-z0-9-]{32}|(?<=NRJS-)[a-f0-9]{19}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  namedValue({
    id: "new-relic-license-key",
    description: "New Relic license or user API key",
    names: ["new-relic", "newrelic", "new_relic"],
    value: "[A-Za-z0-9]{64}|[a-f0-9]{36}NRAL|[A-Za-z0-9]{40}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "dynatrace-api-token",
    description: "Dynatrace API token",
    prefixes: ["dt0c01."],
    body: String.raw`[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`,
    entropy: 4,
  }),
  namedValue({
    id: "sumologic-access-token",
    description: "Sumo Logic access id or key",
    names: ["sumo"],
    value: "[A-Za-z0-9]{64}|su[A-Za-z0-9]{12}",
    entropy: 3,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "launchdarkly-access-token",
    description: "LaunchDarkly access token or SDK key",
    names: ["launchdarkly"],
    value: "(?:api|sdk|mob)-[a-f0-9-]{36}|[A-Za-z0-9=_-]{40}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "sentry-user-token",
    description: "Sentry user auth token",
    prefixes: ["sntryu_"],
    body: "[a-f0-9]{64}",
    entropy: 3.5,
  }),
  prefixedToken({
    id: "sentry-org-token",
    description: "Sentry organization auth token",
    prefixes: ["sntrys_eyJ"],
    body: "[A-Za-z0-9+/=]{40,800}_[A-Za-z0-9+/]{43}",
    entropy: 4.5,
  }),
  namedValue({
    id: "sentry-access-token",
    description: "Sentry auth token",
    names: ["sentry"],
    value: "[a-f0-9]{64}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  prefixedToken({
    id: "grafana-api-key",
    description: "Grafana API key, cloud token or service account token",
    prefixes: ["eyJrIjoi", "glc_", "glsa_"],
    body: "(?<=eyJrIjoi)[A-Za-z0-9]{70,400}={0,3}|(?<=glc_)[A-Za-z0-9+/]{32,400}={0,3}|(?<=glsa_)[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
    entropy: 3,
  }),
];
