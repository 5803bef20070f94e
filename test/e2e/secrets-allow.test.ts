// A repository full of test secrets, as a secret scanner's own repository is: gitleaks' markers
// honoured and listed, the switch that turns them off, path-scoped allows, and the grouped hint that
// gets a user from a refused export to a clean one; nothing else lets a secret through.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { createTestRepo, repoState, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(): TestRepo {
  return repos.add(createTestRepo());
}

interface ListedFinding {
  path: string;
  line: number;
  rule: string;
  fingerprint: string;
  allowedBy?: string;
}

function listJson(repo: TestRepo): { findings: ListedFinding[]; allowed: ListedFinding[]; status: number } {
  const result = repo.run(["export", "--list", "--json"]);
  expect([0, 6], result.stderr).toContain(result.status);
  return { ...JSON.parse(result.stdout), status: result.status };
}

/** The bytes of `path` in the stored bundle `export` wrote. */
function bundled(repo: TestRepo, path: string): string {
  const result = repo.run(["export", "--json"]);
  expect(result.status, result.stderr).toBe(0);
  const dir = mkdtempSync(join(tmpdir(), "rr-allow-"));
  try {
    execFileSync("tar", ["-xzf", JSON.parse(result.stdout).path, "-C", dir]);
    return readFileSync(join(dir, path), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Go rule file as gitleaks writes them: sample keys, each marked for gitleaks itself. */
function ruleFile(seed: number): string {
  return [
    "package rules",
    "",
    "func awsSamples() []string {",
    "\treturn []string{",
    `\t\t"${fake.awsKeyId(seed)}", // gitleaks:allow`,
    `\t\t"${fake.githubPat(seed)}", // gitleaks:allow`,
    "\t}",
    "}",
    "",
  ].join("\n");
}

describe("gitleaks:allow", () => {
  it("allows its own line and lists it as allowed by the marker; a key without one is still refused", () => {
    const repo = newRepo();
    const unmarked = fake.stripeLive(7);
    repo.write("rules/aws.go", `${ruleFile(1)}var live = "${unmarked}"\n`);
    repo.commit("rules");
    // The unmarked key in the same file stops the export, and nothing changes.
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toMatch(/^ {2}rules\/aws\.go:9: stripe-access-token: /m);
    expect(refused.stderr).not.toMatch(/rules\/aws\.go:[56]:/);
    expect(refused.stderr).toContain("export refused: 1 possible secret found");
    const list = repo.run(["export", "--list"]);
    expect(list.status).toBe(6);
    expect(list.stdout).toContain("Would let through 2 allowed findings (2 by gitleaks:allow):");
    expect(list.stdout).toMatch(
      /^ {2}rules\/aws\.go:5: aws-access-token: .*\(AKIA…\) \[fingerprint [0-9a-f]+\]: allowed by gitleaks:allow on its line$/m,
    );
    expect(list.stdout).toMatch(
      /^ {2}rules\/aws\.go:6: github-pat: .*allowed by gitleaks:allow on its line$/m,
    );
    expect(list.stdout + list.stderr).not.toContain(fake.awsKeyId(1).slice(4));
    const json = listJson(repo);
    expect(json.findings.map((finding) => [finding.line, finding.rule])).toEqual([
      [9, "stripe-access-token"],
    ]);
    expect(json.allowed.map((finding) => [finding.line, finding.rule, finding.allowedBy])).toEqual([
      [5, "aws-access-token", "gitleaks:allow"],
      [6, "github-pat", "gitleaks:allow"],
    ]);
    // Without the unmarked key the export passes, and the marked lines leave as they are.
    repo.write("rules/aws.go", ruleFile(1));
    repo.commit("no live key");
    expect(bundled(repo, "rules/aws.go")).toBe(ruleFile(1));
  });

  it("allows nothing once the policy turns it off; review-remote:allow still does", () => {
    const repo = newRepo();
    repo.write("rules/aws.go", ruleFile(2));
    repo.write("rules/own.go", `var k = "${fake.npm(3)}" // review-remote:allow\n`);
    repo.commit("rules");
    expect(repo.run(["export"]).status).toBe(0);
    repo.write(".review-remote.json", JSON.stringify({ secrets: { gitleaksAllow: false } }));
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toContain("export refused: 2 possible secrets found");
    expect(refused.stderr).toMatch(/^ {2}rules\/aws\.go:5: aws-access-token: /m);
    expect(refused.stderr).toMatch(/^ {2}rules\/aws\.go:6: github-pat: /m);
    const json = listJson(repo);
    expect(json.status).toBe(6);
    expect(json.allowed.map((finding) => [finding.path, finding.allowedBy])).toEqual([
      ["rules/own.go", "review-remote:allow"],
    ]);
    // A switch that is not a boolean is the policy's error, not a silent default.
    repo.write(".review-remote.json", JSON.stringify({ secrets: { gitleaksAllow: "no" } }));
    const invalid = runUnchanged(repo, ["export"], 2);
    expect(invalid.stderr).toMatch(/^ {2}secrets\.gitleaksAllow: /m);
  });
});

describe("a marker the change adds to the line that held a key", () => {
  /** A repository whose last commit marks the key its base held on the same line. */
  function markedInChange(before: string, after: string): TestRepo {
    const repo = newRepo();
    repo.write("rules/aws.go", `package rules\n\nvar sample = "${before}"\n`);
    repo.commit("a sample key");
    repo.write("rules/aws.go", `package rules\n\nvar sample = "${after}" // gitleaks:allow\n`);
    repo.commit("mark the sample");
    return repo;
  }

  it("lets the base's copy in the patch through with the head's marker, listed, and the review runs", () => {
    const key = fake.awsKeyId(11);
    const repo = markedInChange(key, key);
    const list = repo.run(["export", "--list", "HEAD~1..HEAD"]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain("Would let through 2 allowed findings (2 by gitleaks:allow):");
    expect(list.stdout).toMatch(
      /^ {2}rules\/aws\.go:3: aws-access-token: .*\] \(in the range's base\): allowed by gitleaks:allow on line 3 of the head, which holds the same value$/m,
    );
    const json = JSON.parse(repo.run(["export", "--list", "--json", "HEAD~1..HEAD"]).stdout);
    expect(json.findings).toEqual([]);
    expect(json.allowed).toEqual([
      expect.objectContaining({ line: 3, allowedBy: "gitleaks:allow" }),
      expect.objectContaining({ line: 3, allowedBy: "gitleaks:allow", inBase: true, headLine: 3 }),
    ]);
    expect(json.allowed[0].fingerprint).toBe(json.allowed[1].fingerprint);
    // The review of the last commit, a range review, sends it.
    const review = repo.run([]);
    expect(review.status, review.stderr).toBe(0);
    expect(review.stdout).toMatch(
      /^Reviewing the change of commit [0-9a-f]{10} \([0-9a-f]{10}\.\.[0-9a-f]{10}\)$/m,
    );
  });

  it("still refuses a base value the head does not let through, or any once the marker is switched off", () => {
    const repo = markedInChange(fake.awsKeyId(12), fake.awsKeyId(13));
    const refused = runUnchanged(repo, [], 6);
    expect(refused.stderr).toMatch(/^ {2}rules\/aws\.go:3: aws-access-token: .*\(in the range's base\)$/m);
    expect(refused.stderr).toContain("1 possible secret found");
    const fingerprint = /\[fingerprint ([0-9a-f]+)\] \(in the range's base\)$/m.exec(refused.stderr)?.[1];
    expect(refused.stderr.trimEnd().split("\n").slice(-2)).toEqual([
      "hint: the change removes these lines, and its patch would carry them: send the tree alone (review with --all <rev>, export <rev>)",
      `hint: or, for a false positive, add {"fingerprint": "${fingerprint}"} to secrets.allow (no marker reaches a removed line)`,
    ]);
    // The entry the hint names lets the review run: the base's scan honours it as the tree's does.
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ fingerprint }] } }));
    const allowed = repo.run([]);
    expect(allowed.status, allowed.stderr).toBe(0);
    const same = markedInChange(fake.awsKeyId(14), fake.awsKeyId(14));
    same.write(".review-remote.json", JSON.stringify({ secrets: { gitleaksAllow: false } }));
    const off = runUnchanged(same, ["export", "HEAD~1..HEAD"], 6);
    expect(off.stderr).toMatch(/^ {2}rules\/aws\.go:3: aws-access-token: [^\n]*\]$/m);
    expect(off.stderr).toContain("1 possible secret found");
  });
});

