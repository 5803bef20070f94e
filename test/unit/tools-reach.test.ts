import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { outOfReach } from "../../src/worker/tools-reach.js";

const root = mkdtempSync(join(tmpdir(), "rr-reach-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("whether the sandbox's user reaches a tools directory", () => {
  const owner = statSync(root);
  // Neither the owner of these directories nor in their group: as the sandbox's account is.
  const other = { uid: owner.uid + 54321, gid: owner.gid + 54321 };

  it("passes directories open to others, and names the first one closed to it", () => {
    const tools = join(root, "home", "tools");
    mkdirSync(tools, { recursive: true, mode: 0o755 });
    chmodSync(join(root, "home"), 0o755);
    expect(outOfReach(other, tools)).toBeUndefined();
    chmodSync(join(root, "home"), 0o700);
    expect(outOfReach(other, tools)).toEqual({ path: join(root, "home"), reason: "is not searchable by" });
    // Its owner passes what others cannot; so does its group.
    expect(outOfReach({ uid: owner.uid, gid: other.gid }, tools)).toBeUndefined();
    chmodSync(join(root, "home"), 0o710);
    expect(outOfReach({ uid: other.uid, gid: owner.gid }, tools)).toBeUndefined();
  });

  it("names a tools directory that can be passed but not listed", () => {
    const tools = join(root, "listless");
    mkdirSync(tools, { mode: 0o711 });
    chmodSync(tools, 0o711);
    expect(outOfReach(other, tools)).toEqual({ path: tools, reason: "is not readable by" });
  });
});
