// The pipeline as users meet it, through `git review-remote` with workers configured in git config.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  configureWorker,
  createBaseRepo,
  FIXTURES,
  okResult,
  RESULT_WORKER,
  refusingMountPath,
  shellWords,
} from "../helpers/fixtures.js";
import { BIN, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const WORKERS = join(FIXTURES, "workers");
const BENIGN = join(FIXTURES, "results", "01-benign-result.json");

const repos = repoTracker();
function baseRepo(): TestRepo {
  const repo = createBaseRepo();
  repos.add(repo);
  return repo;
}

/** Laid over the test's environment: no identity in the environment, as on a fresh machine. */
const NO_IDENTITY_ENV = {
  GIT_AUTHOR_NAME: undefined,
  GIT_AUTHOR_EMAIL: undefined,
  GIT_COMMITTER_NAME: undefined,
  GIT_COMMITTER_EMAIL: undefined,
};

/** The identity and dates a CI job exports for the commits it makes. */
const CI_IDENTITY = {
  GIT_AUTHOR_NAME: "CI Bot",
  GIT_AUTHOR_EMAIL: "ci@example.invalid",
  GIT_AUTHOR_DATE: "2030-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "CI Bot",
  GIT_COMMITTER_EMAIL: "ci@example.invalid",
  GIT_COMMITTER_DATE: "2030-01-01T00:00:00Z",
};

function calls(file: string): number {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe("review pipeline", () => {
  it("imports a worker's proposal as review/<id> without touching HEAD, the index or the work tree", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const before = repoState(repo);
    const result = repo.run(["--worker", "fake"]);
    expect(result.status, result.stderr).toBe(0);
    const id = /^Review ([0-9a-f]{12}) by fake/m.exec(result.stdout)?.[1] as string;
    expect(result.stdout).toContain("  src/app.ts:4 info Consider validating the total.");
    expect(result.stdout).toContain(`Proposals are on branch review/${id}. Next:`);
    expect(result.stdout).toContain(`git diff HEAD...review/${id}`);
    expect(result.stderr).toMatch(/^remote: fake worker got request [0-9a-f]{12}/m);
    const after = repoState(repo);
    expect({ ...after, refs: "", objects: "" }).toEqual({ ...before, refs: "", objects: "" });
    expect(repo.git("diff", "--stat", "HEAD", `review/${id}`)).toContain("src/app.ts | 3 +++");
    expect(repo.git("notes", "--ref=review-remote", "show", "HEAD")).toContain(
      "src/app.ts:4 info Consider validating",
    );
  });

  it("commits as the tool when the user has no identity configured, never as the worker", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    repo.git("config", "--global", "--unset", "user.name");
    repo.git("config", "--global", "--unset", "user.email");
    const result = repo.run(["--worker", "fake", "--json"], { env: { EMAIL: "" } });
    expect(result.status, result.stderr).toBe(0);
    const { branch } = JSON.parse(result.stdout);
    expect(repo.git("log", "-1", "--format=%an <%ae>|%cn <%ce>", branch).trim()).toBe(
      "git-review-remote <review-remote@localhost>|git-review-remote <review-remote@localhost>",
    );
  });

  it("answers a second review of the same snapshot from the cache, and --no-cache asks again", () => {
    const repo = baseRepo();
    const counter = join(repo.home, "calls");
    configureWorker(repo, "fake", shellWords(join(WORKERS, "counting-worker.sh"), counter, BENIGN));
    const first = repo.run(["--worker", "fake", "--json"]);
    expect(first.status, first.stderr).toBe(0);
    const second = repo.run(["--worker", "fake"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain("(cached: the worker was not contacted)");
    expect(calls(counter)).toBe(1);
    expect(repo.run(["--worker", "fake", "--no-cache"]).status).toBe(0);
    expect(calls(counter)).toBe(2);
    // A reconfigured worker (same name, new command) is never answered from the old result.
    configureWorker(repo, "fake", `${shellWords(join(WORKERS, "counting-worker.sh"), counter, BENIGN)} # v2`);
    expect(repo.run(["--worker", "fake"]).stdout).not.toContain("cached");
    expect(calls(counter)).toBe(3);
    // So is another question.
    expect(repo.run(["--worker", "fake", "-m", "Other question?"]).stdout).not.toContain("cached");
    expect(calls(counter)).toBe(4);
  });

  it("keys the cache on the directory pathspecs are relative to", () => {
    const repo = baseRepo();
    const counter = join(repo.home, "calls");
    const quiet = join(repo.home, "quiet.json");
    writeFileSync(quiet, okResult("nothing to say"));
    configureWorker(repo, "fake", shellWords(join(WORKERS, "counting-worker.sh"), counter, quiet));
    // The same words select other files from another directory: never the same review.
    for (const cwd of [join(repo.dir, "src", "utils"), join(repo.dir, "src")]) {
      const result = repo.run(["--worker", "fake", "--", "*.ts"], { cwd });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).not.toContain("cached");
      // The first line says that the review saw those paths alone.
      expect(result.stdout.split("\n")[0]).toMatch(
        /^Reviewing the whole tree of [0-9a-f]{10} \(a root commit\), limited to -- \*\.ts$/,
      );
    }
    expect(calls(counter)).toBe(2);
    const whole = repo.run(["--worker", "fake", "--no-cache"]);
    expect(whole.stdout.split("\n")[0]).toMatch(
      /^Reviewing the whole tree of [0-9a-f]{10} \(a root commit\)$/,
    );
  });

  it("fans out to several workers: one branch each, and one failing loses nothing of the others", () => {
    const repo = baseRepo();
    configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
    configureWorker(repo, "b", shellWords("node", RESULT_WORKER, BENIGN));
    configureWorker(repo, "down", shellWords(join(WORKERS, "fail-worker.sh")));
    const result = repo.run(["--worker", "a", "--worker", "b", "--worker", "down", "--json"]);
    expect(result.status).toBe(3);
    const json = JSON.parse(result.stdout);
    expect(json.reviews.map((r: { worker: string }) => r.worker).sort()).toEqual(["a", "b"]);
    const branches = json.reviews.map((r: { branch: string }) => r.branch);
    expect(new Set(branches).size).toBe(2);
    for (const branch of branches)
      expect(repo.git("rev-parse", "--verify", branch).trim()).toMatch(/^[0-9a-f]{40}$/);
    expect(json.failures).toEqual([expect.objectContaining({ worker: "down", exitCode: 3 })]);
    expect(result.stderr).toContain("remote[down]: Connection to worker.invalid closed by remote host.");
    const text = repo.run(["--worker", "a", "--worker", "down"]);
    expect(text.status).toBe(3);
    expect(text.stderr).toContain(
      "git-review-remote: worker 'down' exited with status 255\nhint: check the command: git config review-remote.down.command\n",
    );
  });

  it("fans out into one comment list naming every worker, one Next block, identical proposals marked", () => {
    const repo = baseRepo();
    configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
    configureWorker(repo, "b", shellWords("node", RESULT_WORKER, BENIGN));
    const json = JSON.parse(repo.run(["--worker", "a", "--worker", "b", "--json"]).stdout);
    const [first, second] = json.reviews as { id: string; branch: string; identicalTo: string | null }[];
    expect(first?.identicalTo).toBeNull();
    expect(second?.identicalTo).toBe(first?.id);
    const text = repo.run(["--worker", "a", "--worker", "b"]);
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines.filter((line) => line.includes("Consider validating the total."))).toEqual([
      "  src/app.ts:4 info Consider validating the total. [a, b]",
    ]);
    expect(lines.filter((line) => line.startsWith("Next:"))).toHaveLength(1);
    expect(text.stdout).toContain(
      `Proposals are on:\n  ${first?.branch}  a\n  ${second?.branch}  b  (identical to ${first?.branch}, a's)\nNext:\n`,
    );
  });

  it("fans out under review-remote.branchPrefix: the Next block names the branches it made", () => {
    const repo = baseRepo();
    configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
    configureWorker(repo, "b", shellWords("node", RESULT_WORKER, BENIGN));
    repo.git("config", "review-remote.branchPrefix", "proposals/");
    const text = repo.run(["--worker", "a", "--worker", "b"]);
    expect(text.status, text.stderr).toBe(0);
    const ids = [...text.stdout.matchAll(/^Review ([0-9a-f]{12}) by /gm)].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    for (const id of ids)
      expect(repo.git("rev-parse", "--verify", `proposals/${id}`).trim()).toMatch(/^[0-9a-f]{40}$/);
    expect(text.stdout).toMatch(/^ {2}git diff HEAD\.\.\.proposals\/<id>$/m);
    expect(text.stdout).not.toContain("review/");
    // A review answered from the store keeps the branch it was made on: with another prefix now,
    // no one prefix names both, and the Next block says <branch>.
    repo.git("config", "review-remote.branchPrefix", "other/");
    configureWorker(repo, "c", shellWords("node", RESULT_WORKER, BENIGN));
    const mixed = repo.run(["--worker", "a", "--worker", "c"]);
    expect(mixed.status, mixed.stderr).toBe(0);
    expect(mixed.stdout).toContain(`  proposals/${ids[0]}  a\n`);
    expect(mixed.stdout).toMatch(/^ {2}other\/[0-9a-f]{12} {2}c /m);
    expect(mixed.stdout).toMatch(/^ {2}git diff HEAD\.\.\.<branch>$/m);
    expect(mixed.stdout).not.toContain("review/");
  });

  it("fans out with one worker proposing: the Next block names its review, not <id>", () => {
    const repo = baseRepo();
    configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
    const quiet = join(repo.home, "quiet.json");
    writeFileSync(quiet, okResult("Nothing to say.", [], []));
    configureWorker(repo, "quiet", shellWords("node", RESULT_WORKER, quiet));
    const text = repo.run(["--worker", "a", "--worker", "quiet", "--filter-mode=nofilter"]);
    expect(text.status, text.stderr).toBe(0);
    const id = /^Review ([0-9a-f]{12}) by a /m.exec(text.stdout)?.[1] as string;
    expect(text.stdout).toContain(`Proposals are on:\n  review/${id}  a\nNext:\n`);
    expect(text.stdout).toMatch(new RegExp(`^  git review-remote show ${id} +# summary`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^  git diff HEAD\\.\\.\\.review/${id}$`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^  git review-remote drop ${id} +# throw them away$`, "m"));
    expect(text.stdout).not.toContain("<id>");
  });

  it("fans out over uncommitted changes: the Next block diffs from the snapshot, not HEAD", () => {
    const repo = baseRepo();
    configureWorker(repo, "a", shellWords("node", RESULT_WORKER, BENIGN));
    configureWorker(repo, "b", shellWords("node", RESULT_WORKER, BENIGN));
    repo.write("notes.txt", "uncommitted\n");
    const text = repo.run(["--worktree", "--worker", "a", "--worker", "b", "--filter-mode=nofilter"]);
    expect(text.status, text.stderr).toBe(0);
    // HEAD...review/<id> would show notes.txt, the user's own change, as if proposed.
    const diff =
      /^ {2}git diff ([0-9a-f]{12}) review\/<id> +# the proposals, on your uncommitted changes$/m.exec(
        text.stdout,
      );
    expect(diff, text.stdout).not.toBeNull();
    expect(text.stdout).not.toContain("HEAD...");
    const [, branch] = /^ {2}(review\/[0-9a-f]{12}) {2}a$/m.exec(text.stdout) ?? [];
    const proposed = repo.git("diff", "--stat", diff?.[1] as string, branch as string);
    expect(proposed).toContain("src/app.ts");
    expect(proposed).not.toContain("notes.txt");
  });

  it("gives the worker command the review's id in REVIEW_REMOTE_ID, under sh as users' recipes run", () => {
    const repo = baseRepo();
    const seen = join(repo.home, "seen-ids");
    // The README's recipe shape: name something after the review (a pod, a container), then work.
    const recipe = `echo "review-$REVIEW_REMOTE_ID" >> ${shellWords(seen)}; exec ${shellWords("node", RESULT_WORKER, BENIGN)}`;
    configureWorker(repo, "a", recipe);
    configureWorker(repo, "b", recipe);
    const result = repo.run(["--worker", "a", "--worker", "b", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const ids = JSON.parse(result.stdout).reviews.map((review: { id: string }) => `review-${review.id}`);
    expect(ids).toHaveLength(2);
    expect(readFileSync(seen, "utf8").trim().split("\n").sort()).toEqual(ids.sort());
    for (const id of ids) expect(id).toMatch(/^review-[0-9a-f]{12}$/);
  });

  it("gives the worker command none of the GIT_AUTHOR_* and GIT_COMMITTER_* a CI job exports", () => {
    const repo = baseRepo();
    const seen = join(repo.home, "worker-env");
    configureWorker(
      repo,
      "a",
      `env > ${shellWords(seen)}; exec ${shellWords("node", RESULT_WORKER, BENIGN)}`,
    );
    const ci = { ...CI_IDENTITY, GIT_CONFIG_PARAMETERS: "'review-remote.probe'='kept'" };
    const result = repo.run(["--worker", "a"], { env: ci });
    expect(result.status, result.stderr).toBe(0);
    const env = readFileSync(seen, "utf8");
    expect(env).toContain("REVIEW_REMOTE_ID=");
    // The user's own `git -c` config still reaches it; who they are does not.
    expect(env).toContain("GIT_CONFIG_PARAMETERS=");
    expect(env).not.toMatch(/^GIT_(AUTHOR|COMMITTER)_/m);
    expect(env).not.toContain("CI Bot");
  });

  it("carries a bundle of megabytes to the local worker byte for byte (it checks the sha256)", () => {
    // Incompressible and over the transport's two reused send buffers many times: a buffer written
    // over before its write completed would change the bytes, and the worker would refuse them.
    const repo = baseRepo();
    const blocks: Buffer[] = [];
    for (let i = 0; i < 96 * 1024; i++) blocks.push(createHash("sha256").update(`block ${i}`).digest());
    repo.write("assets/noise.bin", Buffer.concat(blocks));
    repo.commit("noise");
    const result = repo.run(["HEAD", "--no-cache"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Review [0-9a-f]{12} by local/m);
  });

  it("reads the local worker's answer whole when it is larger than a pipe holds", () => {
    // The client takes the worker's output once it says its exit code, not at the pipes' end: what
    // was still in the pipes then (up to a pipe's 64 KiB) must come too, or the result is cut.
    const repo = baseRepo();
    const files = 400;
    for (let i = 0; i < files; i++) {
      const lines = Array.from({ length: 12 }, (_, line) => `export const value${line} = ${i};   `);
      repo.write(`src/gen/file${i}.ts`, `${lines.join("\n")}\n`);
    }
    repo.commit("generated");
    const result = repo.run(["HEAD", "--no-cache", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.branch).toMatch(/^review\/[0-9a-f]{12}$/);
    const changed = repo.git("diff", "--name-only", "HEAD", json.branch).trim().split("\n");
    expect(changed).toHaveLength(files);
    const patch = repo.git("diff", "HEAD", json.branch);
    expect(patch.length).toBeGreaterThan(4 * 65536);
    expect(repo.git("show", `${json.branch}:src/gen/file7.ts`)).toBe(
      `${Array.from({ length: 12 }, (_, line) => `export const value${line} = 7;`).join("\n")}\n`,
    );
  });

  it("runs the local worker's command where its namespaces cannot be made, which says why", () => {
    // The client starts the local worker inside its namespaces itself; a tmpfs refused there is
    // learned before anything is sent, and the worker command then runs, falls back and warns.
    const repo = baseRepo();
    const PATH = refusingMountPath(join(repo.home, "refusing-mount"), repo.env.PATH);
    const result = repo.run(["HEAD", "--no-cache"], { env: { PATH } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Review [0-9a-f]{12} by local/m);
    expect(result.stderr).toContain(
      "remote: git-review-remote worker: warning: the workspace has no size or file limit: mount: permission denied (fixture)",
    );
    expect(result.stderr.match(/permission denied \(fixture\)/g)).toHaveLength(1);
  });

  it("kills a worker that exceeds review-remote.timeout and exits 3 with the repo unchanged", () => {
    const repo = baseRepo();
    configureWorker(repo, "slow", shellWords(join(WORKERS, "hang-worker.sh")));
    repo.git("config", "review-remote.timeout", "1");
    const result = runUnchanged(repo, ["--worker", "slow"], 3);
    expect(result.stderr).toContain(
      "git-review-remote: worker 'slow' did not answer within 1 s (review-remote.timeout); it was stopped",
    );
    expect(result.stderr).toContain(
      "hint: give the worker more time: --timeout <seconds> for one review, or git config review-remote.timeout <seconds>",
    );
    expect(result.stderr).toContain("remote: thinking...");
  });

  it("stops a worker still silent when review-remote.timeout is over, not seconds later", () => {
    // The answer comes 6 s after the start: well past the 2 s the user allows, and before the 12 s
    // (the limit and a fixed 10 s margin) a worker used to be given.
    const repo = baseRepo();
    const result = join(repo.home, "result.json");
    writeFileSync(result, okResult("late"));
    configureWorker(repo, "late", `sleep 6; exec ${shellWords("node", RESULT_WORKER, result)}`);
    repo.git("config", "review-remote.timeout", "2");
    const run = runUnchanged(repo, ["--worker", "late"], 3);
    expect(run.stderr).toContain("worker 'late' did not answer within 2 s (review-remote.timeout)");
  });

  it("takes --timeout over review-remote.timeout for one review, and names it when it runs out", () => {
    const repo = baseRepo();
    configureWorker(repo, "slow", shellWords(join(WORKERS, "hang-worker.sh")));
    repo.git("config", "review-remote.timeout", "600");
    const result = runUnchanged(repo, ["--worker", "slow", "--timeout", "1"], 3);
    expect(result.stderr).toContain("worker 'slow' did not answer within 1 s (--timeout); it was stopped");
    expect(result.stderr).toContain("hint: give the worker more time: --timeout <seconds> for one review");
  });

  it("refuses a --timeout that is not a number of seconds, before anything runs", () => {
    const repo = baseRepo();
    configureWorker(repo, "slow", shellWords(join(WORKERS, "hang-worker.sh")));
    const result = runUnchanged(repo, ["--worker", "slow", "--timeout", "1.5"], 2);
    expect(result.stderr).toContain("--timeout must be a number of seconds from 1 to 2147483, not '1.5'");
    expect(result.stderr).not.toContain("thinking");
  });

  it("names the policy's limit when the policy lowered review-remote.timeout", () => {
    const repo = baseRepo();
    configureWorker(repo, "slow", shellWords(join(WORKERS, "hang-worker.sh")));
    repo.write(".review-remote.json", JSON.stringify({ limits: { timeoutSeconds: 1 } }));
    const result = runUnchanged(repo, ["--worker", "slow"], 3);
    expect(result.stderr).toContain(
      "worker 'slow' did not answer within 1 s (the policy's limits.timeoutSeconds); it was stopped",
    );
  });

  it("says how to install the worker when its command is not found (exit 127)", () => {
    const repo = baseRepo();
    configureWorker(repo, "missing", "git-review-remote-not-installed worker");
    const result = runUnchanged(repo, ["--worker", "missing"], 3);
    expect(result.stderr).toContain("git-review-remote: worker 'missing' exited with status 127");
    expect(result.stderr).toContain(
      'hint: exit 127 is a shell\'s "command not found": install the worker where it runs (npm install -g git-review-remote), or give its full path',
    );
    // No worker ran: no answer is coming that an import could take.
    expect(result.stderr).not.toContain("can still be imported");
    // What was to be reviewed is said first, as when a worker answers.
    expect(result.stdout).toMatch(/^Reviewing [^\n]+\n$/);
    // --json prints the document a fan-out's failures are in; the failure is on stderr as above.
    const json = repo.run(["--worker", "missing", "--json"]);
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: null,
      status: "failed",
      reviews: [],
      failures: [
        {
          worker: "missing",
          status: "failed",
          exitCode: 3,
          error: "worker 'missing' exited with status 127",
        },
      ],
    });
    expect(json.stderr).toContain("git-review-remote: worker 'missing' exited with status 127\n");
  });

  it("says how to give more time when the worker's own deadline stopped its reviewer", () => {
    const repo = baseRepo();
    configureWorker(
      repo,
      "slow",
      shellWords(process.execPath, BIN, "worker", "--reviewer-command", "sleep 60"),
    );
    repo.git("config", "review-remote.timeout", "2");
    const result = runUnchanged(repo, ["--worker", "slow"], 3);
    expect(result.stderr).toMatch(/worker 'slow' reported a failure: .*\(review-remote\.timeout is 2 s\)$/m);
    expect(result.stderr).toContain(
      "hint: give the worker more time: --timeout <seconds> for one review, or git config review-remote.timeout <seconds>",
    );
    // The record says it as the terminal did: list and show name the setting, not the request's field.
    const reason = /reported a failure: (.*)$/m.exec(result.stderr)?.[1];
    const [record] = JSON.parse(repo.run(["list", "--json"]).stdout);
    expect(record.problems).toEqual([reason]);
  });

  it("says to lint the change's files when a reviewer's JSON report is too large to read", () => {
    const repo = baseRepo();
    const flood = "head -c 33554433 /dev/zero";
    configureWorker(
      repo,
      "lint",
      shellWords(process.execPath, BIN, "worker", "--reviewer-command", flood, "--reviewer-format", "rdjson"),
    );
    const result = runUnchanged(repo, ["--worker", "lint"], 3);
    expect(result.stderr).toContain(
      "worker 'lint' reported a failure: rdjson: the report is over 33554432 bytes; a JSON document cannot be read in part",
    );
    expect(result.stderr).toContain(
      'hint: lint less: in a focused review give the tool the changed files alone, listed in "$REVIEW_REMOTE_CHANGED"',
    );
  });

  it("stops a worker that sends more than maxResultBytes and rejects its result (exit 4)", () => {
    const repo = baseRepo();
    configureWorker(repo, "flood", shellWords(join(WORKERS, "flood-worker.sh")));
    repo.write(".review-remote.json", JSON.stringify({ limits: { maxResultBytes: 65536 } }));
    const result = runUnchanged(repo, ["--worker", "flood"], 4);
    expect(result.stderr).toContain("sent more than 65536 bytes");
  });

  it("shows worker stderr as remote: lines with control characters removed, each once on failure", () => {
    const repo = baseRepo();
    configureWorker(repo, "noisy", shellWords(join(WORKERS, "noisy-worker.sh")));
    const result = repo.run(["--worker", "noisy"]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain("worker 'noisy' exited with status 7");
    // Shown as they came: not repeated under the error.
    expect(result.stderr.match(/remote: last words/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/^remote: progress red link done$/m);
    expect(["\u0007", "\u001b", "\r"].some((c) => result.stderr.includes(c))).toBe(false);
  });

  it("shows a blank stderr line as git shows an empty sideband line: remote: and one space", () => {
    const repo = baseRepo();
    // Biome separates its diagnostics with lines of indentation only, some of them in colour.
    configureWorker(
      repo,
      "blank",
      "cat >/dev/null; printf 'first\\n\\n  \\n\\033[0m  \\033[0m\\r\\n\\t\\nlast words   \\n' >&2; exit 7",
    );
    const shown = runUnchanged(repo, ["--worker", "blank"], 3);
    // git's sideband.c writes "remote: " and the line break for an empty line, nothing after.
    expect(shown.stderr).toContain(
      "remote: first\nremote: \nremote: \nremote: \nremote: \nremote: last words\n",
    );
    const quiet = runUnchanged(repo, ["--worker", "blank", "-q"], 3);
    expect(quiet.stderr).toContain(
      "  remote: first\n  remote: \n  remote: \n  remote: \n  remote: \n  remote: last words\n",
    );
  });

  it("gives a quiet run's failure the worker's last lines under the error, since none were shown", () => {
    const repo = baseRepo();
    configureWorker(repo, "noisy", shellWords(join(WORKERS, "noisy-worker.sh")));
    const result = repo.run(["--worker", "noisy", "-q"]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain("worker 'noisy' exited with status 7");
    expect(result.stderr.match(/remote: last words/g)).toHaveLength(1);
    expect(result.stderr).toContain("  remote: last words");
  });

  it("exits 130 on Ctrl-C, stops the worker and imports nothing", async () => {
    const repo = baseRepo();
    const pidFile = join(repo.home, "worker.pid");
    configureWorker(
      repo,
      "slow",
      `echo $$ > ${shellWords(pidFile)}; exec ${shellWords(join(WORKERS, "hang-worker.sh"))}`,
    );
    const before = repoState(repo);
    // As a terminal does: SIGINT to the whole foreground process group.
    const child = spawn("node", [BIN, "--worker", "slow"], { cwd: repo.dir, env: repo.env, detached: true });
    let stderr = "";
    let interrupted = false;
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (!interrupted && stderr.includes("thinking")) {
        interrupted = true;
        process.kill(-(child.pid as number), "SIGINT");
      }
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(stderr).toContain("git-review-remote: interrupted");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(() => process.kill(pid, 0)).toThrow();
    expect(repoState(repo)).toEqual(before);
  });

  it("colors comments when color.ui says always, and never with NO_COLOR", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    repo.git("config", "color.ui", "always");
    expect(repo.run(["--worker", "fake"]).stdout).toContain("\u001b[36msrc/app.ts:4 info");
    expect(repo.run(["--worker", "fake"], { env: { NO_COLOR: "1" } }).stdout).not.toContain("\u001b[");
    repo.git("config", "color.ui", "auto");
    expect(repo.run(["--worker", "fake"]).stdout).not.toContain("\u001b[");
  });

  it("answers bad arguments with exit 2, one line and a hint", () => {
    const repo = baseRepo();
    const result = runUnchanged(repo, ["--bogus"], 2);
    expect(result.stderr).toBe(
      "git-review-remote: unknown option '--bogus'\nhint: see 'git review-remote -h'\n",
    );
  });

  it("names an unconfigured worker with a hint", () => {
    const repo = baseRepo();
    const result = repo.run(["--worker", "nowhere"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("git-review-remote: no worker named 'nowhere' is configured");
    expect(result.stderr).toContain("hint: configure it with: git config review-remote.nowhere.command");
    expect(result.stderr).not.toContain("review-remote.worker");
  });

  it("names the default worker's setting when it names no configured worker", () => {
    const repo = baseRepo();
    repo.git("config", "review-remote.worker", "gone");
    const result = runUnchanged(repo, [], 2);
    expect(result.stderr).toBe(
      [
        "git-review-remote: no worker named 'gone' is configured",
        "hint: configure it with: git config review-remote.gone.command 'ssh <host> git-review-remote worker'",
        "hint: review-remote.worker makes 'gone' the default worker; to review on the local one again: git config --unset review-remote.worker",
        "",
      ].join("\n"),
    );
  });

  it("finds a worker configured in the global file GIT_CONFIG_GLOBAL names, as git config does", () => {
    const repo = baseRepo();
    const global = join(repo.home, "elsewhere.gitconfig");
    const env = { GIT_CONFIG_GLOBAL: global };
    const git = (...args: string[]) =>
      spawnSync("git", args, { cwd: repo.dir, env: { ...repo.env, ...env }, encoding: "utf8" });
    expect(
      git("config", "--global", "review-remote.g.command", shellWords("node", RESULT_WORKER, BENIGN)).status,
    ).toBe(0);
    expect(git("config", "review-remote.g.command").stdout).toContain(RESULT_WORKER);
    const result = repo.run(["--worker", "g", "--json"], { env });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "imported", worker: "g" });
    // Without it, the worker is nowhere, and the review says so.
    runUnchanged(repo, ["--worker", "g", "--no-cache"], 2);
  });

  it("says a worker command given where a worker's name goes is one, with the two lines that fix it", () => {
    const repo = baseRepo();
    repo.git("config", "review-remote.worker", "ssh -p 2222 box git review-remote worker");
    const result = runUnchanged(repo, [], 2);
    expect(result.stderr).toBe(
      "git-review-remote: 'ssh -p 2222 box git review-remote worker' is a command, not a worker's name: review-remote.worker and --worker name a worker, whose command is review-remote.<name>.command\n" +
        "hint: name it, then make it the default: git config review-remote.box.command 'ssh -p 2222 box git review-remote worker' && git config review-remote.worker box\n",
    );
  });

  it("says where to install the worker when git on its host has no review-remote command", () => {
    const repo = baseRepo();
    // As `ssh box git review-remote worker` on a host without the package: a PATH with git alone.
    const bin = join(repo.dir, ".git", "git-only");
    mkdirSync(bin);
    const git = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
    symlinkSync(git, join(bin, "git"));
    repo.git("config", "review-remote.box.command", `PATH=${bin} git review-remote worker`);
    const result = runUnchanged(repo, ["--worker", "box"], 3);
    expect(result.stderr).toContain("remote: git: 'review-remote' is not a git command.");
    expect(result.stderr).toContain(
      "hint: git found no git-review-remote on the PATH the worker's command runs with: install the worker there",
    );
    expect(result.stderr).not.toContain("can still be imported");
  });

  it("never takes a worker command from a file in the repository", () => {
    const repo = baseRepo();
    repo.write(
      ".review-remote.json",
      JSON.stringify({ workers: { local: { command: "touch /tmp/pwned" } } }),
    );
    const result = repo.run(["export", "--list"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unrecognized key: "workers"');
  });
});

describe("review commands", () => {
  it("lists, shows (text, json, sarif), merges and drops reviews", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const json = JSON.parse(repo.run(["--worker", "fake", "--json"]).stdout);
    const list = repo.run(["list"]);
    expect(list.stdout).toMatch(new RegExp(`^${json.id}  imported  fake `, "m"));
    const show = repo.run(["show", json.id.slice(0, 6)]);
    expect(show.stdout).toContain("One guard proposed.");
    expect(show.stdout).toMatch(/proposal [0-9a-f]+ Guard against negative totals/);
    expect(show.stdout).toContain("src/app.ts | 3 +++");
    const sarif = JSON.parse(repo.run(["show", json.id, "--format=sarif"]).stdout);
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results[0]).toMatchObject({
      level: "note",
      locations: [
        { physicalLocation: { artifactLocation: { uri: "src/app.ts" }, region: { startLine: 4 } } },
      ],
    });
    const head = repo.git("rev-parse", "HEAD").trim();
    const tip = repo.git("rev-parse", json.branch).trim();
    const merged = repo.run(["merge", json.id]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`hint: to undo: git reset --keep ${head}`);
    expect(repo.git("rev-parse", "HEAD").trim()).toBe(tip);
    // The merged review's branch goes; the record stays, and says how to bring the branch back.
    expect(merged.stdout).toContain(`Deleted branch ${json.branch}; the record stays`);
    expect(merged.stderr).toContain(`hint: to restore it: git branch ${json.branch} ${tip}`);
    expect(repo.git("branch", "--list", "review/*")).toBe("");
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "merged"');
    expect(readFileSync(join(repo.dir, "src/app.ts"), "utf8")).toContain("negative total");
    // Dropping it afterwards takes nothing back: it stays merged.
    const dropped = repo.run(["drop", json.id]);
    expect(dropped.status, dropped.stderr).toBe(0);
    expect(dropped.stdout).toBe(`Review ${json.id} is merged and has no branch left: nothing to drop.\n`);
    expect(repo.git("branch", "--list", "review/*")).toBe("");
    expect(repo.run(["list", "--json"]).stdout).toContain('"state": "merged"');
  });

  it("refuses to merge into a dirty work tree, and exits 5 on a conflict with nothing changed", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const { id } = JSON.parse(repo.run(["--worker", "fake", "--json"]).stdout);
    repo.write("src/app.ts", "dirty\n");
    const dirty = runUnchanged(repo, ["merge", id], 1);
    // Which changes, as git status --short names them.
    expect(dirty.stderr).toBe(
      "git-review-remote: your work tree has uncommitted changes to files the merge writes; it would mix them in\n" +
        "   M src/app.ts\n" +
        "hint: commit or stash them first (git stash), then run the merge again\n",
    );
    repo.commit("conflicting change");
    const conflict = runUnchanged(repo, ["merge", id], 5);
    expect(conflict.stderr).toContain("conflict: src/app.ts");
  });

  it("refuses to merge a review of a commit HEAD does not contain, and names the cherry-pick", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const main = repo.git("rev-parse", "--abbrev-ref", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write("feature.txt", "unmerged work\n");
    const feature = repo.commit("unmerged feature work").slice(0, 10);
    const { id, branch } = JSON.parse(repo.run(["--worker", "fake", "--all", "--json"]).stdout);
    repo.git("checkout", "-q", main);
    const refused = runUnchanged(repo, ["merge", id], 1);
    expect(refused.stderr).toContain(`review ${id} is of commit ${feature}, which HEAD does not contain`);
    expect(refused.stderr).toContain(
      `hint: or take the proposals alone: git cherry-pick ${feature}..${branch}`,
    );
    // No work tree has the reviewed commit: no hint names one.
    expect(refused.stderr).not.toContain("the work tree that has it checked out");
    // A linked work tree on the feature branch is where the merge belongs, and the hint says so.
    const linked = join(repo.home, "feature tree");
    repo.git("worktree", "add", "-q", linked, "feature");
    const there = runUnchanged(repo, ["merge", id], 1);
    expect(there.stderr).toContain(
      `hint: merge it in the work tree that has it checked out: git -C '${linked}' review-remote merge ${id}\n`,
    );
    repo.git("worktree", "remove", linked);
    repo.git("cherry-pick", `${feature}..${branch}`);
    expect(existsSync(join(repo.dir, "feature.txt"))).toBe(false);
    expect(readFileSync(join(repo.dir, "src/app.ts"), "utf8")).toContain("negative total");
  });

  it("says the next steps of a review of a commit HEAD does not hold as they work from HEAD", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const main = repo.git("rev-parse", "--abbrev-ref", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write("feature.txt", "unmerged work\n");
    const feature = repo.commit("unmerged feature work").slice(0, 10);
    repo.git("checkout", "-q", main);
    // The fake worker's fix is to src/app.ts, outside the change: nofilter keeps it.
    const result = repo.run(["--worker", "fake", "--filter-mode=nofilter", `${main}...feature`]);
    expect(result.status, result.stderr).toBe(0);
    const id = /^Review ([0-9a-f]{12}) by fake/m.exec(result.stdout)?.[1] as string;
    // HEAD...review/<id> would show feature.txt as proposed; the merge runs where feature is.
    const diff = `git diff ${feature} review/${id}`;
    expect(result.stdout).toMatch(new RegExp(`^  ${diff} +# the proposals$`, "m"));
    expect(result.stdout).toMatch(
      new RegExp(
        `^  git review-remote merge ${id} +# bring the proposals in, on a branch that holds ${feature}$`,
        "m",
      ),
    );
    expect(result.stdout).not.toContain("HEAD...");
    expect(repo.git(...diff.split(" ").slice(1), "--stat")).not.toContain("feature.txt");
    // On the branch it reviewed, the usual steps.
    repo.git("checkout", "-q", "feature");
    const there = repo.run(["--worker", "fake", "--filter-mode=nofilter", `${main}..feature`]);
    expect(there.stdout).toContain("git diff HEAD...review/");
    expect(there.stdout).toMatch(/# bring the proposals in$/m);
  });

  it("refuses a merge that needs a merge commit when git knows no identity, before anything", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const { id } = JSON.parse(repo.run(["--worker", "fake", "--json"]).stdout);
    repo.write("other.txt", "meanwhile\n");
    repo.commit("meanwhile");
    // A fresh machine: no user.name or user.email, and nothing git may guess them from.
    repo.git("config", "--global", "--unset", "user.name");
    repo.git("config", "--global", "--unset", "user.email");
    repo.git("config", "--global", "user.useConfigOnly", "true");
    const refused = runUnchanged(repo, ["merge", id], 1, { env: { EMAIL: "", ...NO_IDENTITY_ENV } });
    expect(refused.stderr).toBe(
      "git-review-remote: the merge commit needs your name and email, and git knows no author: neither user.name and user.email in its config nor GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL in the environment; nothing was changed\n" +
        'hint: tell git who you are, then merge again: git config --global user.name "Your Name"; git config --global user.email you@example.com (a CI job can export GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL instead)\n',
    );
    // An author alone is not enough: the committer is asked for too, before anything.
    const noCommitter = runUnchanged(repo, ["merge", id], 1, {
      env: { ...NO_IDENTITY_ENV, EMAIL: "", GIT_AUTHOR_NAME: "CI", GIT_AUTHOR_EMAIL: "ci@example.invalid" },
    });
    expect(noCommitter.stderr).toContain("git knows no committer: neither user.name and user.email");
    expect(repo.git("for-each-ref", `refs/review-remote/${id}/`)).toBe("");
    repo.git("config", "--global", "user.name", "Test Author");
    repo.git("config", "--global", "user.email", "author@example.invalid");
    const merged = repo.run(["merge", id]);
    expect(merged.status, merged.stderr).toBe(0);
  });

  it("dates the proposals as the reviewed commit: one result imported twice is the same commits", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const review = (env: Record<string, string> = {}) => {
      const run = repo.run(["--worker", "fake", "--json", "--no-cache"], { env });
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { id: string; branch: string };
    };
    const first = review();
    // Later, and with a CI job's dates exported: neither the clock nor those dates reach the commits.
    const second = review(CI_IDENTITY);
    expect(second.id).not.toBe(first.id);
    const tip = (branch: string) => repo.git("rev-parse", branch).trim();
    expect(tip(second.branch)).toBe(tip(first.branch));
    const dates = repo
      .git("log", "--format=%ad|%cd", "--date=raw", `HEAD..${first.branch}`)
      .trim()
      .split("\n");
    const reviewed = repo.git("log", "-1", "--format=%cd", "--date=raw", "HEAD").trim();
    expect(dates.length).toBeGreaterThan(0);
    for (const line of dates) expect(line).toBe(`${reviewed}|${reviewed}`);
  });

  it("makes the merge commit with the identity a CI job exports, and keeps it off the review branch", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const ci = CI_IDENTITY;
    // The review branch is the tool's: neither the exported identity nor its dates reach it.
    const reviewed = repo.run(["--worker", "fake", "--json"], { env: ci });
    expect(reviewed.status, reviewed.stderr).toBe(0);
    const { id, branch } = JSON.parse(reviewed.stdout);
    const proposal = repo.git(
      "log",
      "-1",
      "--format=%an <%ae> %ad|%cn <%ce> %cd",
      "--date=format:%Y",
      branch,
    );
    expect(proposal).toMatch(
      /^git-review-remote <review-remote@localhost> \d{4}\|Test Author <author@example\.invalid> \d{4}\n$/,
    );
    expect(proposal).not.toContain("2030");
    repo.write("other.txt", "meanwhile\n");
    repo.commit("meanwhile");
    // A CI machine: no identity in git config, only the variables.
    repo.git("config", "--global", "--unset", "user.name");
    repo.git("config", "--global", "--unset", "user.email");
    repo.git("config", "--global", "user.useConfigOnly", "true");
    const merged = repo.run(["merge", id], { env: { EMAIL: "", ...ci } });
    expect(merged.status, merged.stderr).toBe(0);
    expect(repo.git("log", "-1", "--format=%an <%ae> %aI|%cn <%ce> %cI|%s", "HEAD")).toBe(
      `CI Bot <ci@example.invalid> 2030-01-01T00:00:00+00:00|CI Bot <ci@example.invalid> 2030-01-01T00:00:00+00:00|Merge review ${id} (fake)\n`,
    );
  });

  it("imports a result fetched out of band through the same validation", () => {
    const repo = baseRepo();
    configureWorker(repo, "down", shellWords(join(WORKERS, "fail-worker.sh")));
    expect(repo.run(["--worker", "down"]).status).toBe(3);
    expect(repo.run(["--worker", "down"]).status).toBe(3);
    const reviews = join(repo.dir, ".git", "review-remote", "reviews");
    const [first, second] = readdirSync(reviews) as [string, string];
    const request = JSON.parse(readFileSync(join(reviews, first, "request.json"), "utf8"));
    const file = join(repo.home, "result.json");
    writeFileSync(
      file,
      readFileSync(BENIGN, "utf8")
        .replaceAll("@REQUEST_ID@", request.id)
        .replaceAll("@BUNDLE_SHA256@", request.bundle.sha256),
    );
    const imported = repo.run(["import", file, "--request", first]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Proposals are on branch review/${first}`);
    // An imported review takes nothing more; a tampered result for another one is rejected.
    const again = repo.run(["import", file, "--request", first]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`review ${first} is imported`);
    writeFileSync(file, readFileSync(file, "utf8").replace(request.id, "0".repeat(64)));
    const before = repoState(repo);
    expect(repo.run(["import", file, "--request", second]).status).toBe(4);
    expect(repoState(repo)).toEqual(before);
  });

  it("records every send in audit.jsonl and verifies the stored bundles", () => {
    const repo = baseRepo();
    configureWorker(repo, "fake", shellWords("node", RESULT_WORKER, BENIGN));
    const review = JSON.parse(repo.run(["--worker", "fake", "--json"]).stdout);
    const audit = JSON.parse(repo.run(["audit", "--json"]).stdout);
    expect(audit).toEqual([
      expect.objectContaining({
        worker: "fake",
        reviewId: review.id,
        bundleSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect(audit[0].command).toContain("result-worker.mjs");
    expect(repo.run(["audit", "--verify"]).status).toBe(0);
  });
});
