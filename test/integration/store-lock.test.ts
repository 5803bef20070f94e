// The store's one writer, asked for with a wait (a command) or without (recovery), in a real store.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storePaths } from "../../src/store/layout.js";
import { tryStoreLock, withStoreLock } from "../../src/store/lock.js";
import { createTestRepo, repoState, repoTracker } from "../helpers/repo.js";

const repos = repoTracker();

function storeOf() {
  const repo = repos.add(createTestRepo());
  const store = storePaths({ commonDir: join(repo.dir, ".git") });
  return { repo, store, lock: join(store.root, "lock") };
}

describe("the store lock", () => {
  it("runs each caller as the writer when no one holds it, nested or not, and removes the lock", async () => {
    const { store, lock } = storeOf();
    const seen: boolean[] = [];
    const value = await withStoreLock(store, "merge x", async () => {
      seen.push(existsSync(lock));
      // Held by this process already: the nested call runs at once, and leaves the lock in place.
      return tryStoreLock(store, "recover", async () => {
        seen.push(existsSync(lock));
        return 7;
      });
    });
    expect(value).toBe(7);
    expect(seen).toEqual([true, true]);
    expect(existsSync(lock)).toBe(false);
    expect(await tryStoreLock(store, "recover", async () => existsSync(lock))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it("lets callers of one process that ask together nest, not wait for each other", async () => {
    const { store, lock } = storeOf();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    // Asked in the same turn: the first is still creating the lock file when the second asks.
    const first = withStoreLock(store, "review a", async () => {
      order.push("a runs");
      await released;
      order.push("a done");
    });
    const second = withStoreLock(
      store,
      "review b",
      async () => {
        order.push(`b runs, lock ${existsSync(lock) ? "held" : "gone"}`);
        return "b";
      },
      0,
    );
    // No wait at all for the second: it refused if it took its own process for another holder.
    expect(await second).toBe("b");
    release();
    await first;
    expect(order).toEqual(["a runs", "b runs, lock held", "a done"]);
    expect(existsSync(lock)).toBe(false);
  });

  it("lets callers that asked together each refuse a live holder of another process", async () => {
    const { store, lock } = storeOf();
    await withStoreLock(store, "setup", async () => undefined);
    const holder = {
      pid: 1,
      host: "elsewhere",
      boot: "b",
      command: "merge z",
      since: new Date().toISOString(),
    };
    writeFileSync(lock, JSON.stringify(holder));
    const asks = [
      withStoreLock(store, "review a", async () => "a", 0),
      withStoreLock(store, "review b", async () => "b", 0),
    ];
    for (const ask of asks) await expect(ask).rejects.toThrow(/pid 1 on elsewhere: merge z/);
    expect(JSON.parse(readFileSync(lock, "utf8"))).toEqual(holder);
  });

  it("is left to a live holder: a try does nothing, a wait that ends refuses naming it", async () => {
    const { repo, store, lock } = storeOf();
    await withStoreLock(store, "setup", async () => undefined);
    // Another host's lock, taken just now, cannot be judged stale.
    const holder = JSON.stringify({
      pid: 1,
      host: "elsewhere",
      boot: "b",
      command: "merge z",
      since: new Date().toISOString(),
    });
    writeFileSync(lock, holder);
    const before = repoState(repo);
    let ran = false;
    const run = async () => {
      ran = true;
    };
    expect(await tryStoreLock(store, "recover", run)).toBeUndefined();
    await expect(withStoreLock(store, "drop y", run, 0)).rejects.toThrow(
      "another git-review-remote is running (pid 1 on elsewhere: merge z)",
    );
    await expect(withStoreLock(store, "drop y", run, 120)).rejects.toThrow(/pid 1 on elsewhere: merge z/);
    expect(ran).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe(holder);
    expect(repoState(repo)).toEqual(before);
  });
});
