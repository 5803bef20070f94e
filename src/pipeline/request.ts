// The request of design §6 from what the export produced and what the user asked.

import type { Policy } from "../config/policy.js";
import type { StoredBundle } from "../export/bundle.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../paths/forbidden.js";
import type { Limits } from "../protocol/limits.js";
import { createRequest, type Request } from "../protocol/request.js";

function forbiddenPaths(policy: Policy): string[] {
  return [...DEFAULT_FORBIDDEN_PATHS, ...(policy.forbiddenPaths ?? [])];
}

/** A patch over this size is left out of the request: the reviewer still gets the changed paths. */
const MAX_RANGE_PATCH_BYTES = 512 * 1024;

export function buildRequest(options: {
  bundle: StoredBundle;
  question: string;
  policy: Policy;
  limits: Limits;
}): { request: Request; patchOmitted: boolean } {
  const { bundle } = options;
  const range = bundle.range;
  const patchOmitted = range !== undefined && Buffer.byteLength(range.patch) > MAX_RANGE_PATCH_BYTES;
  const request = createRequest({
    bundle: {
      sha256: bundle.sha256,
      bytes: bundle.bytes,
      format: "tar+gzip",
      files: bundle.files.length,
    },
    snapshot: { commit: bundle.snapshot.commit, kind: bundle.snapshot.kind },
    range: range ? { ...range, patch: patchOmitted ? "" : range.patch } : null,
    question: options.question,
    actions: ["comment", "propose"],
    forbiddenPaths: forbiddenPaths(options.policy),
    limits: options.limits,
  });
  return { request, patchOmitted };
}
