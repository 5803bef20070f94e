// validate: forbidden paths (defaults, policy, secret names) in every disguise.
import { describe, expect, it } from "vitest";
import { MAX_POLICY_FORBIDDEN_PATHS } from "../../src/config/policy-schema.js";
import { DEFAULT_FORBIDDEN_PATHS, forbiddenPathReason } from "../../src/paths/forbidden.js";
import { FORBIDDEN_FAMILIES } from "../../src/paths/forbidden-families.js";
import { MAX_FORBIDDEN_PATHS } from "../../src/protocol/request-check.js";
import { ALLOWED_EXAMPLES, FORBIDDEN_EXAMPLES } from "../helpers/forbidden-examples.js";

const noSecrets = () => undefined;
const reason = (path: string, patterns: readonly string[] = DEFAULT_FORBIDDEN_PATHS) =>
  forbiddenPathReason(path, patterns, noSecrets);

describe("validate: forbiddenPathReason", () => {
  it("has a family for every default pattern, and an example path for every family", () => {
    expect(FORBIDDEN_FAMILIES.flatMap((family) => family.patterns)).toEqual(DEFAULT_FORBIDDEN_PATHS);
    expect(Object.keys(FORBIDDEN_EXAMPLES).sort()).toEqual(FORBIDDEN_FAMILIES.map((f) => f.family).sort());
  });

  for (const family of FORBIDDEN_FAMILIES) {
    it(`refuses every ${family.family} example, naming a pattern of that family`, () => {
      for (const path of FORBIDDEN_EXAMPLES[family.family] ?? []) {
        const pattern = /^is a forbidden path \((.*)\)$/.exec(reason(path) ?? "")?.[1];
        expect(family.patterns, path).toContain(pattern);
      }
    });
  }

  it("leaves room in a request for the most globs a policy may add", () => {
    expect(DEFAULT_FORBIDDEN_PATHS.length + MAX_POLICY_FORBIDDEN_PATHS).toBeLessThanOrEqual(
      MAX_FORBIDDEN_PATHS,
    );
  });

  it("matches every pattern with at least one example", () => {
    const examples = Object.values(FORBIDDEN_EXAMPLES).flat();
    for (const pattern of DEFAULT_FORBIDDEN_PATHS) {
      expect(
        examples.some((path) => reason(path, [pattern]) !== undefined),
        pattern,
      ).toBe(true);
    }
  });

  it("sees through case, Unicode and NTFS disguises", () => {
    const disguised = [
      ".GitHub/workflows/x.yml",
      ".GITHUB/workflows/ci.yml",
      ".github./workflows/x.yml",
      ".git\u200chub/workflows/x.yml",
      ".Husky/pre-push",
      ".GITATTRIBUTES",
      ".gitattributes ",
      ".gitattributes::$DATA",
      ".NPMRC",
      "\uff0enpmrc",
      ".VSCode/tasks.json",
      "Packages/A/.VSCODE/tasks.json",
      "JENKINSFILE",
      "jenkinsfile.",
      ".CircleCI/config.yml",
      ".cargo/CONFIG.TOML",
      "Gradle/Wrapper/gradle-wrapper.jar",
      "GRADLEW.BAT",
      ".yarn/Releases/yarn-4.1.0.cjs",
      ".envrc ",
      ".mise.toml.",
    ];
    for (const path of disguised) expect(reason(path), path).toBeDefined();
  });

  it("leaves ordinary paths alone", () => {
    for (const path of ["github/x", ...ALLOWED_EXAMPLES]) {
      expect(reason(path), path).toBeUndefined();
    }
  });

  it("names the pattern that matched", () => {
    expect(reason(".github/workflows/ci.yml")).toBe("is a forbidden path (.github/**)");
  });

  it("adds policy patterns, and a policy negation cannot re-allow a default", () => {
    const policy = [...DEFAULT_FORBIDDEN_PATHS, "infra/**", "!.github/**"];
    expect(reason("infra/main.tf", policy)).toBe("is a forbidden path (infra/**)");
    expect(reason("Infra/main.tf", policy)).toBeDefined();
    expect(reason(".github/workflows/ci.yml", policy)).toBeDefined();
  });

  it("matches policy patterns whose text is broken by globs, brackets, escapes and spaces", () => {
    // Most paths are never matched against the patterns: they hold no pattern's plain text. Each
    // case here holds a pattern's text only in pieces, or none (a bare glob forbids everything).
    const cases: [string, string][] = [
      ["deploy/**/*.tf", "deploy/a/b/main.tf"],
      ["conf[ig]/x", "confi/x"],
      ["a\\*b", "a*b"],
      ["a\\ b", "a b"],
      ["trail ", "trail"],
      ["Ünï/**", "Ünï/x"],
      ["**/Sécret?", "x/sécret1"],
      ["/top.txt", "top.txt"],
      ["*", "src/app.ts"],
      ["?", "a"],
    ];
    for (const [pattern, path] of cases) {
      expect(reason(path, [pattern]), `${pattern} ${path}`).toBe(`is a forbidden path (${pattern})`);
      expect(reason(path, [...DEFAULT_FORBIDDEN_PATHS, pattern]), `${pattern} ${path}`).toBeDefined();
    }
    expect(reason("src/deploy.ts", ["deploy/**/*.tf"])).toBeUndefined();
    expect(reason("config/x", ["conf[ig]/x"])).toBeUndefined();
  });

  it("asks the secret name rules about every spelling", () => {
    const asked: string[] = [];
    const isSecretName = (path: string) => {
      asked.push(path);
      return path === "config/.env" ? "dotenv" : undefined;
    };
    expect(forbiddenPathReason("Config/.ENV", [], isSecretName)).toBe("matches the secret name rule dotenv");
    expect(asked).toContain("Config/.ENV");
    expect(forbiddenPathReason("src/app.ts", [], isSecretName)).toBeUndefined();
  });
});
