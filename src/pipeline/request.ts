// The request of design §6 from what the export produced and what the user asked.

import type { Policy } from "../config/policy.js";
import { ReviewRemoteError } from "../errors.js";
import type { StoredBundle } from "../export/bundle.js";
import { messages } from "../messages.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../paths/forbidden.js";
import { fitPatch } from "../protocol/changed-lines.js";
import { ProtocolError } from "../protocol/errors.js";
import type { Limits } from "../protocol/limits.js";
import type { Request, RequestFields } from "../protocol/request.js";
import { checkRequestLine, MAX_REQUEST_LINE_BYTES } from "../protocol/request-check.js";
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

/**
 * The request, checked as a worker will check it before anything is sent: its schema (a request
 * built wrong is the client's bug, said here rather than by every worker) and its envelope line's
 * size, which a worker caps. The patch is cut to fit beside the rest of the line, as JSON escapes it;
 * a line too long even without it (a change of tens of thousands of paths) is refused here.
 */
export function buildRequest(options: {
  bundle: StoredBundle;
  question: string;
  policy: Policy;
  limits: Limits;
}): { request: Request; patchCut: PatchCut | undefined } {
  const { bundle } = options;
  const range = bundle.range;
  const requestWith = (patch: string | undefined) =>
    checked(
      assembleRequest<RequestFields>({
        bundle: {
          sha256: bundle.sha256,
          bytes: bundle.bytes,
          format: "tar+gzip",
          files: bundle.files.length,
        },
        snapshot: { commit: bundle.snapshot.commit, kind: bundle.snapshot.kind },
        range: range ? { ...range, patch: patch ?? "" } : null,
        question: options.question,
        actions: ["comment", "propose"],
        forbiddenPaths: forbiddenPaths(options.policy),
        limits: options.limits,
      }),
    );
  const bytes = range ? Buffer.byteLength(range.patch) : 0;
  let built = requestWith(range?.patch);
  let patchCut: PatchCut | undefined;
  if (range && (bytes > MAX_RANGE_PATCH_BYTES || built.lineBytes > MAX_REQUEST_LINE_BYTES)) {
    const room = MAX_REQUEST_LINE_BYTES - requestWith("").lineBytes;
    const fitted = fitPatch(range.patch, MAX_RANGE_PATCH_BYTES, Math.max(0, room));
    built = requestWith(fitted.patch);
    patchCut = { bytes, kept: fitted.kept, total: fitted.total };
  }
  if (built.lineBytes > MAX_REQUEST_LINE_BYTES) {
    throw new ReviewRemoteError(
      messages.requestTooLarge(built.lineBytes, MAX_REQUEST_LINE_BYTES, range?.paths.length ?? 0),
      { hints: [messages.hintRequestTooLarge] },
    );
  }
  return { request: built.request, patchCut };
}

/** The request and its line's size; one that breaks the schema is the client's bug, never sent. */
function checked(request: Request): { request: Request; lineBytes: number } {
  const { problems, lineBytes } = checkRequestLine(request);
  if (problems.length > 0) {
    throw new ProtocolError("internal: the request is invalid", { details: problems });
  }
  return { request, lineBytes };
}
