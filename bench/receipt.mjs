// Receipt cost per review: the worker signing its statement and the local side verifying it, with real
// ssh-keygen and an ed25519 key, for a small result and one carrying the largest patch a request allows.
// Usage: npm run build && node bench/receipt.mjs   (target: sign + verify <= 50 ms)
import { DEFAULT_LIMITS } from "../dist/protocol/limits.js";
import { createRequest } from "../dist/protocol/request.js";
import { createReceipt } from "../dist/receipt/sign.js";
import { subjectsOf } from "../dist/receipt/statement.js";
import { checkReceipt } from "../dist/receipt/verify.js";
import { createKeyDir, signerLine } from "../test/helpers/ssh-keys.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 21);

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

const request = createRequest({
  bundle: { sha256: "b".repeat(64), bytes: 1 << 20, format: "tar+gzip", files: 100 },
  snapshot: { commit: "c".repeat(40), kind: "commit" },
  range: null,
  question: "Review this change.",
  actions: ["comment", "propose"],
  forbiddenPaths: [],
  limits: { ...DEFAULT_LIMITS },
});

function makeResult(patchBytes) {
  const line = "+const value = computeSomething(input, options);\n";
  return {
    schema: "git-review-remote/result@1",
    requestId: request.id,
    bundleSha256: request.bundle.sha256,
    status: "ok",
    summary: "Hygiene fixes.",
    worker: { name: "git-review-remote", version: "0.1.0", sandbox: "bwrap" },
    comments: Array.from({ length: 20 }, (_, i) => ({
      path: `src/f${i}.ts`,
      line: i + 1,
      severity: "info",
      message: "Note.",
    })),
    commits: [
      { message: "Fix", patch: `diff --git a/x b/x\n${line.repeat(Math.ceil(patchBytes / line.length))}` },
    ],
  };
}

async function measure(keys, patchBytes) {
  const key = keys.key("ed25519");
  const allowedSigners = keys.allowedSigners([signerLine("box", key.public)]);
  const result = makeResult(patchBytes);
  const sign = [];
  const verify = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    const receipt = await createReceipt(
      {
        subjects: subjectsOf(request),
        result,
        reviewers: ["hygiene"],
        startedOn: new Date(),
        finishedOn: new Date(),
      },
      key.private,
    );
    sign.push(performance.now() - start);
    const received = JSON.parse(JSON.stringify({ ...result, receipt }));
    start = performance.now();
    const verdict = await checkReceipt({
      receipt,
      principal: "box",
      allowedSigners,
      sent: subjectsOf(request),
      received,
    });
    verify.push(performance.now() - start);
    if (verdict.status !== "good") throw new Error(`verification failed: ${verdict.reason}`);
  }
  return {
    patchBytes,
    signMs: median(sign),
    verifyMs: median(verify),
    totalMs: median(sign) + median(verify),
  };
}

const keys = createKeyDir();
try {
  for (const patchBytes of [2_000, DEFAULT_LIMITS.maxPatchBytes]) {
    const row = await measure(keys, patchBytes);
    console.log(
      JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Math.round(v * 10) / 10]))),
    );
  }
} finally {
  keys.remove();
}
