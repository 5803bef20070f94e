// Credentials of AI model providers.
import { isPlaceholderOrWord } from "./placeholders.js";
import type { ContentRule } from "./rule.js";
import { namedValue, prefixedToken } from "./shape.js";

export const AI_RULES: readonly ContentRule[] = [
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
    id: "huggingface-access-token",
    description: "Hugging Face access or organization token",
    keywords: ["hf_", "api_org_"],
    pattern: /\b((?:hf_|api_org_)[A-Za-z]{34})\b/,
    entropy: 4,
    reject: /^(?:hf_|api_org_)(?:[^A-Z]*|[^a-z]*)$/,
  },
  namedValue({
    id: "cohere-api-token",
    description: "Cohere API key",
    names: ["cohere", "co_api_key"],
    value: "[A-Za-z0-9]{40}",
    entropy: 4,
    reject: isPlaceholderOrWord,
  }),
  prefixedToken({
    id: "perplexity-api-key",
    description: "Perplexity API key",
    prefixes: ["pplx-"],
    body: "[A-Za-z0-9]{48}",
    entropy: 4,
  }),
  prefixedToken({
    id: "groq-api-key",
    description: "Groq API key",
    prefixes: ["gsk_"],
    body: "[A-Za-z0-9]{52}",
    entropy: 4,
  }),
  prefixedToken({
    id: "langsmith-api-key",
    description: "LangSmith personal or service key",
    prefixes: ["lsv2_pt_", "lsv2_sk_"],
    body: "[a-f0-9]{32}_[a-f0-9]{10}",
    entropy: 3,
  }),
  namedValue({
    id: "privateai-api-token",
    description: "Private AI API key",
    names: ["privateai", "private_ai", "private-ai"],
    value: "[A-Za-z0-9]{32}",
    entropy: 3.5,
    reject: isPlaceholderOrWord,
  }),
];
