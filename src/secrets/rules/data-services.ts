// Credentials of data, search, storage, streaming and maps services.
import { isPlaceholderOrWord } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { END, namedValue, prefixedToken } from "./shape.js";

export const DATA_SERVICE_RULES: readonly ContentRule[] = [
  namedValue({
    id: "algolia-api-key",
    description: "Algolia admin or write API key",
    names: ["algolia"],
    value: "[A-Za-z0-9]{32}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "confluent-secret-key",
    description: "Confluent Cloud API key or secret",
    names: ["confluent"],
    value: "[A-Za-z0-9+/]{64}|[A-Za-z0-9]{16}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "dropbox-api-token",
    description: "Dropbox access token",
    names: ["dropbox"],
    value: "sl\\.[A-Za-z0-9._=-]{135,1400}|[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}|[A-Za-z0-9]{15}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  // Mapbox public tokens (pk.) are meant to ship in web pages; secret tokens are sk.
  prefixedToken({
    id: "mapbox-api-token",
    description: "Mapbox secret access token",
    prefixes: ["sk.eyJ"],
    body: String.raw`[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}`,
    entropy: 4,
  }),
  {
    id: "maxmind-license-key",
    description: "MaxMind license key",
    keywords: ["_mmk"],
    pattern: new RegExp(String.raw`(?<=(?<![\w-])([A-Za-z0-9]{6}_[A-Za-z0-9]{29}))_mmk${END}`),
    entropy: 4,
  },
];