describe("a path allow", () => {
  it("allows every rule in the files its glob matches, lists each one, and nothing elsewhere", () => {
    const repo = newRepo();
    repo.write("testdata/keys.txt", `aws ${fake.awsKeyId(4)}\ngithub ${fake.githubPat(4)}\n`);
    repo.write("testdata/deep/config.json", `{"token": "${fake.slackBot(4)}"}\n`);
    repo.write("testdata/.env", `TOKEN=${fake.npm(4)}\n`);
    repo.write("src/app.go", `var token = "${fake.githubPat(5)}"\n`);
    repo.commit("test data and a key");
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: "testdata/**" }] } }));
    // The key in src/ is still refused, and nothing changes.
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toContain("export refused: 1 possible secret found");
    expect(refused.stderr).toMatch(/^ {2}src\/app\.go:1: github-pat: /m);
    const list = repo.run(["export", "--list"]);
    expect(list.stdout).toContain(
      // The JSON file's token is a Slack token and, under its name "token", a config-password.
      'Would let through 4 allowed findings (4 by secrets.allow {"path": "testdata/**"}):',
    );
    expect(list.stdout).toMatch(
      /^ {2}testdata\/keys\.txt:1: aws-access-token: .*: allowed by secrets\.allow \{"path": "testdata\/\*\*"\}$/m,
    );
    expect(list.stdout).toMatch(
      /^ {2}testdata\/deep\/config\.json:1: slack-token: .*allowed by secrets\.allow/m,
    );
    // A secret file by name is kept back whatever the allow says: an allow speaks to content only.
    const json = listJson(repo) as unknown as { files: { path: string }[]; excluded: { path: string }[] };
    expect(json.files.map((file) => file.path)).not.toContain("testdata/.env");
    expect(json.excluded.map((entry) => entry.path)).toContain("testdata/.env");
    // With the key gone from src/, the export passes and the test data leaves.
    repo.write("src/app.go", 'var token = os.Getenv("TOKEN")\n');
    repo.commit("no key");
    expect(bundled(repo, "testdata/keys.txt")).toContain(fake.awsKeyId(4));
  });

  it("names the archive member of each finding it lets through, and of each it refuses", () => {
    const repo = newRepo();
    const zip = (seed: number) =>
      makeZip([
        { name: "conf/a.env", data: Buffer.from(`x=1\ntoken=${fake.githubPat(seed)}\n`) },
        { name: "b.env", data: Buffer.from(`token=${fake.githubPat(seed + 1)}\n`) },
      ]);
    repo.write("testdata/keys.zip", zip(21));
    repo.write("dist/keys.zip", zip(23));
    repo.commit("keys in archives");
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: "testdata/**" }] } }));
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toMatch(/^ {2}dist\/keys\.zip!\/conf\/a\.env:2: github-pat: /m);
    expect(refused.stderr).toMatch(/^ {2}dist\/keys\.zip!\/b\.env:1: github-pat: /m);
    const list = repo.run(["export", "--list"]);
    expect(list.stdout).toMatch(
      /^ {2}testdata\/keys\.zip!\/conf\/a\.env:2: github-pat: .*allowed by secrets\.allow/m,
    );
    expect(list.stdout).toMatch(
      /^ {2}testdata\/keys\.zip!\/b\.env:1: github-pat: .*allowed by secrets\.allow/m,
    );
  });

  it("points a zero-install repository's refusal in Yarn's cache at the entry that allows the cache", () => {
    const repo = newRepo();
    // As debug 2.6.9's archive ships its .coveralls.yml: a published package's token, not the user's.
    repo.write(
      ".yarn/cache/debug-npm-2.6.9-7d4cb597dc-121908fb83.zip",
      makeZip([
        { name: "node_modules/debug/.travis.yml", data: Buffer.from(`token: ${fake.githubPat(31)}\n`) },
      ]),
    );
    repo.commit("zero-install");
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toContain(
      `hint: every finding is in Yarn's cache of the packages you depend on (published archives, not your code): allow it by path in secrets.allow in .review-remote.json: {"path": ".yarn/cache/**"}\n`,
    );
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: ".yarn/cache/**" }] } }));
    const allowed = repo.run(["export"]);
    expect(allowed.status, allowed.stderr).toBe(0);
    // A finding outside the cache too: no such hint, the cache is not the one place.
    repo.write("src/config.yml", `token: ${fake.githubPat(33)}\n`);
    repo.write(".review-remote.json", "{}");
    repo.commit("a key of our own");
    expect(runUnchanged(repo, ["export"], 6).stderr).not.toContain("Yarn's cache");
  });

  it("offers no line marker for a secret's name alone: it has no line to mark", () => {
    const repo = newRepo();
    symlinkSync(".env", join(repo.dir, "current"));
    repo.commit("a link to the dotenv file");
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toMatch(
      /^ {2}current: secret-file-name: names a dotenv file \(dotenv\) \[fingerprint ([0-9a-f]+)\]$/m,
    );
    const fingerprint = refused.stderr.match(/\[fingerprint ([0-9a-f]+)\]/)?.[1];
    expect(refused.stderr).toContain(
      `hint: or, for a false positive, add {"fingerprint": "${fingerprint}"} to secrets.allow there\n`,
    );
    expect(refused.stderr).not.toContain("review-remote:allow");
  });

  it("does not let through a secret's name or an unread archive unless the entry names the rule", () => {
    const repo = newRepo();
    repo.write("testdata/keys.zip", makeZip([{ name: "id_rsa", data: Buffer.from("not read\n") }]));
    repo.write("testdata/big.log.gz", gzipSync(Buffer.alloc(4 * 1024 * 1024)));
    symlinkSync("../.env", join(repo.dir, "testdata/current"));
    repo.write("testdata/keys.txt", `${fake.githubPat(9)}\n`);
    repo.commit("test data");
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: "testdata/**" }] } }));
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toContain("export refused: 3 possible secrets found");
    expect(refused.stderr).toMatch(
      /^ {2}testdata\/keys\.zip!\/id_rsa: secret-file-name: names a private key or key store \(private-key\) \[fingerprint [0-9a-f]+\]$/m,
    );
    expect(refused.stderr).toMatch(
      /^ {2}testdata\/current: secret-file-name: names a dotenv file \(dotenv\) \[fingerprint [0-9a-f]+\]$/m,
    );
    expect(refused.stderr).toMatch(
      /^ {2}testdata\/big\.log\.gz: uninspectable-archive: archive not inspected: [^()]+ \[fingerprint [0-9a-f]+\]$/m,
    );
    // The hint offers no path entry, which would not allow them, but the form that names the rule.
    expect(refused.stderr).not.toContain('{"path": "<dir>/**"}');
    expect(refused.stderr).toContain(
      'hint: a secret\'s name or an unread archive is allowed only by an entry that names its rule: {"rule": "secret-file-name", "path": "<dir>/**"}, {"rule": "uninspectable-archive", "path": "<dir>/**"}\n',
    );
    // The content finding in the same directory is the path allow's, as before.
    expect(listJson(repo).allowed.map((finding) => finding.rule)).toEqual(["github-pat"]);
    // Named, the rules are allowed there, and listed as such.
    const allow = [
      { path: "testdata/**" },
      { rule: "secret-file-name", path: "testdata/**" },
      { rule: "uninspectable-archive", path: "testdata/big.log.gz" },
    ];
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow } }));
    const listed = listJson(repo);
    expect(listed.status).toBe(0);
    expect(listed.allowed.map((finding) => `${finding.rule} ${finding.allowedBy}`).sort()).toEqual([
      'github-pat secrets.allow {"path": "testdata/**"}',
      'secret-file-name secrets.allow {"rule": "secret-file-name", "path": "testdata/**"}',
      'secret-file-name secrets.allow {"rule": "secret-file-name", "path": "testdata/**"}',
      'uninspectable-archive secrets.allow {"rule": "uninspectable-archive", "path": "testdata/big.log.gz"}',
    ]);
  });

  it("names the entry with its control characters escaped: a cloned policy's glob is its own text", () => {
    const repo = newRepo();
    const dir = "docs\u009b31m";
    repo.write(`${dir}/keys.txt`, `${fake.githubPat(8)}\n`);
    repo.commit();
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: `${dir}/**` }] } }));
    const list = repo.run(["export", "--list"]);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).not.toContain("\u009b");
    expect(list.stdout).toContain('by secrets.allow {"path": "docs\\u{9b}31m/**"}');
  });

  it("must name some path: a glob that matches every path is a policy error, and nothing changes", () => {
    const repo = newRepo();
    repo.write("a.txt", `${fake.githubPat(6)}\n`);
    repo.commit();
    for (const path of [
      "**",
      "*",
      "**/*",
      "/**",
      "*.*",
      "**/*.*",
      "[!.]*",
      "*[a-z]*",
      "*/",
      "**/",
      "** ",
      "*.* ",
    ]) {
      repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path }] } }));
      const result = runUnchanged(repo, ["export"], 2);
      expect(result.stderr).toMatch(/^ {2}secrets\.allow\.0\.path: "path" without "rule" must name/m);
    }
    // A place, or files of one kind: taken (the key in a.txt, which none of them names, is refused).
    for (const path of [
      "testdata/**",
      "*_test.go",
      "**/fixtures/**",
      "*.md",
      "/*.test.ts",
      "src/**/*.*",
      "[z-a]",
    ]) {
      repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path }] } }));
      expect(runUnchanged(repo, ["export"], 6).stderr, path).toMatch(/^ {2}a\.txt:1: github-pat: /m);
    }
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{}] } }));
    expect(runUnchanged(repo, ["export"], 2).stderr).toMatch(
      /^ {2}secrets\.allow\.0: needs "rule" or "path"/m,
    );
    // A rule narrows a path allow as before: another rule in the same file is still refused.
    repo.write(
      ".review-remote.json",
      JSON.stringify({ secrets: { allow: [{ rule: "jwt", path: "a.txt" }] } }),
    );
    expect(runUnchanged(repo, ["export"], 6).stderr).toMatch(/^ {2}a\.txt:1: github-pat: /m);
  });
});

