import { execFileSync } from "node:child_process";
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { globScope, globSource, matchGlob, matchGlobList } from "../../src/paths/glob.js";
import { NAME_RULES } from "../../src/secrets/names.js";

describe("matchGlob (gitignore semantics)", () => {
  it.each([
    ["*.pem", "a.pem", true],
    ["*.pem", "deep/dir/a.pem", true],
    ["*.pem", "tempemail.js", false],
    ["*.pem", "a.pem.txt", false],
    [".env", "sub/.env", true],
    [".env", ".environment", false],
    ["/build", "build/x", true],
    ["/build", "src/build/x", false],
    ["docs/*.md", "docs/a.md", true],
    ["docs/*.md", "docs/sub/a.md", false],
    ["docs/**/*.md", "docs/sub/deep/a.md", true],
    ["docs/**/*.md", "docs/a.md", true],
    ["**/gen", "a/b/gen/c.ts", true],
    [".github/**", ".github/workflows/ci.yml", true],
    [".github/**", "x/.github/workflows/ci.yml", false],
    ["gen/", "src/gen/b.ts", true],
    ["gen/", "src/gen", false],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file/.txt", false],
    ["[ab].ts", "b.ts", true],
    ["[!ab].ts", "b.ts", false],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    // A bracket never matches the directory separator, negated or not.
    ["a[!x]b", "a/b", false],
    ["a[!x]b", "ayb", true],
    ["a[xy/]b", "a/b", false],
  ])("%s matches %s: %s", (pattern, path, expected) => {
    expect(matchGlob(pattern, path)).toBe(expected);
  });

  it("lets the last pattern decide and re-includes with !", () => {
    expect(matchGlobList(["*.json", "!package.json"], "package.json")).toBeUndefined();
    expect(matchGlobList(["*.json", "!package.json"], "a.json")).toBe("*.json");
    expect(matchGlobList(["# comment", ""], "a")).toBeUndefined();
  });

  it("keeps a file inside an excluded directory excluded, as git does", () => {
    expect(matchGlobList(["build/", "!build/keep.txt"], "build/keep.txt")).toBe("build/");
  });

  it("loads the ignore library only when a glob is first matched", () => {
    const glob = new URL("../../dist/paths/glob.js", import.meta.url).href;
    const script = [
      'import { createRequire } from "node:module";',
      "const cache = createRequire(import.meta.url).cache;",
      'const loaded = () => Object.keys(cache).some((file) => file.includes("/node_modules/ignore/"));',
      `const { matchGlob } = await import(${JSON.stringify(glob)});`,
      "const before = loaded();",
      'matchGlob("*.pem", "a.pem");',
      "console.log(JSON.stringify([before, loaded()]));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([false, true]);
  });

  it("matches nothing for a path no checkout could hold", () => {
    expect(matchGlobList(["*"], "../x")).toBeUndefined();
    expect(matchGlobList(["*"], "/etc/passwd")).toBeUndefined();
  });

  it("matches nothing for a path with a `..`, `.` or empty component inside it", () => {
    for (const path of ["src/../secrets/key", "src/..", "src/./a", "src//a", "src/"]) {
      expect(matchGlobList(["*"], path), path).toBeUndefined();
      expect(matchGlobList(["secrets/", "/secrets/"], path), path).toBeUndefined();
    }
    expect(matchGlobList(["/secrets/"], "secrets/key")).toBe("/secrets/");
  });
});

describe("globSource (the compiled secret name rules)", () => {
  const paths = [
    ".env",
    "a/.env",
    ".env.local",
    "prod.env",
    ".env.example",
    "id_rsa",
    "keys/id_rsa.pub",
    "server.PEM",
    ".ssh/config",
    "home/.ssh/known_hosts",
    ".config/gcloud/creds",
    "x/.config/gcloud/y",
    "client_secret_123.json",
    "terraform.tfstate.backup",
    ".kube/config",
    "a/.kube/config",
    ".docker/config.json",
    "secring.gpg",
    "src/app.ts",
    "docs/secrets.md",
    "a/b",
    "env",
  ];
  const globs = NAME_RULES.flatMap((rule) => [...rule.globs, ...(rule.except ?? [])]);
  it.each(globs)("%s gives the ignore library's answers", (glob) => {
    const library = ignore({ ignorecase: true }).add(glob);
    const compiled = new RegExp(globSource(glob), "is");
    for (const path of paths) expect([path, compiled.test(path)]).toEqual([path, library.ignores(path)]);
  });
});

describe("globScope (the same answers, tested component by component)", () => {
  const paths = [
    ".env",
    "a/.env",
    "a/.env/b",
    ".env.local/x",
    "deep/er/prod.env",
    "x.pem",
    "certs/x.PEM/inner",
    "id_rsa",
    "a/id_rsa.pub",
    ".ssh",
    ".ssh/config",
    "a/.ssh/b/c",
    "b/.ssh",
    ".config/gcloud/creds",
    "x/.config/gcloud/y",
    ".kube/config",
    "a/.kube/config",
    "kubeconfig.yaml",
    "a/b/kubeconfig",
    ".terraform/x",
    "terraform/.terraform",
    "service-account-prod.json",
    "a/my-service-account.json/b",
    "src/app.ts",
    "env",
    "a.env.b",
  ];
  const globs = NAME_RULES.flatMap((rule) => [...rule.globs, ...(rule.except ?? [])]);
  it.each(globs)("%s", (glob) => {
    const whole = new RegExp(globSource(glob), "is");
    const { scope, source } = globScope(glob);
    const part = new RegExp(source, "is");
    for (const path of paths) {
      const components = path.split("/");
      const scoped =
        scope === "path"
          ? part.test(path)
          : components.some((c, i) => part.test(c) && (scope === "component" || i < components.length - 1));
      expect([path, scoped]).toEqual([path, whole.test(path)]);
    }
  });
});
