// validate: package-file checks that depend on the base's tree as a whole (what pnpm reads once a
// package.json goes): proposals applied in quarantine to bases built for each case, the repo
// asserted byte-identical after every outcome.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../../src/paths/forbidden.js";
import { applyInQuarantine, discardQuarantine } from "../../src/validate/quarantine.js";
import {
  type BaseRepo,
  createBaseRepo,
  deleteFilePatch,
  newFilePatch,
  type RepoState,
  readRepoState,
  renamePatch,
  testSecretName,
} from "../helpers/validate-repo.js";

let repo: BaseRepo;
let before: RepoState;

/** A base commit holding exactly `files` (on top of the corpus repo's HEAD, reachable from no ref). */
async function commitFiles(files: Record<string, string>): Promise<string> {
  const run = { cwd: repo.dir, env: { ...repo.env, GIT_INDEX_FILE: join(repo.root, "base-index") } };
  await git(["read-tree", "--empty"], run);
  for (const [path, content] of Object.entries(files)) {
    const oid = (await git(["hash-object", "-w", "--stdin"], { ...run, input: content })).stdout.trim();
    await git(["update-index", "--add", "--cacheinfo", `100644,${oid},${path}`], run);
  }
  const tree = (await git(["write-tree"], run)).stdout.trim();
  return (await git(["commit-tree", tree, "-p", repo.head, "-m", "base"], run)).stdout.trim();
}

interface Base {
  commit: string;
  files: Record<string, string>;
}

const bases: Record<string, Base> = {};

const WEB_PACKAGE_JSON = `${JSON.stringify({ name: "web", version: "1.0.0" }, null, 2)}\n`;
const WEB_PACKAGE_YAML = "name: web\nversion: 1.0.0\nscripts:\n  postinstall: node -e 1\n";

const ROOT_WORKSPACES = `${JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }, null, 2)}\n`;

const GYP_PACKAGE = `${JSON.stringify({ name: "b", scripts: { install: "node-gyp-build" } }, null, 2)}\n`;

const PAD_PACKAGE = `${JSON.stringify({ name: "pad", version: "1.0.0" }, null, 2)}\n`;
const NATIVE_PACKAGE = `${JSON.stringify({ name: "native", scripts: { install: "node-gyp-build" } }, null, 2)}\n`;
const hiddenLock = (resolved: string) =>
  `${JSON.stringify({ name: "root", lockfileVersion: 3, requires: true, packages: { "node_modules/pad": { version: "1.0.0", resolved } } }, null, 2)}\n`;
const HIDDEN_LOCK = hiddenLock("https://registry.npmjs.org/pad/-/pad-1.0.0.tgz");