describe("the hint of a refused export", () => {
  /** A repository like a scanner's own: test data and test files full of keys, and one real key. */
  function scannerRepo(): TestRepo {
    const repo = newRepo();
    for (let file = 0; file < 8; file++) {
      const lines = Array.from(
        { length: 5 },
        (_, line) => `k${line} = "${fake.awsKeyId(100 + file * 10 + line)}"`,
      );
      repo.write(`testdata/fixtures/f${file}.toml`, `${lines.join("\n")}\n`);
    }
    repo.write(
      "detect/detect_test.go",
      `${Array.from({ length: 4 }, (_, i) => `t := "${fake.githubPat(200 + i)}"`).join("\n")}\n`,
    );
    repo.write("detect/reader_test.go", `t := "${fake.slackBot(300)}"\n`);
    repo.write("README.md", `Set it: \`${fake.stripeLive(400)}\`\n`);
    repo.commit("scanner repo");
    return repo;
  }

  it("groups the findings by top directory and rule, names the test data entries, and fits a screen", () => {
    const repo = scannerRepo();
    const refused = runUnchanged(repo, ["export"], 6);
    const hints = refused.stderr.split("\n").filter((line) => line.startsWith("hint: "));
    expect(hints).toEqual([
      "hint: the 46 findings by where they are:",
      "hint:   40 in testdata/fixtures/ (aws-access-token 40)",
      "hint:   5 in detect/ (github-pat 4, slack-token 1)",
      "hint:   1 in README.md (stripe-access-token 1)",
      'hint: keep the file out with an "exclude" glob in .review-remote.json,',
      'hint: or, for test data, allow it by path in secrets.allow there: {"path": "testdata/**"}, {"path": "detect/**/*_test.go"}',
      'hint: or, for a false positive, add {"fingerprint": "<fp>"} to secrets.allow there, or "review-remote:allow" on the line',
      "hint: export --list shows each finding an allow or marker lets through",
    ]);
    // The first findings, then how many more: the whole refusal is a screen, not 46 lines.
    expect(refused.stderr).toContain("  ... and 36 more (git review-remote export --list lists every one)");
    expect(refused.stderr.trimEnd().split("\n").length).toBeLessThanOrEqual(24);
    // --list lists every finding, and the same hint.
    const list = repo.run(["export", "--list"]);
    expect(list.stdout.split("\n").filter((line) => line.includes("[fingerprint "))).toHaveLength(46);
    expect(list.stderr).toContain('{"path": "testdata/**"}, {"path": "detect/**/*_test.go"}');
  });

  it("names one entry for the test directories of a monorepo's packages, and that entry lets them through", () => {
    const repo = newRepo();
    for (const [index, place] of [
      "packages/a/test/fixtures",
      "packages/b/test/fixtures",
      "tools/c/test",
    ].entries())
      repo.write(`${place}/keys.toml`, `k = "${fake.awsKeyId(500 + index)}"\n`);
    repo.write("packages/a/src/index.ts", "export const a = 1;\n");
    repo.commit("packages with test data");
    const refused = runUnchanged(repo, ["export"], 6);
    expect(refused.stderr).toContain(
      'hint: or, for test data, allow it by path in secrets.allow there: {"path": "*/*/test/**"}\n',
    );
    repo.write(".review-remote.json", JSON.stringify({ secrets: { allow: [{ path: "*/*/test/**" }] } }));
    const exported = repo.run(["export"]);
    expect(exported.status, exported.stderr).toBe(0);
    // A key beside the code is not test data: no entry covers it, and only the place that is all
    // test data keeps one.
    repo.write("packages/a/src/config.ts", `export const k = "${fake.awsKeyId(510)}";\n`);
    repo.commit("a key in the code");
    repo.write(".review-remote.json", "{}");
    const mixed = runUnchanged(repo, ["export"], 6);
    expect(mixed.stderr).toContain('secrets.allow there: {"path": "tools/c/test/**"}\n');
  });

  it("gets the user to a clean review on the built-in worker with the entries it names and one fingerprint", () => {
    const repo = scannerRepo();
    const before = repoState(repo);
    const readme = listJson(repo).findings.find((finding) => finding.path === "README.md");
    repo.write(
      ".review-remote.json",
      JSON.stringify({
        secrets: {
          allow: [
            { path: "testdata/**" },
            { path: "detect/**/*_test.go" },
            { fingerprint: readme?.fingerprint },
          ],
        },
      }),
    );
    const json = listJson(repo);
    expect(json.status).toBe(0);
    expect(json.findings).toEqual([]);
    expect(json.allowed).toHaveLength(46);
    expect(repo.run(["export"]).status).toBe(0);
    const reviewed = repo.run(["HEAD", "--no-cache"]);
    expect(reviewed.status, reviewed.stderr).toBe(0);
    expect(reviewed.stdout).toMatch(/^Review [0-9a-f]{12} by local/m);
    // Only the untracked policy file is new: a review with nothing to propose makes no branch.
    const after = repoState(repo);
    expect(after.status).toBe("?? .review-remote.json\0");
    expect({ ...after, status: before.status }).toEqual(before);
  });
});
