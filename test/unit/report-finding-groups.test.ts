import { describe, expect, test } from "vitest";
import { matchGlob } from "../../src/paths/glob.js";
import { formatFinding, formatFindingGroup, groupFindings, testDirsAllow } from "../../src/report/finding.js";
import type { Finding } from "../../src/secrets/finding.js";

const at = (path: string, rule = "aws-access-token"): Finding => ({
  path,
  line: 1,
  rule,
  description: "",
  redacted: "AKIA…",
  fingerprint: "0123456789abcdef",
});

describe("one finding's line", () => {
  test("a value found on a line: the place, the line, the rule, the excerpt, the fingerprint", () => {
    expect(formatFinding({ ...at("src/settings.ts"), line: 3, description: "AWS access key ID" }, true)).toBe(
      "src/settings.ts:3: aws-access-token: AWS access key ID (AKIA…) [fingerprint 0123456789abcdef]",
    );
  });

  test("a secret's name or an unread archive: its place says it all, with no line and no excerpt", () => {
    const named = {
      ...at("keys.zip", "secret-file-name"),
      member: "conf/.env",
      description: "names a dotenv file (dotenv)",
      redacted: "co…",
    };
    expect(formatFinding(named, true)).toBe(
      "keys.zip!/conf/.env: secret-file-name: names a dotenv file (dotenv) [fingerprint 0123456789abcdef]",
    );
    const link = {
      ...at("current", "secret-file-name"),
      description: "names a dotenv file (dotenv)",
      redacted: ".…",
    };
    expect(formatFinding(link, true)).toBe(
      "current: secret-file-name: names a dotenv file (dotenv) [fingerprint 0123456789abcdef]",
    );
    const unread = {
      ...at("big.log.gz", "uninspectable-archive"),
      description: "archive not inspected: over 2 MiB",
      redacted: "",
    };
    expect(formatFinding(unread, true)).toBe(
      "big.log.gz: uninspectable-archive: archive not inspected: over 2 MiB [fingerprint 0123456789abcdef]",
    );
  });
});

