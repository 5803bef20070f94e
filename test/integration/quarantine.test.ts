// validate: quarantine apply (layers 2-4) against the corpus base repo, asserting through git that the
// repo is byte-identical after every outcome.
import { access } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, splitNul } from "../../src/git/run.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../../src/paths/forbidden.js";
import {
  applyInQuarantine,
  discardQuarantine,
  type QuarantineResult,
  quarantineEnv,
} from "../../src/validate/quarantine.js";
import {
  type BaseRepo,
  createBaseRepo,
  deleteFilePatch,
  type FixtureDiff,
  newFilePatch,
  type RepoState,
  readFixtureDiffs,
  readRepoState,
  renamePatch,
  testSecretName,
} from "../helpers/validate-repo.js";

const MAX_PATCH_BYTES = 1024 * 1024;

let repo: BaseRepo;
let before: RepoState;
let fixtures: FixtureDiff[];

beforeAll(async () => {
  repo = await createBaseRepo();
  before = await readRepoState(repo);
  fixtures = await readFixtureDiffs();
});

afterAll(async () => {
  await repo?.cleanup();
});

interface RunOptions {
  manifest?: ReadonlySet<string>;
  forbiddenPaths?: readonly string[];
  allowBinary?: boolean;
}

async function propose(patches: readonly string[], options: RunOptions = {}): Promise<QuarantineResult> {
  return applyInQuarantine({
    repoEnv: repo.env,
    objectsDir: repo.objectsDir,
    cwd: repo.dir,
    base: repo.head,
    manifest: options.manifest ?? repo.manifest,
    commits: patches.map((patch, index) => ({ message: `proposal ${index + 1}`, patch })),
    forbiddenPaths: options.forbiddenPaths ?? DEFAULT_FORBIDDEN_PATHS,
    isSecretName: testSecretName,
    maxPatchBytes: MAX_PATCH_BYTES,
    allowBinary: options.allowBinary,
  });
}

async function expectRejected(
  patches: readonly string[],
  pattern: RegExp,
  options?: RunOptions,
): Promise<string[]> {
  const result = await propose(patches, options);
  if (result.ok) {
    await discardQuarantine(result.quarantineDir);
    throw new Error("expected a rejection");
  }
  expect(result.problems.join("\n")).toMatch(pattern);
  expect(await readRepoState(repo)).toEqual(before);
  return result.problems;
}

/** The changes of each accepted commit, as `git diff-tree --name-status` lines, read in quarantine. */
async function expectAccepted(patches: readonly string[], options?: RunOptions): Promise<string[][]> {
  const result = await propose(patches, options);
  if (!result.ok) throw new Error(`expected acceptance, got:\n${result.problems.join("\n")}`);
  try {
    expect(result.trees).toHaveLength(patches.length);
    const run = { cwd: repo.dir, env: quarantineEnv(result.quarantineDir, repo.objectsDir, repo.env) };
    const changes: string[][] = [];
    let previous = `${repo.head}^{tree}`;
    for (const tree of result.trees) {
      const out = await git(["diff-tree", "-r", "-M", "-z", "--name-status", previous, tree], run);
      changes.push(splitNul(out.stdout));
      previous = tree;
    }
    // The new objects live only in the quarantine.
    const last = result.trees.at(-1);
    if (last !== undefined) {
      const inRepo = await git(["cat-file", "-e", last], {
        cwd: repo.dir,
        env: repo.env,
        allowFailure: true,
      });
      expect(inRepo.exitCode).not.toBe(0);
    }
    expect(await readRepoState(repo)).toEqual(before);
    return changes;
  } finally {
    await discardQuarantine(result.quarantineDir);
    await expect(access(result.quarantineDir)).rejects.toThrow();
  }
}

