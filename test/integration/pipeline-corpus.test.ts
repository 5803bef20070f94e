// Every fixture diff and result document behaves as its .expect says, through the real pipeline:
// export → fake worker (a configured command) → validation → import.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultSchema } from "../../src/protocol/result.js";
import { configureWorker, createBaseRepo, FIXTURES, RESULT_WORKER, shellWords } from "../helpers/fixtures.js";
import { repoState, type TestRepo } from "../helpers/repo.js";

const corpus = (dir: string, ext: string) =>
  readdirSync(join(FIXTURES, dir))
    .filter((file) => file.endsWith(ext))
    .map((file) => {
      const name = file.slice(0, -ext.length);
      const expect = readFileSync(join(FIXTURES, dir, `${name}.expect`), "utf8");
      return { name, file: join(FIXTURES, dir, file), verdict: expect.split(/\s/)[0] as string };
    });

/**
 * What no printed or stored text may hold after sanitizing: C0 controls but tab and newline, DEL, C1
 * (U+009B is CSI, U+009D OSC on their own), the bidi controls (embeddings, overrides, isolates, marks),
 * and lone surrogates (read back from UTF-8, U+FFFD: what a lone surrogate is written out as).
 */
const SHOWN_UNSAFE = /(?![\n\t])[\p{Cc}\p{Cs}\ufffd\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

let repo: TestRepo;
beforeAll(() => {
  repo = createBaseRepo();
});
afterAll(() => repo.cleanup());

/** The tree git itself makes of the diff on the base: what an accepted branch must hold. */
function expectedTree(diff: string): string {
  const env = { ...repo.env, GIT_INDEX_FILE: join(repo.home, "expected-index") };
  execFileSync("git", ["read-tree", "HEAD"], { cwd: repo.dir, env });
  execFileSync("git", ["apply", "--cached", diff], { cwd: repo.dir, env });
  return execFileSync("git", ["write-tree"], { cwd: repo.dir, env, encoding: "utf8" }).trim();
}

function review(worker: string) {
  const result = repo.run(["--worker", worker, "--json"]);
  return { ...result, json: result.stdout ? JSON.parse(result.stdout) : undefined };
}

describe("hostile and benign diffs", () => {
  it.each(corpus("diffs", ".diff"))("$name: $verdict", ({ name, file, verdict }) => {
    configureWorker(repo, name, shellWords("node", RESULT_WORKER, "--diff", file));
    const before = repoState(repo);
    const result = review(name);
    if (verdict === "accept") {
      expect(result.status, result.stderr).toBe(0);
      expect(result.json.branch).toBe(`review/${result.json.id}`);
      expect(repo.git("rev-parse", `${result.json.branch}^{tree}`).trim()).toBe(expectedTree(file));
      expect(repo.git("log", "-1", "--format=%an%n%B", result.json.branch)).toMatch(
        /^git-review-remote\n[\s\S]*Review-Request: [0-9a-f]{64}\nReview-Bundle: [0-9a-f]{64}\nReview-Worker: /,
      );
    } else {
      expect(result.status, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/^git-review-remote: rejected the (result|proposals) of worker/m);
      expect(repoState(repo)).toEqual(before);
    }
  });
});

describe("whole result documents", () => {
  it.each(corpus("results", ".json"))("$name: $verdict", ({ name, file, verdict }) => {
    configureWorker(repo, name, shellWords("node", RESULT_WORKER, file));
    const before = repoState(repo);
    const result = review(name);
    const everything = result.stdout + result.stderr;
    if (verdict === "accept") {
      expect(result.status, result.stderr).toBe(0);
      // Each imported commit carries the tool's trailers once, and no receipt it did not verify.
      const messages = repo.git("log", "--format=%B%x00", result.json.branch, "--not", "HEAD").split("\0");
      for (const message of messages.filter((text) => text.trim() !== "")) {
        expect(message.match(/^review-request\s*:/gim)?.length, message).toBe(1);
        expect(message.match(/^review-worker\s*:/gim)?.length, message).toBe(1);
        expect(message, message).not.toMatch(/^review-receipt\s*:/im);
      }
    } else if (verdict === "reject") {
      expect(result.status, result.stderr).toBe(4);
      expect(repoState(repo)).toEqual(before);
    } else if (verdict === "failed") {
      expect(result.status).toBe(3);
    } else if (verdict === "reject-or-drop") {
      // This version drops: imported, every offending comment left out (or the list cut to the
      // limit) and counted in a warning; no stored comment breaks the rule.
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/^warning: dropped [0-9]+ (invalid )?comments? of worker /m);
      const id = result.json.id as string;
      const stored = JSON.parse(
        readFileSync(join(repo.dir, ".git", "review-remote", "reviews", id, "result.json"), "utf8"),
      );
      expect(ResultSchema.safeParse(stored).success).toBe(true);
      expect(stored.comments.length).toBeLessThanOrEqual(500);
      expect(result.json.reviews[0].dropped.length).toBeGreaterThan(0);
    } else {
      expect([0, 4]).toContain(result.status);
      const stored = readdirSync(join(repo.dir, ".git", "review-remote", "reviews"))
        .map((id) => {
          try {
            return readFileSync(
              join(repo.dir, ".git", "review-remote", "reviews", id, "result.json"),
              "utf8",
            );
          } catch {
            return "";
          }
        })
        .join("");
      for (const text of [everything, stored]) {
        expect(text).not.toMatch(SHOWN_UNSAFE);
      }
    }
  });
});
