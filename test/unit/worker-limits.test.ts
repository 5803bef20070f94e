import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { answerMarginMs } from "../../src/protocol/limits.js";
import { Deadline, DeadlineError } from "../../src/worker/deadline.js";
import { DEFAULT_WORKER_LIMITS, formatBytes, workerLimitsFrom } from "../../src/worker/limits.js";

describe("worker limits from flags", () => {
  it("takes each flag's default when it is not given", () => {
    expect(workerLimitsFrom({})).toEqual(DEFAULT_WORKER_LIMITS);
    expect(DEFAULT_WORKER_LIMITS).toEqual({
      treeBytes: 1024 ** 3,
      files: 100_000,
      tmpBytes: 256 * 1024 ** 2,
      processes: 256,
      seconds: 3600,
    });
  });

  it("reads sizes with git's k, m and g suffixes and counts as plain integers", () => {
    expect(
      workerLimitsFrom({ treeBytes: "32m", tmpBytes: "512K", files: "20000", processes: "40", seconds: "6" }),
    ).toEqual({ treeBytes: 32 * 1024 ** 2, tmpBytes: 512 * 1024, files: 20_000, processes: 40, seconds: 6 });
    expect(workerLimitsFrom({ treeBytes: "2g" }).treeBytes).toBe(2 * 1024 ** 3);
  });

  it.each([
    [
      "treeBytes",
      "0",
      "--max-tree-bytes must be a positive number of bytes, with an optional k, m or g, not '0'",
    ],
    [
      "treeBytes",
      "1t",
      "--max-tree-bytes must be a positive number of bytes, with an optional k, m or g, not '1t'",
    ],
    ["files", "10k", "--max-files must be a positive integer, not '10k'"],
    ["processes", "-1", "--max-processes must be a positive integer, not '-1'"],
    ["seconds", "", "--max-seconds must be a positive integer, not ''"],
    [
      "tmpBytes",
      "99999999999999999g",
      "--max-tmp-bytes must be a positive number of bytes, with an optional k, m or g, not '99999999999999999g'",
    ],
  ] as const)("refuses %s = '%s' as a usage error", (key, value, message) => {
    expect(() => workerLimitsFrom({ [key]: value })).toThrow(new UsageError(message));
  });

  it("names sizes in messages by their largest exact unit", () => {
    expect([
      formatBytes(32 * 1024 ** 2),
      formatBytes(1024 ** 3),
      formatBytes(1536),
      formatBytes(1000),
    ]).toEqual(["32 MiB", "1 GiB", "1536 bytes", "1000 bytes"]);
  });
});

describe("the margin a worker keeps to answer within its time limit", () => {
  it("is the limit's last tenth, at least 1 s but never more than half of it, at most 5 s", () => {
    expect([1, 2, 3, 10, 20, 50, 900, 3600].map(answerMarginMs)).toEqual([
      500, 1000, 1000, 1000, 2000, 5000, 5000, 5000,
    ]);
  });
});

describe("the request's deadline", () => {
  it("is the request's timeout, capped by the worker's --max-seconds, and says which one set it", () => {
    const start = Date.now();
    const asked = new Deadline(start, 30, 3600);
    const capped = new Deadline(start, 900, 60);
    // The work ends early enough to answer within the limit: its last tenth, 1 s to 5 s.
    expect([asked.seconds, asked.at]).toEqual([30, start + 27_000]);
    expect([capped.seconds, capped.at]).toEqual([60, start + 55_000]);
    expect(asked.reason("unpacking the bundle")).toBe(
      "the request ran out of time while unpacking the bundle (limits.timeoutSeconds is 30 s)",
    );
    expect(capped.limit).toBe("the worker allows at most 60 s (--max-seconds)");
    asked.dispose();
    capped.dispose();
  });

  it("turns whatever a stage throws after the time is up into a DeadlineError naming the stage", async () => {
    const deadline = new Deadline(Date.now(), 1, 1);
    const killed = deadline.run("collecting the reviewer's changes", async () => {
      await new Promise((resolve) => deadline.signal.addEventListener("abort", resolve));
      throw new Error("git add was killed");
    });
    await expect(killed).rejects.toThrow(
      new DeadlineError(
        "the request ran out of time while collecting the reviewer's changes (limits.timeoutSeconds is 1 s)",
      ),
    );
    // A stage that starts after the deadline does not run at all.
    let ran = false;
    await expect(
      deadline.run("building the baseline", async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(DeadlineError);
    expect(ran).toBe(false);
  });

  it("lets a stage's own failure through while there is time left", async () => {
    const deadline = new Deadline(Date.now(), 60, 60);
    await expect(
      deadline.run("unpacking the bundle", () => Promise.reject(new Error("tar failed"))),
    ).rejects.toThrow("tar failed");
    deadline.dispose();
  });
});
