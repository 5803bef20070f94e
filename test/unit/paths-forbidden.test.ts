// validate: forbidden paths (defaults, policy, secret names) in every disguise.
import { describe, expect, it } from "vitest";
import { DEFAULT_FORBIDDEN_PATHS, forbiddenPathReason } from "../../src/paths/forbidden.js";

const noSecrets = () => undefined;
const reason = (path: string, patterns: readonly string[] = DEFAULT_FORBIDDEN_PATHS) =>
  forbiddenPathReason(path, patterns, noSecrets);

describe("validate: forbiddenPathReason", () => {
  it("matches every default", () => {
    const hits = [
      ".github/workflows/ci.yml",
      ".gitlab-ci.yml",
      ".husky/pre-commit",
      ".githooks/pre-push",
      ".gitattributes",
      "sub/dir/.gitattributes",
      ".gitmodules",
      ".gitignore",
      "packages/a/.gitignore",
      ".npmrc",
      ".yarnrc",
      ".yarnrc.yml",
      ".pypirc",
      ".envrc",
      ".vscode/settings.json",
      ".devcontainer/devcontainer.json",
    ];
    for (const path of hits) expect(reason(path), path).toBeDefined();
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
    ];
    for (const path of disguised) expect(reason(path), path).toBeDefined();
  });

  it("leaves ordinary paths alone", () => {
    for (const path of [
      "src/app.ts",
      "docs/github.md",
      "github/x",
      "src/.github/notes.md",
      ".gitkeep",
      "npmrc",
    ]) {
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
