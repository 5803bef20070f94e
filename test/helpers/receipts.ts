// One request and one result the receipt tests sign and verify: the content does not matter, the ids do.
import { DEFAULT_LIMITS } from "../../src/protocol/limits.js";
import { createRequest, type Request } from "../../src/protocol/request.js";
import type { Result } from "../../src/protocol/result.js";

export function sampleRequest(bundleSha256 = "b".repeat(64)): Request {
  return createRequest({
    bundle: { sha256: bundleSha256, bytes: 4096, format: "tar+gzip", files: 3 },
    snapshot: { commit: "c".repeat(40), kind: "commit" },
    range: null,
    question: "Review this change.",
    actions: ["comment", "propose"],
    forbiddenPaths: [],
    limits: { ...DEFAULT_LIMITS },
  });
}

export function sampleResult(request: Pick<Request, "id" | "bundle">, summary = "One fix."): Result {
  return {
    schema: "git-review-remote/result@1",
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    status: "ok",
    summary,
    worker: { name: "git-review-remote", version: "0.1.0", sandbox: "bwrap" },
    comments: [{ path: "src/a.ts", line: 3, severity: "warning", message: "Off by one." }],
    commits: [],
  };
}
