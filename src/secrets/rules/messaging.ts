// Credentials of chat, e-mail, SMS and social platforms.
import { isPlaceholderOrWord, NOT_MIXED } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { hexKeywords, namedValue, prefixedToken, UUID } from "./shape.js";

export const MESSAGING_RULES: readonly ContentRule[] = [
  {
    id: "slack-token",
    description: "Slack bot, user, app-level, configuration or refresh token",
    keywords: ["xox"],
    pattern:
      /\b(xox[abeoprs]-(?:[0-9]{1,16}-){1,4}[A-Za-z0-9][A-Za-z0-9-]{15,255}|xox[ar]-(?=[A-Za-z]{0,47}[0-9])[0-9A-Za-z]{8,48}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{163,166})(?![A-Za-z0-9-])/,
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
    id: "microsoft-teams-webhook",
    description: "Microsoft Teams incoming webhook URL",
    keywords: ["webhook.office.com"],
    pattern: new RegExp(
      String.raw`webhook\.office\.com/webhookb2/(${UUID}@${UUID}/IncomingWebhook/[a-zA-Z0-9]{32}/${UUID})`,
    ),
    entropy: 3,
  },
  namedValue({
    id: "discord-api-token",
    description: "Discord bot token or client secret",
    names: ["discord"],
    value: "[a-f0-9]{64}|[A-Za-z0-9=_-]{32}|[A-Za-z0-9_-]{24,26}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}",
    entropy: 3,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "telegram-bot-api-token",
    description: "Telegram bot token",
    names: ["telegr"],
    value: "[0-9]{5,16}:A[A-Za-z0-9_-]{34}",
    entropy: 3,
  }),
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
    id: "sendgrid-api-token",
    description: "SendGrid API key",
    keywords: ["SG."],
    pattern: /\b(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
  },
  prefixedToken({
    id: "sendinblue-api-token",
    description: "Brevo (Sendinblue) API key",
    prefixes: ["xkeysib-"],
    body: "[a-f0-9]{64}-[A-Za-z0-9]{16}",
    entropy: 3,
  }),
  namedValue({
    id: "mailgun-private-api-token",
    description: "Mailgun private API key or webhook signing key",
    names: ["mailgun"],
    value: "key-[a-f0-9]{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}",
    entropy: 3,
  }),
  namedValue({
    id: "mailchimp-api-key",
    description: "Mailchimp API key",
    names: ["mailchimp"],
    value: "[a-f0-9]{32}-us\\d{1,2}",
    entropy: 3,
  }),
  namedValue({
    id: "messagebird-api-token",
    description: "MessageBird API key",
    names: ["messagebird", "message_bird", "message-bird"],
    value: "[A-Za-z0-9]{25}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "sendbird-access-token",
    description: "Sendbird API token",
    names: ["sendbird"],
    value: "[a-f0-9]{40}",
    entropy: 3,
    reject: NOT_MIXED,
  }),
  namedValue({
    id: "mattermost-access-token",
    description: "Mattermost access token",
    names: ["mattermost"],
    value: "[A-Za-z0-9]{26}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "gitter-access-token",
    description: "Gitter access token",
    names: ["gitter"],
    value: "[A-Za-z0-9_-]{40}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "intercom-api-key",
    description: "Intercom access token",
    names: ["intercom"],
    value: "[A-Za-z0-9=_-]{60}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
  namedValue({
    id: "zendesk-secret-key",
    description: "Zendesk API token",
    names: ["zendesk"],
    value: "[A-Za-z0-9]{40}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
];
