// Credentials of social networks, publishing and content platforms.
import { isPlaceholderOrWord } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { namedValue, prefixedToken, UUID } from "./shape.js";

export const SOCIAL_RULES: readonly ContentRule[] = [
  namedValue({
    id: "twitter-api-secret",
    description: "X (Twitter) API key, secret, access token or bearer token",
    names: ["twitter"],
    value:
      "A{22}[A-Za-z0-9%]{80,100}|[A-Za-z0-9]{50}|[A-Za-z0-9]{45}|[0-9]{15,25}-[A-Za-z0-9]{20,40}|[A-Za-z0-9]{25}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "facebook-secret",
    description: "Facebook app secret or access token",
    names: ["facebook"],
    value: "[a-f0-9]{32}|[0-9]{15,16}(?:\\||%7C)[A-Za-z0-9_-]{27,40}",
    entropy: 3,
    reject: /^[^a-f]*$|^[^0-9]*$/,
  }),
  prefixedToken({
    id: "facebook-page-access-token",
    description: "Facebook page or user access token",
    prefixes: ["EAAM", "EAAC"],
    body: "[A-Za-z0-9]{100,600}",
    entropy: 4,
  }),
  namedValue({
    id: "linkedin-client-secret",
    description: "LinkedIn client secret",
    names: ["linkedin", "linked_in", "linked-in"],
    value: "[A-Za-z0-9]{16}",
    entropy: 3.2,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "twitch-api-token",
    description: "Twitch API token",
    names: ["twitch"],
    value: "[A-Za-z0-9]{30}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "flickr-access-token",
    description: "Flickr API secret",
    names: ["flickr"],
    value: "[A-Za-z0-9]{32}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "nytimes-access-token",
    description: "New York Times API key",
    names: ["nytimes", "new-york-times", "newyorktimes"],
    value: "[A-Za-z0-9=_-]{32}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "etsy-access-token",
    description: "Etsy API key",
    names: ["etsy"],
    value: "[A-Za-z0-9]{24}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "beamer-api-token",
    description: "Beamer API key",
    names: ["beamer"],
    value: "b_[A-Za-z0-9=_-]{44}",
    entropy: 3,
  }),
  namedValue({
    id: "squarespace-access-token",
    description: "Squarespace API key",
    names: ["squarespace"],
    value: UUID,
    entropy: 3,
  }),
  namedValue({
    id: "hubspot-api-key",
    description: "HubSpot API key",
    names: ["hubspot"],
    value: UUID,
    entropy: 3,
  }),
  namedValue({
    id: "contentful-delivery-api-token",
    description: "Contentful delivery API token",
    names: ["contentful"],
    value: "[A-Za-z0-9=_-]{43}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
];
