// The committed policy file `.review-remote.json`: it can only make an export or a review stricter.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../errors.js";
import { messages } from "../messages.js";
import type { Policy } from "./policy-schema.js";

export type { Policy } from "./policy-schema.js";

const POLICY_FILE = ".review-remote.json";

/** Read the policy from the top of the work tree; no file means the empty policy. */
export async function readPolicy(top: string | undefined): Promise<Policy> {
  if (top === undefined) return {};
  let text: string;
  try {
    text = await readFile(join(top, POLICY_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(messages.policyInvalidJson(POLICY_FILE, String(error)), { cause: error });
  }
  // The schema library loads only for repositories that have a policy file.
  const { parsePolicy } = await import("./policy-schema.js");
  return parsePolicy(text, POLICY_FILE);
}
