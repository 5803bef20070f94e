// Findings filtered to the change as users see them: the run's report, a cached answer re-filtered
// by another mode, `show` and `show --all-comments`, and the JSON and SARIF that carry them all.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  configureWorker,
  FIXTURES,
  okResult,
  RESULT_WORKER,
  shellWords,
  useResultWorker,
} from "../helpers/fixtures.js";
import { createTestRepo, repoState, repoTracker, type TestRepo } from "../helpers/repo.js";

const COMMENTS = join(FIXTURES, "focus", "comments.json");
const repos = repoTracker();

/** src/a.ts of 20 lines whose last commit changed line 10; src/other.ts untouched. */
function changedRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  configureWorker(repo, "fixture", shellWords("node", RESULT_WORKER, COMMENTS));
  repo.git("config", "review-remote.worker", "fixture");
  const lines = Array.from({ length: 20 }, (_, i) => `export const v${i + 1} = ${i + 1};`);
  repo.write("src/a.ts", `${lines.join("\n")}\n`);
  repo.write("src/other.ts", "export const other = 1;\n");
  repo.commit("base");
  lines[9] = "export const v10 = 100;";
  repo.write("src/a.ts", `${lines.join("\n")}\n`);
  repo.commit("change line 10");
  return repo;
}

const messages = (comments: Array<{ message: string }>) => comments.map((comment) => comment.message);