const BASE_FILES: Record<string, Record<string, string>> = {
  pnpmYaml: {
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "package.json": `${JSON.stringify({ name: "root", private: true }, null, 2)}\n`,
    "web/package.json": WEB_PACKAGE_JSON,
    "web/package.yaml": WEB_PACKAGE_YAML,
    "web/index.js": "console.log(1);\n",
  },
  pnpmManager: {
    "package.json": `${JSON.stringify({ name: "root", private: true, packageManager: "pnpm@10.33.0" }, null, 2)}\n`,
  },
  yarnPatch: {
    "package.json": `${JSON.stringify({ name: "root", resolutions: { pad: "patch:pad@npm%3A1.0.0#./custom/pad.patch" } }, null, 2)}\n`,
    "yarn.lock":
      '"pad@patch:pad@npm%3A1.0.0#./custom/pad.patch::locator=root%40workspace%3A.":\n  version: 1.0.0\n  resolution: "pad@patch:pad@npm%3A1.0.0#./custom/pad.patch::version=1.0.0&hash=abc&locator=root%40workspace%3A."\n',
    "custom/pad.patch": "old\n",
    "custom/notes.patch": "old\n",
  },
  escapedYarnPatch: {
    "package.json":
      '{"name": "root", "resolutions": {"pad": "p\\u0061tch:pad@npm%3A1.0.0#./custom/pad.cfg"}}\n',
    "custom/pad.cfg": "old\n",
    "custom/notes.cfg": "old\n",
  },
  pnpmPatch: {
    "package.json": `${JSON.stringify({ name: "root", pnpm: { patchedDependencies: { "pad@1.0.0": "fixes/pad.patch" } } }, null, 2)}\n`,
    "fixes/pad.patch": "old\n",
  },
  pnpmFlowPatch: {
    "pnpm-workspace.yaml":
      'packages: [web]\npatchedDependencies: {\n  pad@1.0.0: custom/pad.patch,\n  "b@2.0.0": "custom/a,b.patch"\n}\n',
    "custom/pad.patch": "old\n",
    "custom/a,b.patch": "old\n",
    "custom/notes.patch": "old\n",
  },
  json5Patch: {
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "web/package.json5": "{name: 'web', pnpm: {patchedDependencies: {'pad@1.0.0': 'fixes/pad.patch'}}}\n",
    "web/fixes/pad.patch": "old\n",
  },
  unreadPatch: {
    "pnpm-workspace.yaml": "patchedDependencies:\n  pad@1.0.0: &p fixes/pad.diff\n",
    "fixes/pad.diff": "old\n",
    "fixes/README.md": "old\n",
    "fixes/pad.fix": "old\n",
    "fixes/left.fix": "--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-a\n+b\n",
  },
  vendored: {
    "package.json": `${JSON.stringify({ name: "root", dependencies: { pad: "1.0.0" } }, null, 2)}\n`,
    "node_modules/pad/package.json": PAD_PACKAGE,
    "node_modules/pad/index.js": "module.exports = 1;\n",
    "node_modules/native/package.json": NATIVE_PACKAGE,
    "node_modules/native/binding.gyp": "{ 'targets': [] }\n",
    "node_modules/.package-lock.json": HIDDEN_LOCK,
  },
  patchDir: {
    "package.json": `${JSON.stringify({ name: "root", scripts: { postinstall: "patch-package --patch-dir our-fixes" } }, null, 2)}\n`,
    "our-fixes/pad+1.0.0.patch": "old\n",
    "our-fixes/README.md": "old\n",
  },
  workspaces: {
    "package.json": ROOT_WORKSPACES,
    "packages/a/package.json": `${JSON.stringify({ name: "a", scripts: { build: "tsc" } }, null, 2)}\n`,
    "examples/demo/package.json": `${JSON.stringify({ name: "demo" }, null, 2)}\n`,
    "test/fixtures/evil/package.json": `${JSON.stringify({ name: "evil", scripts: { postinstall: "node -e 1" } }, null, 2)}\n`,
  },
  gyp: {
    "native/binding.gyp": "{ 'targets': [] }\n",
    "packages/b/binding.gyp": "{ 'targets': [] }\n",
    "packages/b/package.json": GYP_PACKAGE,
  },
  hpack: {
    "web/package.json": WEB_PACKAGE_JSON,
    "web/package.yaml": "name: web\ndependencies:\n  - base\n",
  },
};

beforeAll(async () => {
  repo = await createBaseRepo();
  for (const [name, files] of Object.entries(BASE_FILES)) {
    bases[name] = { commit: await commitFiles(files), files };
  }
  before = await readRepoState(repo);
});

afterAll(async () => {
  await repo?.cleanup();
});

function base(name: string): Base {
  const found = bases[name];
  if (found === undefined) throw new Error(`no base ${name}`);
  return found;
}

async function propose(baseName: string, patches: readonly string[]) {
  const { commit, files } = base(baseName);
  return applyInQuarantine({
    repoEnv: repo.env,
    objectsDir: repo.objectsDir,
    cwd: repo.dir,
    base: commit,
    manifest: new Set(Object.keys(files)),
    commits: patches.map((patch, index) => ({ message: `proposal ${index + 1}`, patch })),
    forbiddenPaths: DEFAULT_FORBIDDEN_PATHS,
    isSecretName: testSecretName,
    maxPatchBytes: 1024 * 1024,
  });
}

async function expectRejected(baseName: string, patches: readonly string[], pattern: RegExp): Promise<void> {
  const result = await propose(baseName, patches);
  if (result.ok) {
    await discardQuarantine(result.quarantineDir);
    throw new Error("expected a rejection");
  }
  expect(result.problems.join("\n")).toMatch(pattern);
  expect(await readRepoState(repo)).toEqual(before);
}

async function expectAccepted(baseName: string, patches: readonly string[]): Promise<void> {
  const result = await propose(baseName, patches);
  if (!result.ok) throw new Error(`expected acceptance, got:\n${result.problems.join("\n")}`);
  expect(result.trees).toHaveLength(patches.length);
  await discardQuarantine(result.quarantineDir);
  expect(await readRepoState(repo)).toEqual(before);
}

