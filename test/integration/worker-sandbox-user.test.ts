// The account a root worker runs its sandboxes as: made on first use with useradd, said once, then
// found. A throwaway account name here, so that the host's own review-remote account is not touched.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { hasProgram, sandboxUser } from "../../src/worker/sandbox.js";

const canCreateUsers = process.getuid?.() === 0 && hasProgram("useradd") && hasProgram("userdel");

describe.skipIf(!canCreateUsers)("the sandbox account of a root worker", () => {
  it("is created once, said once, and found by the next worker", () => {
    const account = `rr-test-${process.pid}`;
    try {
      const lines: string[] = [];
      const first = sandboxUser((line) => lines.push(line), account);
      expect(first.uid).toBeGreaterThan(0);
      expect(lines).toEqual([
        `created the system user '${account}' (uid ${first.uid}, no login, no home) to run reviewers as: a root worker never runs them as root; this is said once`,
      ]);
      const passwd = spawnSync("getent", ["passwd", account], { encoding: "utf8" }).stdout.trim().split(":");
      expect(passwd.slice(5)).toEqual(["/nonexistent", "/usr/sbin/nologin"]);
      const again = sandboxUser((line) => lines.push(line), account);
      expect(again).toEqual(first);
      expect(lines).toHaveLength(1);
    } finally {
      spawnSync("userdel", [account]);
    }
  });
});
