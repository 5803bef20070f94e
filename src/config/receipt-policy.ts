// Which receipts a worker's results must carry (design §12): the allowed-signers file that names its
// keys, and whether an unsigned result is refused. From git config only, like the worker's command.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import { messages } from "../messages.js";
import type { Repo } from "../repo.js";
import type { Settings } from "./settings.js";

export interface ReceiptPolicy {
  /** Absolute path of the allowed_signers file; undefined: receipts are not checked. */
  allowedSigners: string | undefined;
  /** An unsigned result is refused (exit 4). */
  required: boolean;
}

/**
 * A path as git reads a path-valued config key: `~/` is the home directory. A relative path is
 * taken from the top of the work tree, where git runs hooks and most commands.
 */
function configPath(value: string, base: string): string {
  if (value === "~" || value.startsWith("~/")) return join(homedir(), value.slice(1));
  return isAbsolute(value) ? value : resolve(base, value);
}

/**
 * `review-remote.<name>.allowedSigners`, else `review-remote.allowedSigners`; `requireSignature`
 * defaults to true once there is one. Requiring a signature with no file to check it against is a
 * configuration error, found before anything is sent.
 */
export function receiptPolicyFor(
  settings: Settings,
  worker: string,
  repo: Pick<Repo, "top" | "cwd">,
): ReceiptPolicy {
  const file = settings.allowedSigners.byWorker.get(worker) ?? settings.allowedSigners.all;
  const allowedSigners = file ? configPath(file, repo.top ?? repo.cwd) : undefined;
  const required = settings.requireSignature.get(worker) ?? allowedSigners !== undefined;
  if (required && allowedSigners === undefined) {
    throw new ConfigError(messages.signatureRequiredWithoutSigners(worker), {
      hints: [messages.hintConfigureAllowedSigners(worker)],
    });
  }
  return { allowedSigners, required };
}
