// Before any test: builds dist/ from the sources, so the CLI the tests run is never a stale build,
// whichever way vitest was started. Then starts a throwaway OpenSSH server on 127.0.0.1 for the ssh
// transport tests. Tests read `sshd` with `inject("sshd")`; it is null, with the reason in
// `sshdReason`, when the machine has no sshd (the ssh tests then report themselves as skipped,
// with the reason — never silently).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { startSshd } from "./sshd.mjs";

const PROJECT_ROOT = resolve(import.meta.dirname, "..", "..");

export interface SshdInfo {
  /** An ssh_config with a `Host worker` entry for the server. */
  config: string;
  port: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    sshd: SshdInfo | null;
    sshdReason: string;
  }
}

export default async function setup(project: TestProject) {
  execFileSync("npm", ["run", "-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  const started = await startSshd();
  if ("reason" in started) {
    project.provide("sshd", null);
    project.provide("sshdReason", started.reason);
    return;
  }
  project.provide("sshd", { config: started.config, port: started.port });
  project.provide("sshdReason", "");
  return () => started.stop();
}