describe("validate: the attack corpus (test/fixtures/diffs)", () => {
  it("has the corpus to run", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(28);
  });

  it("accepts and rejects every fixture diff as its .expect says, leaving the repo untouched", async () => {
    const outcomes: string[] = [];
    for (const fixture of fixtures) {
      const result = await propose([fixture.patch]);
      if (result.ok) await discardQuarantine(result.quarantineDir);
      outcomes.push(`${fixture.name}: ${result.ok ? "accept" : "reject"}`);
      expect(await readRepoState(repo), fixture.name).toEqual(before);
    }
    expect(outcomes).toEqual(fixtures.map((fixture) => `${fixture.name}: ${fixture.verdict}`));
  });

  it("records exactly the changes of the benign fixtures", async () => {
    const patch = (name: string) => fixtures.find((fixture) => fixture.name.startsWith(name))?.patch ?? "";
    expect(await expectAccepted([patch("01-")])).toEqual([["M", "src/app.ts"]]);
    expect(await expectAccepted([patch("03-")])).toEqual([["R066", "src/old-name.ts", "src/greeting.ts"]]);
    expect(await expectAccepted([patch("05-")])).toEqual([["M", "README.md", "M", "src/my file.ts"]]);
  });

  it("names the reason for each rejected fixture", async () => {
    const reasons: Record<string, RegExp> = {
      "07": /"\.\." component/,
      "11": /does not start with "diff --git "/,
      "13": /copies are not accepted/,
      "17": /\.git look-alike/,
      "21": /\.git look-alike/,
      "25": /symbolic link/,
      "33": /submodule/,
      "35": /mode change from 100644 to 100755/,
      "37": /forbidden path \(\.github\/\*\*\)/,
      "43": /never sent to the worker/,
      "45": /starting with "-"/,
      "47": /control character \(\\r\)/,
      "49": /control byte \\000/,
      "51": /bidi/,
      "53": /over the limit/,
      "55": /same file on case-insensitive or Unicode-normalising/,
      "61": /adds the dependency "left-pad" in "dependencies" to "github:left-pad\/left-pad#master" \(a git repository/,
      "63": /path "package-lock\.json" adds the source "git\+ssh:.*" for "node_modules\/left-pad" \(not the registry/,
      "66": /starts with a drive letter/,
      "68": /reserves for a device \(COM1\)/,
      "70": /ending in a dot or space, which Windows drops \(\.\. \)/,
    };
    for (const [prefix, reason] of Object.entries(reasons)) {
      const fixture = fixtures.find((candidate) => candidate.name.startsWith(`${prefix}-`));
      if (fixture === undefined) continue;
      await expectRejected([fixture.patch], reason);
    }
  });
});

describe("validate: .git look-alikes and unsafe names", () => {
  const names = [
    ".GIT/config",
    ".Git/hooks/pre-commit",
    "sub/.Git/hooks/x",
    ".git /x",
    ".git./x",
    ".git::$INDEX_ALLOCATION/x",
    "git~1/config",
    "GIT~1/config",
    ".g\u200dit/config",
    ".\uff47it/config",
    "a/../b",
    "./a",
    "-rf",
    "src/-n",
    "src/\u202egnp.ts",
    "src/\u2066x.ts",
    "src/tab\there.ts",
    "src/esc\u001b[31m.ts",
  ];
  for (const name of names) {
    it(`rejects a new file named ${JSON.stringify(name)}`, async () => {
      await expectRejected([newFilePatch(name, ["x"])], /path /);
    });
  }

  it("rejects a CR in a quoted name", async () => {
    const patch = newFilePatch("src/x\r", ["x"]);
    expect(patch).toContain('"b/src/x\\015"');
    await expectRejected([patch], /control byte \\015/);
  });
});

describe("validate: only files the worker was sent", () => {
  const withoutLegacy = () => new Set([...repo.manifest].filter((path) => path !== "src/legacy.ts"));
  const legacy = [
    "// Deprecated helpers kept for backwards compatibility.",
    "export const LEGACY_FLAG = true;",
  ];

  it("rejects renaming the excluded .env", async () => {
    await expectRejected([renamePatch(".env", "env.txt")], /".env" was renamed, but it was never sent/);
  });

  it("rejects renaming a file outside the manifest", async () => {
    await expectRejected(
      [renamePatch("src/legacy.ts", "src/legacy2.ts")],
      /was renamed, but it was never sent/,
      {
        manifest: withoutLegacy(),
      },
    );
  });

  it("rejects deleting a file outside the manifest", async () => {
    await expectRejected([deleteFilePatch("src/legacy.ts", legacy)], /was deleted, but it was never sent/, {
      manifest: withoutLegacy(),
    });
  });

  it("rejects modifying a file outside the manifest", async () => {
    const patch = [
      "diff --git a/src/legacy.ts b/src/legacy.ts",
      "--- a/src/legacy.ts",
      "+++ b/src/legacy.ts",
      "@@ -2 +2 @@",
      "-export const LEGACY_FLAG = true;",
      "+export const LEGACY_FLAG = false;",
      "",
    ].join("\n");
    await expectRejected([patch], /was modified, but it was never sent/, { manifest: withoutLegacy() });
  });

  it("accepts deleting a manifest file, and a later commit changing a file an earlier one added", async () => {
    const changes = await expectAccepted([
      deleteFilePatch("src/legacy.ts", legacy),
      newFilePatch("src/new.ts", ["export const a = 1;"]),
      [
        "diff --git a/src/new.ts b/src/new.ts",
        "--- a/src/new.ts",
        "+++ b/src/new.ts",
        "@@ -1 +1 @@",
        "-export const a = 1;",
        "+export const a = 2;",
        "",
      ].join("\n"),
    ]);
    expect(changes).toEqual([
      ["D", "src/legacy.ts"],
      ["A", "src/new.ts"],
      ["M", "src/new.ts"],
    ]);
  });
});

describe("validate: modes, symlinks and gitlinks", () => {
  it("rejects a new executable file", async () => {
    await expectRejected([newFilePatch("scripts/new.sh", ["#!/bin/sh"], "100755")], /new executable file/);
  });

  it("rejects removing the executable bit", async () => {
    const patch = "diff --git a/scripts/build.sh b/scripts/build.sh\nold mode 100755\nnew mode 100644\n";
    await expectRejected([patch], /mode change from 100755 to 100644/);
  });

  it("accepts renaming an executable file with its mode unchanged", async () => {
    expect(await expectAccepted([renamePatch("scripts/build.sh", "scripts/make.sh")])).toEqual([
      ["R100", "scripts/build.sh", "scripts/make.sh"],
    ]);
  });

  it("rejects a symlink created by one commit and written through by the next", async () => {
    const link =
      "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+src\n\\ No newline at end of file\n";
    const problems = await expectRejected([link, newFilePatch("link/x.ts", ["x"])], /new symbolic link/);
    expect(problems.every((problem) => problem.startsWith("commit 1: "))).toBe(true);
  });

  it("rejects retargeting an existing symlink", async () => {
    const patch = [
      "diff --git a/docs/latest b/docs/latest",
      "--- a/docs/latest",
      "+++ b/docs/latest",
      "@@ -1 +1 @@",
      "-v2",
      "\\ No newline at end of file",
      "+../..",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    await expectRejected([patch], /symbolic link and was modified/);
  });

  it("rejects replacing a symlink by a regular file", async () => {
    const patch =
      deleteFilePatch("docs/latest", ["v2"], "120000").replace(
        "-v2\n",
        "-v2\n\\ No newline at end of file\n",
      ) + newFilePatch("docs/latest", ["see v2"]);
    await expectRejected([patch], /changed type/);
  });

  it("rejects a new gitlink", async () => {
    const patch =
      "diff --git a/vendor/x b/vendor/x\nnew file mode 160000\nindex 0000000..1234567\n--- /dev/null\n+++ b/vendor/x\n@@ -0,0 +1 @@\n+Subproject commit 1234567890abcdef1234567890abcdef12345678\n";
    await expectRejected([patch], /submodule/);
  });
});

describe("validate: forbidden paths", () => {
  const cases: [string, RegExp][] = [
    [".GitHub/workflows/x.yml", /forbidden path \(\.github\/\*\*\)/],
    [".GITHUB/workflows/ci.yml", /forbidden path/],
    [".Husky/pre-push", /forbidden path \(\*\*\/\.husky\/\*\*\)/],
    ["sub/.gitignore", /forbidden path \(\.gitignore\)/],
    [".gitmodules", /forbidden path \(\.gitmodules\)/],
    [".yarnrc.yml", /forbidden path/],
    [".vscode/tasks.json", /forbidden path/],
    ["config/.env.production", /secret name rule dotenv/],
    ["keys/server.pem", /secret name rule private-key/],
    ["native/binding.gyp", /binding\.gyp/],
  ];
  for (const [path, reason] of cases) {
    it(`rejects a new ${path}`, async () => {
      await expectRejected([newFilePatch(path, ["x"])], reason);
    });
  }

  it("rejects a policy forbidden path", async () => {
    await expectRejected([newFilePatch("docs/v2/new.md", ["x"])], /forbidden path \(docs\/\*\*\)/, {
      forbiddenPaths: [...DEFAULT_FORBIDDEN_PATHS, "docs/**"],
    });
  });

  it("rejects deleting a forbidden file", async () => {
    const ci = await git(["show", "HEAD:.github/workflows/ci.yml"], { cwd: repo.dir, env: repo.env });
    const lines = ci.stdout.replace(/\n$/, "").split("\n");
    await expectRejected([deleteFilePatch(".github/workflows/ci.yml", lines)], /forbidden path/);
  });

  it("accepts a new .env.example", async () => {
    expect(await expectAccepted([newFilePatch(".env.example", ["API_TOKEN="])])).toEqual([
      ["A", ".env.example"],
    ]);
  });
});

describe("validate: npm lifecycle scripts", () => {
  /** A hunk over lines 5-9 of the base package.json, replacing `removed` (lines 6-7) with `added`. */
  const scriptsPatch = (removed: string[], added: string[]) => {
    const tail = [...(removed.length === 2 ? [] : ['    "test": "node --test"']), "  }", "}"];
    return [
      "diff --git a/package.json b/package.json",
      "--- a/package.json",
      "+++ b/package.json",
      `@@ -5,5 +5,${5 - removed.length + added.length} @@`,
      '   "scripts": {',
      ...removed.map((line) => `-${line}`),
      ...added.map((line) => `+${line}`),
      ...tail.map((line) => ` ${line}`),
      "",
    ].join("\n");
  };

  it("rejects an added postinstall script", async () => {
    const patch = scriptsPatch(
      ['    "build": "tsc -p .",', '    "test": "node --test"'],
      ['    "build": "tsc -p .",', '    "test": "node --test",', '    "postinstall": "node evil.js"'],
    );
    await expectRejected([patch], /adds the npm lifecycle script "postinstall"/);
  });

  it("rejects a package.json that is no longer valid JSON", async () => {
    const patch = scriptsPatch(['    "build": "tsc -p .",'], ['    "build": "tsc -p .",,']);
    await expectRejected([patch], /not a valid JSON object/);
  });

  it("rejects a new nested package.json with a prepare script", async () => {
    const patch = newFilePatch("packages/x/package.json", ['{ "scripts": { "prepare": "node evil.js" } }']);
    await expectRejected([patch], /adds the npm lifecycle script "prepare"/);
  });

  it("reads a new bun.lock as Bun does: a GitHub entry refused, registry ones accepted", async () => {
    const bunLock = (entry: string) =>
      newFilePatch("bun.lock", [
        "{",
        '  "lockfileVersion": 1,',
        '  "workspaces": { "": { "name": "demo", "dependencies": { "pad": "^1.0.0" }, }, },',
        '  "packages": {',
        `    "pad": ${entry},`,
        "  },",
        "}",
      ]);
    await expectRejected(
      [bunLock('["pad@github:evil/pad#0123abc", {}, "evil-pad-0123abc"]')],
      /path "bun\.lock" adds the source "pad@github:evil\/pad#0123abc" for "pad" \(not the registry/,
    );
    expect(await expectAccepted([bunLock('["pad@1.0.0", "", {}, "sha512-AAAA"]')])).toEqual([
      ["A", "bun.lock"],
    ]);
  });

  it("refuses a new lockfile entry resolved to another package's registry tarball, the repo unchanged", async () => {
    const packageLock = (resolved: string) =>
      newFilePatch("package-lock.json", [
        "{",
        '  "lockfileVersion": 3,',
        '  "packages": {',
        '    "": { "dependencies": { "lodash": "^4.17.21" } },',
        `    "node_modules/lodash": { "version": "4.17.21", "resolved": "${resolved}" }`,
        "  }",
        "}",
      ]);
    await expectRejected(
      [packageLock("https://registry.npmjs.org/evil-pkg/-/evil-pkg-1.0.0.tgz")],
      /path "package-lock\.json" resolves the entry "node_modules\/lodash" \("lodash@4\.17\.21"\) to "https:\/\/registry\.npmjs\.org\/evil-pkg\/-\/evil-pkg-1\.0\.0\.tgz" \(not the package the entry names/,
    );
    expect(
      await expectAccepted([packageLock("https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz")]),
    ).toEqual([["A", "package-lock.json"]]);
    const pnpmLock = newFilePatch("pnpm-lock.yaml", [
      "lockfileVersion: '9.0'",
      "importers:",
      "  .:",
      "    dependencies:",
      "      lodash:",
      "        specifier: ^4.17.21",
      "        version: evil-pkg@1.0.0",
    ]);
    await expectRejected(
      [pnpmLock],
      /path "pnpm-lock\.yaml" resolves the entry "importers > \. > lodash" \("lodash@\^4\.17\.21"\) to "evil-pkg@1\.0\.0"/,
    );
  });

  it("refuses a package.yaml in a tree pnpm installs, and a package.json5 anywhere", async () => {
    // pnpm reads either as a project's manifest where no package.json is beside it: here a new
    // workspace folder's, whose postinstall the next pnpm install runs.
    const manifest = newFilePatch("packages/web/package.yaml", [
      "name: web",
      "scripts:",
      "  postinstall: node -e 1",
    ]);
    const pnpmLock = newFilePatch("pnpm-lock.yaml", ["lockfileVersion: '9.0'"]);
    await expectRejected(
      [pnpmLock + manifest],
      /path "packages\/web\/package\.yaml" is a project manifest pnpm reads where no package\.json is beside it/,
    );
    await expectRejected(
      [
        newFilePatch("packages/web/package.json5", [
          "{ name: 'web', scripts: { postinstall: 'node -e 1' } }",
        ]),
      ],
      /path "packages\/web\/package\.json5" is a project manifest pnpm reads/,
    );
    // Without pnpm, a package.yaml is Haskell's hpack manifest: proposable.
    const hpack = newFilePatch("package.yaml", ["name: demo", "dependencies:", "  - base >= 4.7 && < 5"]);
    expect(await expectAccepted([hpack])).toEqual([["A", "package.yaml"]]);
  });

  it("refuses Bun's binary bun.lockb outright, even where binary patches are allowed", async () => {
    const patch =
      "diff --git a/bun.lockb b/bun.lockb\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..8352675d67aed6625ece79af41c27fdb4ee2e867\nGIT binary patch\nliteral 3\nKcmZQzWC8#H2LJ>B\n\nliteral 0\nHcmV?d00001\n\n";
    await expectRejected([patch], /"bun\.lockb" is a forbidden path \(bun\.lockb\)/, { allowBinary: true });
  });

  it("accepts a changed build script", async () => {
    const patch = scriptsPatch(['    "build": "tsc -p .",'], ['    "build": "tsc -p tsconfig.json",']);
    expect(await expectAccepted([patch])).toEqual([["M", "package.json"]]);
  });
});

describe("validate: patch text and git apply", () => {
  it("rejects a binary patch", async () => {
    const patch =
      "diff --git a/x.bin b/x.bin\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 3\nKcmZ?wZ~y=R00000\n\nliteral 0\nHcmV?d00001\n\n";
    await expectRejected([patch], /binary patches are not accepted/);
  });

  it("accepts a binary patch only when the caller allows binary", async () => {
    const patch =
      "diff --git a/x.bin b/x.bin\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..8352675d67aed6625ece79af41c27fdb4ee2e867\nGIT binary patch\nliteral 3\nKcmZQzWC8#H2LJ>B\n\nliteral 0\nHcmV?d00001\n\n";
    const result = await propose([patch], { allowBinary: true });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    const env = quarantineEnv(result.quarantineDir, repo.objectsDir, repo.env);
    const blob = await git(["rev-parse", `${result.trees[0]}:x.bin`], { cwd: repo.dir, env });
    expect(blob.stdout.trim()).toBe("8352675d67aed6625ece79af41c27fdb4ee2e867");
    await discardQuarantine(result.quarantineDir);
    expect(await readRepoState(repo)).toEqual(before);
  });

  it("rejects a traditional patch glued after a git one", async () => {
    const patch = `${newFilePatch("x.txt", ["x"])}--- /dev/null\n+++ b/etc/evil\n@@ -0,0 +1 @@\n+y\n`;
    await expectRejected([patch], /expected a hunk header|unexpected line after a hunk/);
  });

  it("reports git apply's error when the context does not match", async () => {
    const patch =
      "diff --git a/src/legacy.ts b/src/legacy.ts\n--- a/src/legacy.ts\n+++ b/src/legacy.ts\n@@ -2 +2 @@\n-nope\n+yes\n";
    await expectRejected([patch], /commit 1: git apply: error: patch failed/);
  });

  it("rejects the whole result when a later commit fails", async () => {
    const problems = await expectRejected(
      [newFilePatch("src/ok.ts", ["x"]), newFilePatch("-x", ["x"])],
      /"-"/,
    );
    expect(problems[0]).toMatch(/^commit 2: /);
  });

  it("accepts CRLF content and changes to it", async () => {
    const edit = [
      "diff --git a/src/crlf.txt b/src/crlf.txt",
      "--- a/src/crlf.txt",
      "+++ b/src/crlf.txt",
      "@@ -1,2 +1,2 @@",
      "-one\r",
      "+uno\r",
      " two\r",
      "",
    ].join("\n");
    const changes = await expectAccepted([newFilePatch("src/crlf.txt", ["one\r", "two\r"]), edit]);
    expect(changes).toEqual([
      ["A", "src/crlf.txt"],
      ["M", "src/crlf.txt"],
    ]);
  });
});

describe("validate: collisions in the result", () => {
  it("rejects an NFD name added after its NFC twin", async () => {
    await expectRejected(
      [newFilePatch("src/caf\u00e9.ts", ["a"]), newFilePatch("src/cafe\u0301.ts", ["b"])],
      /commit 2: paths .* are the same file/,
    );
  });

  it("rejects a case twin of an existing file", async () => {
    await expectRejected([newFilePatch("readme.md", ["x"])], /"README.md" and "readme.md"/);
  });

  it("rejects a directory that differs only in case from an existing one", async () => {
    await expectRejected([newFilePatch("SRC/x.ts", ["x"])], /"SRC" and "src"/);
  });

  it("accepts a non-ASCII name without a twin", async () => {
    expect(await expectAccepted([newFilePatch("docs/caf\u00e9.md", ["x"])])).toEqual([
      ["A", "docs/caf\u00e9.md"],
    ]);
  });
});