function lines(text: string): string[] {
  return text.replace(/\n$/, "").split("\n");
}

describe("validate: a package.json removed beside another manifest pnpm reads", () => {
  it("refuses deleting or renaming away a package.json beside a package.yaml in a pnpm tree", async () => {
    const deletion = deleteFilePatch("web/package.json", lines(WEB_PACKAGE_JSON));
    await expectRejected(
      "pnpmYaml",
      [deletion],
      /path "web\/package\.json" is removed beside "web\/package\.yaml", which pnpm then reads as the project's manifest/,
    );
    await expectRejected(
      "pnpmYaml",
      [renamePatch("web/package.json", "web/package.json.bak")],
      /path "web\/package\.json" is removed beside "web\/package\.yaml"/,
    );
  });

  it("refuses it beside a package.yaml with the lockfile that tells pnpm's deleted too", async () => {
    // The same proposal may delete the pnpm-lock.yaml: a package.yaml counts in any tree.
    await expectRejected(
      "pnpmYaml",
      [
        deleteFilePatch("pnpm-lock.yaml", ["lockfileVersion: '9.0'"]) +
          deleteFilePatch("web/package.json", lines(WEB_PACKAGE_JSON)),
      ],
      /path "web\/package\.json" is removed beside "web\/package\.yaml"/,
    );
    await expectRejected(
      "hpack",
      [deleteFilePatch("web/package.json", lines(WEB_PACKAGE_JSON))],
      /is removed beside/,
    );
  });

  it("refuses a package.yaml added with, or after, the pnpm-lock.yaml that tells pnpm's deleted", async () => {
    const lockGone = deleteFilePatch("pnpm-lock.yaml", ["lockfileVersion: '9.0'"]);
    const manifest = newFilePatch("app/package.yaml", ["name: app", "scripts:", "  postinstall: node -e 1"]);
    const refused = /path "app\/package\.yaml" is a project manifest pnpm reads/;
    await expectRejected("pnpmYaml", [lockGone + manifest], refused);
    await expectRejected("pnpmYaml", [lockGone, manifest], refused);
    // A project that commits no lockfile names pnpm in its root package.json.
    await expectRejected("pnpmManager", [manifest], refused);
    // Where the base is no pnpm tree, a package.yaml is Haskell's hpack manifest: proposable.
    await expectAccepted("hpack", [
      newFilePatch("lib/package.yaml", ["name: lib", "dependencies:", "  - base"]),
    ]);
  });

  it("accepts deleting another file there, and a package.json with no other manifest beside it", async () => {
    await expectAccepted("pnpmYaml", [deleteFilePatch("web/index.js", ["console.log(1);"])]);
    await expectAccepted("workspaces", [
      deleteFilePatch("examples/demo/package.json", lines(`${JSON.stringify({ name: "demo" }, null, 2)}\n`)),
    ]);
  });
});

/** A patch changing the one-line file `path` from `old` to `new`. */
function modifyPatch(path: string, old: string, next: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -1 +1 @@",
    `-${old}`,
    `+${next}`,
    "",
  ].join("\n");
}

describe("validate: a dependency patch the base's package files name", () => {
  const patched = /is a dependency patch the base's "[^"]+" names/;

  it("refuses changing, deleting or renaming a patch: resolution's file in a folder of its own", async () => {
    await expectRejected("yarnPatch", [modifyPatch("custom/pad.patch", "old", "new")], patched);
    await expectRejected(
      "yarnPatch",
      [deleteFilePatch("custom/pad.patch", ["old"])],
      /path "custom\/pad\.patch" is a dependency patch the base's "(?:package\.json|yarn\.lock)" names/,
    );
    await expectRejected("yarnPatch", [renamePatch("custom/pad.patch", "custom/pad2.patch")], patched);
    // A patch file no package file names stays proposable.
    await expectAccepted("yarnPatch", [modifyPatch("custom/notes.patch", "old", "new")]);
  });

  it("refuses changing a patch: resolution's file a JSON escape spells the protocol of", async () => {
    await expectRejected(
      "escapedYarnPatch",
      [modifyPatch("custom/pad.cfg", "old", "new")],
      /path "custom\/pad\.cfg" is a dependency patch the base's "package\.json" names/,
    );
    await expectAccepted("escapedYarnPatch", [modifyPatch("custom/notes.cfg", "old", "new")]);
  });

  it("refuses changing pnpm's patchedDependencies file, and any file of patch-package's --patch-dir", async () => {
    await expectRejected(
      "pnpmPatch",
      [modifyPatch("fixes/pad.patch", "old", "new")],
      /path "fixes\/pad\.patch" is a dependency patch the base's "package\.json" names/,
    );
    await expectRejected("patchDir", [modifyPatch("our-fixes/pad+1.0.0.patch", "old", "new")], patched);
    await expectRejected(
      "patchDir",
      [newFilePatch("our-fixes/left+2.0.0.patch", ["new"])],
      /path "our-fixes\/left\+2\.0\.0\.patch" is a dependency patch/,
    );
  });
});