describe("findings grouped by place", () => {
  test("by top directory, named by the narrowest directory or file that holds them, most first", () => {
    const groups = groupFindings([
      at("cmd/gen/rules/a.go"),
      at("cmd/gen/rules/b.go", "jwt"),
      at("cmd/gen/rules/deep/c.go", "jwt"),
      at("README.md", "github-pat"),
      at("config/app.toml"),
    ]);
    expect(groups.map((group) => formatFindingGroup(group, true))).toEqual([
      "3 in cmd/gen/rules/ (jwt 2, aws-access-token 1)",
      "1 in README.md (github-pat 1)",
      "1 in config/app.toml (aws-access-token 1)",
    ]);
    expect(groups.every((group) => group.testAllow === undefined)).toBe(true);
  });

  test("a place all in one test directory or all test files of one kind gets the entry that allows it", () => {
    const [data] = groupFindings([at("pkg/testdata/a.txt"), at("pkg/testdata/deep/b.json")]);
    expect(data?.testAllow).toBe('{"path": "pkg/testdata/**"}');
    const [tests] = groupFindings([at("detect/detect_test.go"), at("detect/sub/reader_test.go")]);
    expect(tests?.testAllow).toBe('{"path": "detect/**/*_test.go"}');
    const [top] = groupFindings([at("app.test.ts")]);
    expect(top?.testAllow).toBe('{"path": "/*.test.ts"}');
    // Test data beside code, or two kinds of test files: no entry covers them without the code.
    expect(groupFindings([at("src/fixtures/a.txt"), at("src/app.ts")])[0]?.testAllow).toBeUndefined();
    expect(groupFindings([at("src/a_test.go"), at("src/b.spec.ts")])[0]?.testAllow).toBeUndefined();
    // A secret's name or an unread archive there: a path alone would not allow it, so none is offered.
    for (const rule of ["secret-file-name", "uninspectable-archive"]) {
      const group = groupFindings([at("pkg/testdata/a.txt"), at("pkg/testdata/keys.zip", rule)])[0];
      expect(group?.testAllow, rule).toBeUndefined();
    }
  });

  test("the entry suggested for a place allows its files and no test file elsewhere", () => {
    const elsewhere = ["app_test.go", "other/x_test.go", "src/b.test.ts", "src/detect/a_test.go"];
    const places = [
      ["detect/detect_test.go"],
      ["detect/sub/reader_test.go", "detect/sub/deep/writer_test.go"],
      ["app.test.ts"],
      ["web/[id]/page.test.ts"],
      ["!cfg/testdata/a.txt"],
      ["lib*/fixtures/k.pem"],
    ];
    for (const paths of places) {
      const [group] = groupFindings(paths.map((path) => at(path)));
      const glob = (JSON.parse(group?.testAllow ?? "{}") as { path?: string }).path;
      expect(glob, paths.join(" ")).toBeDefined();
      for (const path of paths) expect(matchGlob(glob as string, path), `${glob} ${path}`).toBe(true);
      const others = [...elsewhere, "web/i/page.test.ts", "libx/fixtures/k.pem", "cfg/testdata/a.txt"];
      for (const path of others.filter((other) => !paths.includes(other))) {
        expect(matchGlob(glob as string, path), `${glob} ${path}`).toBe(false);
      }
    }
  });

  test("test directories of one name in several places get one entry over them all, never every path", () => {
    const cases: [string[], string | undefined][] = [
      [
        ["packages/a/test/fixtures/k.txt", "packages/b/test/fixtures/k.txt", "packages/c/test/k.txt"],
        "packages/*/test/**",
      ],
      [["a/test/k.txt", "b/test/deep/k.txt"], "*/test/**"],
      [["packages/a/test/k.txt", "packages/b/c/test/k.txt"], "packages/**/test/**"],
      [["test/k.txt", "pkg/a/test/k.txt"], "**/test/**"],
      [["lib*/x/fixtures/k.pem", "lib*/y/fixtures/k.pem"], "lib\\*/*/fixtures/**"],
      // Two names, or one place outside test data: no entry covers them all.
      [["packages/a/test/k.txt", "packages/b/tests/k.txt"], undefined],
      [["packages/a/test/k.txt", "packages/b/src/k.txt"], undefined],
    ];
    const elsewhere = [
      "README.md",
      "src/app.ts",
      "packages/a/src/index.ts",
      "packages/a/testing.ts",
      "x/y/z.txt",
    ];
    for (const [paths, glob] of cases) {
      const entry = testDirsAllow(paths);
      expect(entry, paths.join(" ")).toBe(
        glob === undefined ? undefined : `{"path": ${JSON.stringify(glob)}}`,
      );
      if (glob === undefined) continue;
      for (const path of paths) expect(matchGlob(glob, path), `${glob} ${path}`).toBe(true);
      for (const path of elsewhere) expect(matchGlob(glob, path), `${glob} ${path}`).toBe(false);
    }
    // The group of one top directory gets it as well.
    const [group] = groupFindings([at("packages/a/test/k.txt"), at("packages/b/test/k.txt")]);
    expect(group?.testAllow).toBe('{"path": "packages/*/test/**"}');
  });

  test("more than three rules are counted, not named", () => {
    const rules = ["a", "b", "c", "d", "e"].map((rule) => at("t/x.txt", rule));
    expect(groupFindings(rules).map((group) => formatFindingGroup(group, true))).toEqual([
      "5 in t/x.txt (a 1, b 1, c 1, +2 rules)",
    ]);
    expect(groupFindings(rules.slice(0, 4)).map((group) => formatFindingGroup(group, true))).toEqual([
      "4 in t/x.txt (a 1, b 1, c 1, +1 rule)",
    ]);
  });

  test("a value found in a name is redacted in the group's place, and no entry that spells it is offered", () => {
    const token = `AKIA${"Q".repeat(16)}`;
    const inName = (path: string): Finding => ({
      ...at(path),
      description: "AWS access key ID, in a name",
      shownPlace: path.replaceAll(token, "AKIA…"),
    });
    const groups = groupFindings([
      inName(`fix/${token}/testdata/a.json`),
      inName(`fix/${token}/testdata/b.json`),
      inName(`caf\u00e9/${token}.txt`),
    ]);
    expect(groups.map((group) => formatFindingGroup(group, true))).toEqual([
      "2 in fix/AKIA…/testdata/ (aws-access-token 2)",
      '1 in "caf\\303\\251/AKIA….txt" (aws-access-token 1)',
    ]);
    expect(groups[0]?.testAllow).toBeUndefined();
    // The same test data under a name that holds no value: its entry is offered.
    expect(groupFindings([at("fix/k/testdata/a.json"), at("fix/k/testdata/b.json")])[0]?.testAllow).toBe(
      '{"path": "fix/k/testdata/**"}',
    );
  });
});
