// The built-in worker as a local review starts it: by its client, inside its namespaces, the
// workspace mounted for what the worker's flags ask before the worker has read them. The client
// reads them with the worker's own parser: a flag the worker honours is honoured by the mounts too.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runTransport, StartedWorker } from "../../src/pipeline/transport.js";
import { envelopeHeader } from "../../src/protocol/request-line.js";
import { shellWords } from "../helpers/fixtures.js";
import { BIN } from "../helpers/repo.js";
import { parseResult, useBundledRepo, useWorkspaceRoot } from "./worker-helpers.js";

useWorkspaceRoot({ emptyAfterEach: true });
const target = useBundledRepo((repo) => {
  repo.write("a.txt", "a\n");
  return repo.commit("base");
});
const scratch = mkdtempSync(join(tmpdir(), "rr-confined-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The result of the built-in worker started with `args`, as the client starts it. */
async function reviewWith(args: string[]) {
  const bundlePath = join(scratch, "bundle.tar.gz");
  writeFileSync(bundlePath, target.bundle);
  const request = target.request();
  const command = shellWords(process.execPath, BIN, "worker", ...args);
  const { env, dir } = target.repo;
  const started = new StartedWorker(command, dir, env, { args });
  const raw = await runTransport({
    command,
    workerName: "local",
    cwd: dir,
    env,
    header: envelopeHeader(request),
    bundlePath,
    bundleBytes: target.bundle.length,
    maxResultBytes: request.limits.maxResultBytes,
    timeoutSeconds: 120,
    timeoutSetting: "review-remote.timeout",
    onStderrLine: () => false,
    started,
  });
  return parseResult(raw.toString("utf8"));
}

describe("the built-in worker started inside its namespaces", () => {
  it("gives its reviewer the /tmp its --max-tmp-bytes asks for", async () => {
    const reviewer = `printf '{"severity":"info","message":"tmp %s KiB"}\\n' "$(df -k /tmp | awk 'NR == 2 { print $2 }')" >> "$REVIEW_REMOTE_COMMENTS"`;
    const result = await reviewWith(["--sandbox=auto", "--reviewer-command", reviewer, "--max-tmp-bytes=8m"]);
    expect(result.comments.map((comment) => comment.message)).toEqual(["tmp 8192 KiB"]);
  });
});