describe("--filter-mode", () => {
  it("shows what is on the added lines by default and counts what it hides", () => {
    const repo = changedRepo();
    const result = repo.run([]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("src/a.ts:10 error On the added line.");
    expect(result.stdout).toContain("src/a.ts info About the changed file.");
    expect(result.stdout).toContain("(general) info About the whole change.");
    expect(result.stdout).not.toContain("Outside the hunk.");
    const id = /^Review ([0-9a-f]{12})/m.exec(result.stdout)?.[1];
    expect(result.stdout).toContain(
      `  4 comments outside the change hidden (--filter-mode=added); see git review-remote show ${id} --all-comments`,
    );
  });

  it.each([
    ["added", ["On the added line.", "About the changed file.", "About the whole change."]],
    [
      "diff_context",
      [
        "On the added line.",
        "In the hunk's context.",
        "A span up to the added line's context.",
        "About the changed file.",
        "About the whole change.",
      ],
    ],
    [
      "file",
      [
        "On the added line.",
        "In the hunk's context.",
        "Outside the hunk.",
        "A span up to the added line's context.",
        "About the changed file.",
        "About the whole change.",
      ],
    ],
  ])("%s keeps reviewdog's set of comments, from the cached answer too", (mode, shown) => {
    const repo = changedRepo();
    const fresh = JSON.parse(repo.run(["--json", "--filter-mode", mode]).stdout);
    expect(messages(fresh.comments)).toEqual(shown);
    expect(fresh.reviews[0].hiddenComments).toBe(7 - shown.length);
    expect(fresh.reviews[0].filterMode).toBe(mode);
    // The cache keeps every comment: another mode re-filters the stored answer.
    const cached = JSON.parse(repo.run(["--json", "--filter-mode", "nofilter"]).stdout);
    expect(cached.reviews[0].cached).toBe(true);
    expect(cached.comments).toHaveLength(7);
    repo.git("config", "review-remote.filterMode", mode);
    expect(messages(JSON.parse(repo.run(["--json"]).stdout).comments)).toEqual(shown);
  });

  it("shows every comment of a whole-tree review", () => {
    const repo = changedRepo();
    const all = JSON.parse(repo.run(["--json", "--all"]).stdout);
    expect(all.comments).toHaveLength(7);
    expect(all.reviews[0].filterMode).toBe("nofilter");
  });

  it("refuses an unknown mode, from the flag or git config, changing nothing", () => {
    const repo = changedRepo();
    const before = repoState(repo);
    const flag = repo.run(["--filter-mode", "lines"]);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("--filter-mode must be added, diff_context, file or nofilter, not 'lines'");
    repo.git("config", "review-remote.filterMode", "everything");
    const config = repo.run([]);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain("bad config value 'everything' for review-remote.filterMode");
    expect(repoState(repo)).toEqual(before);
  });
});

/** Names git quotes: always (a tab, a line break), or under core.quotePath (a non-ASCII letter). */
const QUOTED_NAMES = ["caf\u00e9.ts", "tab\there.ts", "new\nline.ts"];
const LOOK_HERE = QUOTED_NAMES.map((path) => ({ path, line: 1, severity: "warning", message: "Look here." }));

/** The comments on QUOTED_NAMES as printed, with café.ts spelled `cafe`. */
const lookHereLines = (cafe: string) => [
  `${cafe}:1 warning Look here.`,
  '"tab\\there.ts":1 warning Look here.',
  '"new\\nline.ts":1 warning Look here.',
];

/** Those lines as the report and show list comments, indented. */
const listed = (cafe: string) =>
  lookHereLines(cafe)
    .map((line) => `  ${line}`)
    .join("\n");

/** A commit changing each of QUOTED_NAMES on its line 1. */
function quotedPathsRepo(): TestRepo {
  const repo = repos.add(createTestRepo());
  for (const name of QUOTED_NAMES) repo.write(name, "one\n");
  repo.commit("base");
  for (const name of QUOTED_NAMES) repo.write(name, "two\n");
  repo.commit("change");
  return repo;
}

describe("paths in the review's report and its git note", () => {
  it.each([
    ["true", '"caf\\303\\251.ts"'],
    ["false", "caf\u00e9.ts"],
  ])("are printed as git prints them with core.quotePath %s", (quotePath, cafe) => {
    const repo = quotedPathsRepo();
    useResultWorker(repo, okResult("Paths.", LOOK_HERE));
    repo.git("config", "core.quotePath", quotePath);
    const result = repo.run([]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(listed(cafe));
    const note = repo.git("notes", "--ref=review-remote", "show", "HEAD");
    expect(note).toMatch(/^review [0-9a-f]{12} by \S+:\n/);
    expect(note).toContain(lookHereLines(cafe).join("\n"));
  });
});

describe("show", () => {
  it("prints every path as git does, core.quotePath deciding: comments and each proposal's stat", () => {
    const repo = quotedPathsRepo();
    repo.write(QUOTED_NAMES[0] as string, "three\n");
    const patch = repo.git("diff");
    repo.git("checkout", "--", ".");
    useResultWorker(repo, okResult("Paths.", LOOK_HERE, [{ message: "Three", patch }]));
    const id = JSON.parse(repo.run(["--json"]).stdout).id as string;
    const quoted = repo.run(["show", id]);
    expect(quoted.status, quoted.stderr).toBe(0);
    // The stat said "caf\303\251.ts" and the comment café.ts; a tab was \u{9}.
    expect(quoted.stdout).toContain(listed('"caf\\303\\251.ts"'));
    expect(quoted.stdout).toMatch(/^ "caf\\303\\251\.ts" \| 2 \+-$/m);
    repo.git("config", "core.quotePath", "false");
    const plain = repo.run(["show", id]);
    expect(plain.stdout).toContain(listed("caf\u00e9.ts"));
    expect(plain.stdout).toMatch(/^ caf\u00e9\.ts \| 2 \+-$/m);
  });

  it("hides what is outside the change unless --all-comments; JSON and SARIF carry both, marked", () => {
    const repo = changedRepo();
    const id = JSON.parse(repo.run(["--json"]).stdout).id as string;
    const shown = repo.run(["show", id]);
    expect(shown.stdout).toMatch(/^range {4}[0-9a-f]{40}\.\.[0-9a-f]{40}$/m);
    expect(shown.stdout).toContain("src/a.ts:10 error On the added line.");
    expect(shown.stdout).not.toContain("Outside the hunk.");
    expect(shown.stdout).toContain(
      `4 comments outside the change hidden (--filter-mode=added); see git review-remote show ${id} --all-comments`,
    );
    const all = repo.run(["show", id, "--all-comments"]);
    expect(all.stdout).toContain("src/a.ts:1 warning Outside the hunk. (outside the change)");
    expect(all.stdout).toContain(
      "src/other.ts:1 warning In a file the change did not touch. (outside the change)",
    );
    expect(all.stdout).not.toContain("comments outside the change hidden");
    const json = JSON.parse(repo.run(["show", id, "--format=json"]).stdout);
    expect(json.result.comments).toHaveLength(7);
    expect(json.filter.mode).toBe("added");
    expect(messages(json.filter.comments)).toEqual([
      "On the added line.",
      "About the changed file.",
      "About the whole change.",
    ]);
    expect(json.filter.hiddenComments).toHaveLength(4);
    const sarif = JSON.parse(repo.run(["show", id, "--format=sarif", "--filter-mode=file"]).stdout);
    const results = sarif.runs[0].results as Array<{ message: { text: string }; suppressions?: unknown[] }>;
    expect(results).toHaveLength(7);
    expect(results.filter((result) => result.suppressions).map((result) => result.message.text)).toEqual([
      "In a file the change did not touch.",
    ]);
    expect(repo.run(["list"]).stdout).toMatch(new RegExp(`^${id} .* [0-9a-f]{10}\\.\\.[0-9a-f]{10} `, "m"));
  });

  it("shows what the review showed: the mode it was asked for, over the config; the flag over both", () => {
    const repo = changedRepo();
    const id = JSON.parse(repo.run(["--json", "--filter-mode", "nofilter"]).stdout).id as string;
    repo.git("config", "review-remote.filterMode", "added");
    const shown = repo.run(["show", id]);
    expect(shown.stdout).toContain("src/other.ts:1 warning In a file the change did not touch.");
    expect(shown.stdout).not.toContain("comments outside the change hidden");
    expect(JSON.parse(repo.run(["show", id, "--format=json"]).stdout).filter.mode).toBe("nofilter");
    const flag = JSON.parse(repo.run(["show", id, "--format=json", "--filter-mode=added"]).stdout);
    expect(flag.filter.mode).toBe("added");
    expect(flag.filter.hiddenComments).toHaveLength(4);
  });
});