describe("validate: a dependency patch pnpm's YAML or JSON5 names", () => {
  it("refuses changing a patch a flow mapping over lines names, a comma in its quoted path too", async () => {
    const named = /is a dependency patch the base's "pnpm-workspace\.yaml" names/;
    await expectRejected("pnpmFlowPatch", [modifyPatch("custom/pad.patch", "old", "new")], named);
    await expectRejected("pnpmFlowPatch", [deleteFilePatch("custom/a,b.patch", ["old"])], named);
    await expectAccepted("pnpmFlowPatch", [modifyPatch("custom/notes.patch", "old", "new")]);
  });

  it("refuses changing a patch a package.json5 manifest names", async () => {
    await expectRejected(
      "json5Patch",
      [modifyPatch("web/fixes/pad.patch", "old", "new")],
      /path "web\/fixes\/pad\.patch" is a dependency patch the base's "web\/package\.json5" names/,
    );
  });

  it("refuses changing any patch file where the base names patches in a form it does not read", async () => {
    await expectRejected(
      "unreadPatch",
      [modifyPatch("fixes/pad.diff", "old", "new")],
      /path "fixes\/pad\.diff" is a patch file, and the base's "pnpm-workspace\.yaml" may name it as a dependency patch in a form this check does not read \(an anchor, alias, tag or block scalar \(line 2\)\)/,
    );
    await expectRejected(
      "unreadPatch",
      [newFilePatch("other/fix.patch", ["new"])],
      /path "other\/fix\.patch" is a patch file/,
    );
    await expectAccepted("unreadPatch", [modifyPatch("fixes/README.md", "old", "new")]);
    // pnpm's patchedDependencies may name a file of any name: one that reads as a patch is one.
    const diffLines = ["diff --git a/index.js b/index.js", "--- a/index.js", "+++ b/index.js", "@@ -1 +1 @@"];
    await expectRejected(
      "unreadPatch",
      [modifyPatch("fixes/pad.fix", "old", "@@ -1 +1 @@")],
      /path "fixes\/pad\.fix" is a patch file, and the base's "pnpm-workspace\.yaml" may name it/,
    );
    await expectRejected(
      "unreadPatch",
      [newFilePatch("other/fix.txt", [...diffLines, "-a", "+b"])],
      /path "other\/fix\.txt" is a patch file/,
    );
    // One that read as a patch before the change, too: its hunk changed or dropped.
    await expectRejected(
      "unreadPatch",
      [modifyPatch("fixes/left.fix", "+b", "+c").replace("@@ -1 +1 @@", "@@ -5 +5 @@")],
      /path "fixes\/left\.fix" is a patch file/,
    );
    await expectRejected(
      "unreadPatch",
      [renamePatch("fixes/left.fix", "fixes/left.txt")],
      /path "fixes\/left\.fix" is a patch file/,
    );
    await expectAccepted("unreadPatch", [modifyPatch("fixes/pad.fix", "old", "a -- b @@ c")]);
  });
});

