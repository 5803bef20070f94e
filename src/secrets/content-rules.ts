// The credential formats the content scan looks for, as data in one place: the families are in
// rules/*.ts, the contract every rule keeps in rules/rule.ts. Ids follow gitleaks where one of ours
// covers one of its rules.
import { AI_RULES } from "./rules/ai.js";
import { CLOUD_RULES } from "./rules/cloud.js";
import { COMMERCE_RULES } from "./rules/commerce.js";
import { DATA_SERVICE_RULES } from "./rules/data-services.js";
import { DEVTOOL_RULES } from "./rules/devtools.js";
import { FORGE_RULES } from "./rules/forges.js";
import { INFRASTRUCTURE_RULES } from "./rules/infrastructure.js";
import { KEY_RULES } from "./rules/keys.js";
import { MESSAGING_RULES } from "./rules/messaging.js";
import { OBSERVABILITY_RULES } from "./rules/observability.js";
import { PASSWORD_RULES } from "./rules/passwords.js";
import type { ContentRule } from "./rules/rule.js";
import { SOCIAL_RULES } from "./rules/social.js";

export { type ContentRule, isExactKeyword, MAX_MATCH_LENGTH } from "./rules/rule.js";

export const CONTENT_RULES: readonly ContentRule[] = [
  ...CLOUD_RULES,
  ...INFRASTRUCTURE_RULES,
  ...FORGE_RULES,
  ...DEVTOOL_RULES,
  ...DATA_SERVICE_RULES,
  ...MESSAGING_RULES,
  ...SOCIAL_RULES,
  ...OBSERVABILITY_RULES,
  ...COMMERCE_RULES,
  ...AI_RULES,
  ...KEY_RULES,
  ...PASSWORD_RULES,
];
