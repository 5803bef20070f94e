// Which paths a proposal may not touch, mirrored from the client's validation (design §9 layer 4):
// proposing a change there would only get the whole result rejected, so the worker leaves them alone.

import { DEFAULT_FORBIDDEN_PATHS, forbiddenPathReason } from "../paths/forbidden.js";
import { matchSecretName } from "../secrets/names.js";

/** Why a proposal may not change `path`, or undefined when it may. */
export function forbiddenChangeReason(path: string, requestForbidden: readonly string[]): string | undefined {
  return forbiddenPathReason(
    path,
    [...DEFAULT_FORBIDDEN_PATHS, ...requestForbidden],
    (p) => matchSecretName(p)?.id,
  );
}