describe("validate: a committed node_modules, as npm rebuild and the next install read it", () => {
  /** A patch changing the whole of `path` from `old` to `next`. */
  const rewrite = (path: string, old: string, next: string) =>
    [
      `diff --git a/${path} b/${path}`,
      `--- a/${path}`,
      `+++ b/${path}`,
      `@@ -1,${lines(old).length} +1,${lines(next).length} @@`,
      ...lines(old).map((line) => `-${line}`),
      ...lines(next).map((line) => `+${line}`),
      "",
    ].join("\n");

  it("refuses a dependency's install script, binding.gyp or dropped install script", async () => {
    const scripted = `${JSON.stringify({ name: "pad", version: "1.0.0", scripts: { postinstall: "node x.js" } }, null, 2)}\n`;
    await expectRejected(
      "vendored",
      [rewrite("node_modules/pad/package.json", PAD_PACKAGE, scripted)],
      /path "node_modules\/pad\/package\.json" adds the npm lifecycle script "postinstall"/,
    );
    await expectRejected(
      "vendored",
      [
        newFilePatch("node_modules/evil/package.json", [
          '{ "name": "evil", "scripts": { "preinstall": "x" } }',
        ]),
      ],
      /path "node_modules\/evil\/package\.json" adds the npm lifecycle script "preinstall"/,
    );
    await expectRejected(
      "vendored",
      [newFilePatch("node_modules/evil/binding.gyp", ["{ 'targets': [] }"])],
      /node_modules\/evil\/binding\.gyp/,
    );
    const dropped = NATIVE_PACKAGE.replace('"install"', '"build"');
    await expectRejected(
      "vendored",
      [rewrite("node_modules/native/package.json", NATIVE_PACKAGE, dropped)],
      /leaves npm to run node-gyp from "node_modules\/native\/binding\.gyp"/,
    );
  });

  it("refuses npm's hidden lockfile resolving a package off the registry, and accepts its code changed", async () => {
    await expectRejected(
      "vendored",
      [rewrite("node_modules/.package-lock.json", HIDDEN_LOCK, hiddenLock("https://e.invalid/pad.tgz"))],
      /path "node_modules\/\.package-lock\.json" changes the source "https:\/\/e\.invalid\/pad\.tgz"/,
    );
    await expectAccepted("vendored", [
      modifyPatch("node_modules/pad/index.js", "module.exports = 1;", "module.exports = 2;"),
    ]);
  });
});

describe("validate: a workspaces change that makes a folder of the tree a workspace", () => {
  const withWorkspaces = (patterns: string[]) =>
    `${JSON.stringify({ name: "root", private: true, workspaces: patterns }, null, 2)}\n`;
  const change = (patterns: string[]) =>
    [
      "diff --git a/package.json b/package.json",
      "--- a/package.json",
      "+++ b/package.json",
      `@@ -1,${lines(ROOT_WORKSPACES).length} +1,${lines(withWorkspaces(patterns)).length} @@`,
      ...lines(ROOT_WORKSPACES).map((line) => `-${line}`),
      ...lines(withWorkspaces(patterns)).map((line) => `+${line}`),
      "",
    ].join("\n");

  it("refuses one whose package.json has an install script the next install runs", async () => {
    await expectRejected(
      "workspaces",
      [change(["packages/*", "test/fixtures/*"])],
      /path "package\.json" makes "test\/fixtures\/evil" a workspace: the next install runs or fetches the script "postinstall"/,
    );
  });

  it("accepts one whose package.json runs nothing on install", async () => {
    await expectAccepted("workspaces", [change(["packages/*", "examples/*"])]);
  });
});

describe("validate: a package.json that starts npm's node-gyp from a binding.gyp beside it", () => {
  it("refuses one added beside a binding.gyp, or changed to drop its own install script", async () => {
    await expectRejected(
      "gyp",
      [newFilePatch("native/package.json", ['{ "name": "native" }'])],
      /path "native\/package\.json" leaves npm to run node-gyp from "native\/binding\.gyp" on the next install/,
    );
    const dropped = GYP_PACKAGE.replace('"install": "node-gyp-build"', '"build": "node-gyp-build"');
    const patch = [
      "diff --git a/packages/b/package.json b/packages/b/package.json",
      "--- a/packages/b/package.json",
      "+++ b/packages/b/package.json",
      `@@ -1,${lines(GYP_PACKAGE).length} +1,${lines(dropped).length} @@`,
      ...lines(GYP_PACKAGE).map((line) => `-${line}`),
      ...lines(dropped).map((line) => `+${line}`),
      "",
    ].join("\n");
    await expectRejected("gyp", [patch], /path "packages\/b\/package\.json" leaves npm to run node-gyp/);
  });

  it("accepts a package.json added where no binding.gyp is", async () => {
    await expectAccepted("gyp", [newFilePatch("docs/package.json", ['{ "name": "docs" }'])]);
  });
});
