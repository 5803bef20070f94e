// The README's agent CLI recipes, one per pattern, with a scripted stand-in agent behind the README's
// one-line wrapper scripts: the prompt from $REVIEW_REMOTE_QUESTION, its edits or its own commits
// proposed, its answer in $REVIEW_REMOTE_SUMMARY.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { proposed, review } from "../helpers/recipes.js";
import { BIN, createTestRepo, repoTracker, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
const scratch = mkdtempSync(join(tmpdir(), "rr-recipes-agents-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AGENT = join(FIXTURES, "reviewers", "stand-in-agent.sh");

describe("agent CLI recipes with a scripted stand-in agent", () => {
  /** The README's agent tools directory: the agent itself and one small script per pattern. */
  function agentTools(): string {
    const tools = mkdtempSync(join(scratch, "agent-"));
    mkdirSync(join(tools, "bin"));
    cpSync(AGENT, join(tools, "bin", "my-agent"));
    writeFileSync(
      join(tools, "bin", "review-agent"),
      '#!/bin/sh\nexec my-agent -p "$REVIEW_REMOTE_QUESTION" > "$REVIEW_REMOTE_SUMMARY"\n',
      { mode: 0o755 },
    );
    writeFileSync(
      join(tools, "bin", "review-agent-exec"),
      '#!/bin/sh\nexec my-agent exec "$REVIEW_REMOTE_QUESTION"\n',
      {
        mode: 0o755,
      },
    );
    execFileSync("chmod", ["-R", "a+rX", scratch]);
    return tools;
  }

  function agentRepo(script: string): TestRepo {
    const repo = repos.add(createTestRepo());
    repo.write("src/a.js", "export const same = (a, b) => a == b;\n");
    repo.commit("a loose comparison");
    const worker = shellWords(
      process.execPath,
      BIN,
      "worker",
      "--sandbox=require",
      "--network",
      "--tools",
      agentTools(),
      "--reviewer-command",
      script,
    );
    configureWorker(repo, "agent", worker);
    return repo;
  }

  it("print mode: the prompt from $REVIEW_REMOTE_QUESTION, edits proposed, its answer the summary", () => {
    const repo = agentRepo("review-agent");
    const result = review(repo, ["--all", "--worker", "agent", "-m", "Use strict equality."]);
    expect(proposed(repo, result.branch)).toEqual({ "src/a.js": "export const same = (a, b) => a === b;\n" });
    expect(repo.git("log", "-1", "--format=%s", result.branch).trim()).toBe(
      "review-agent: 1 file changed (src/a.js)",
    );
    expect(result.summary).toContain("review-agent: Used strict equality in: src/a.js.");
  });

  it("print mode, an answer alone: the review says where the whole answer is", () => {
    const repo = agentRepo("review-agent");
    const result = repo.run(["--worker", "agent", "-m", "Is the comparison right?"]);
    expect(result.status, result.stderr).toBe(0);
    const id = /^Review ([0-9a-f]{12}) by agent/m.exec(result.stdout)?.[1] as string;
    // The review's line is the summary's first, "Ran review-agent."; the answer is further down.
    expect(result.stdout).toContain(
      `Nothing to propose.\nThe worker's whole summary: git review-remote show ${id}\n`,
    );
    expect(repo.run(["show", id]).stdout).toContain(
      "review-agent: Nothing to do for: Is the comparison right?",
    );
  });

  it("autonomous mode: the agent's own commits are the proposals, with its messages", () => {
    const repo = agentRepo("review-agent-exec");
    const result = review(repo, ["--all", "--worker", "agent", "-m", "Use strict equality."]);
    expect(repo.git("log", "--format=%s", `HEAD..${result.branch}`).trim()).toBe("Use strict equality");
    expect(repo.git("log", "-1", "--format=%b", result.branch)).toContain("Asked: Use strict equality.");
    expect(proposed(repo, result.branch)).toEqual({ "src/a.js": "export const same = (a, b) => a === b;\n" });
  });
});
