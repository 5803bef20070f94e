// The request of design §6 from what the export produced and what the user asked.

import type { Policy } from "../config/policy.js";
import type { StoredBundle } from "../export/bundle.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../paths/forbidden.js";
import { fitPatch } from "../protocol/changed-lines.js";
import type { Limits } from "../protocol/limits.js";
import type { Request, RequestFields } from "../protocol/request.js";
import { assembleRequest } from "../protocol/request-line.js";

function forbiddenPaths(policy: Policy): string[] {
  return [...DEFAULT_FORBIDDEN_PATHS, ...(policy.forbiddenPaths ?? [])];
}

/**
 * A patch over this size is sent in part: the largest files' sections are left out until the rest
 * fits; the reviewer still gets every changed path.
 */
const MAX_RANGE_PATCH_BYTES = 512 * 1024;

/** What a patch too large to send whole kept: how many of its files' sections. */
export interface PatchCut {
  bytes: number;
  kept: number;
  total: number;
}

export function buildRequest(options: {
  bundle: StoredBundle;
  question: string;
  policy: Policy;
  limits: Limits;
}): { request: Request; patchCut: PatchCut | undefined } {
  const { bundle } = options;
  const range = bundle.range;
  const bytes = range ? Buffer.byteLength(range.patch) : 0;
  const fitted =
    range && bytes > MAX_RANGE_PATCH_BYTES ? fitPatch(range.patch, MAX_RANGE_PATCH_BYTES) : undefined;
  // Not checked against the schema here (zod loads while the worker works): send.ts checks it.
  const request: Request = assembleRequest<RequestFields>({
    bundle: {
      sha256: bundle.sha256,
      bytes: bundle.bytes,
      format: "tar+gzip",
      files: bundle.files.length,
    },
    snapshot: { commit: bundle.snapshot.commit, kind: bundle.snapshot.kind },
    range: range ? { ...range, patch: fitted ? fitted.patch : range.patch } : null,
    question: options.question,
    actions: ["comment", "propose"],
    forbiddenPaths: forbiddenPaths(options.policy),
    limits: options.limits,
  });
  return { request, patchCut: fitted && { bytes, kept: fitted.kept, total: fitted.total } };
}
