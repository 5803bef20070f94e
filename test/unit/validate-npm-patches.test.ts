// validate: layer 4, the dependency patches a package file names by path.
import { describe, expect, it } from "vitest";
import { namedPatchPaths } from "../../src/validate/npm-patches.js";

describe("validate: namedPatchPaths", () => {
  it("reads a Berry lockfile's patch: resolutions, from the locator's workspace and upwards", () => {
    const lock = [
      '"pad@patch:pad@npm%3A1.0.0#./custom/x.patch::locator=web%40workspace%3Apackages%2Fweb":',
      "  version: 1.0.0",
      '  resolution: "pad@patch:pad@npm%3A1.0.0#./custom/x.patch::version=1.0.0&hash=abc&locator=web%40workspace%3Apackages%2Fweb"',
      '"fsevents@patch:fsevents@npm%3A2.3.3#optional!builtin<compat/fsevents>":',
      '  resolution: "fsevents@patch:fsevents@npm%3A2.3.3#optional!builtin<compat/fsevents>::version=2.3.3&hash=df0bf1"',
      '"b@patch:b@npm:1.0.0#~/fix/b.diff&./fix/c.patch::locator=root%40workspace%3A.":',
      "",
    ].join("\n");
    const { files, folders } = namedPatchPaths("yarn.lock", lock);
    expect(files.sort()).toEqual([
      "custom/x.patch",
      "fix/b.diff",
      "fix/c.patch",
      "packages/web/custom/x.patch",
    ]);
    expect(folders).toEqual([]);
  });

  it("reads package.json's patch: specs, patchedDependencies and patch-package's --patch-dir", () => {
    const manifest = JSON.stringify({
      scripts: { postinstall: "patch-package --patch-dir ../fixes" },
      resolutions: { pad: "patch:pad@npm%3A1.0.0#./my-patches/pad.patch" },
      patchedDependencies: { "left@1.0.0": "bun-patches/left.patch" },
      pnpm: { patchedDependencies: { "right@2.0.0": "pnpm-patches/right.patch" } },
    });
    const { files, folders } = namedPatchPaths("apps/web/package.json", manifest);
    expect(files).toEqual(
      expect.arrayContaining([
        "apps/web/my-patches/pad.patch",
        "apps/web/bun-patches/left.patch",
        "apps/web/pnpm-patches/right.patch",
        "pnpm-patches/right.patch",
      ]),
    );
    expect(folders).toEqual(["apps/fixes"]);
    // A space in a patch's path is part of it.
    const spaced = JSON.stringify({ resolutions: { pad: "patch:pad@npm%3A1.0.0#./my fixes/pad.patch" } });
    expect(namedPatchPaths("package.json", spaced).files).toEqual(["my fixes/pad.patch"]);
  });

  it("reads patch: references spelled with JSON escapes, as Yarn reads them", () => {
    const manifest =
      '{"resolutions": {"pad": "p\\u0061tch:pad@npm%3A1.0.0#./custom/pad.cfg", "b": "patch:b@npm%3A1.0.0#.\\/fix\\/b.txt"}}';
    expect(namedPatchPaths("package.json", manifest).files.sort()).toEqual(["custom/pad.cfg", "fix/b.txt"]);
    const lock =
      '"pad@p\\u0061tch:pad@npm%3A1.0.0#./custom/pad.cfg::locator=root%40workspace%3A.":\n  version: 1.0.0\n';
    expect(namedPatchPaths("yarn.lock", lock)).toEqual({
      files: ["custom/pad.cfg"],
      folders: [],
      unread: undefined,
    });
    // An escape JSON does not read (YAML's \x61) may spell anything: said, not guessed.
    expect(namedPatchPaths("yarn.lock", '"pad@p\\x61tch:pad@npm%3A1.0.0#./custom/pad.cfg":\n').unread).toBe(
      "an escape this check does not read (line 1)",
    );
  });

  it("reads pnpm's patchedDependencies in YAML, and leaves out paths outside the tree", () => {
    const workspace =
      "packages:\n  - web\npatchedDependencies:\n  pad@1.0.0: custom/pad.patch\n  '@s/b@2.0.0': \"../../out.patch\"\n";
    expect(namedPatchPaths("pnpm-workspace.yaml", workspace).files).toEqual(["custom/pad.patch"]);
    const lock =
      "lockfileVersion: '6.0'\npatchedDependencies:\n  pad@1.0.0:\n    hash: abc\n    path: custom/pad.patch\n";
    expect(namedPatchPaths("pnpm-lock.yaml", lock).files).toContain("custom/pad.patch");
  });

  it("reads pnpm's patchedDependencies in a package.yaml manifest's pnpm map", () => {
    const manifest = [
      "name: app",
      "pnpm:",
      "  overrides:",
      "    patchedDependencies: not/this.patch",
      "  patchedDependencies:",
      "    pad@1.0.0: custom/pad.patch",
      "  onlyBuiltDependencies: [esbuild]",
      "dependencies:",
      "  pad: 1.0.0",
      "",
    ].join("\n");
    expect(namedPatchPaths("package.yaml", manifest).files).toEqual(["custom/pad.patch"]);
    expect(
      namedPatchPaths("web/package.yaml", "pnpm:\n  patchedDependencies: {pad@1.0.0: p/x.patch}\n").files,
    ).toContain("web/p/x.patch");
  });

  it("reads pnpm's YAML patchedDependencies through comments, and in flow style", () => {
    const commented = [
      "patchedDependencies: # ours",
      "# a comment at the margin is inside the block still",
      "  pad@1.0.0: custom/pad.patch  # pinned",
      "  b@2.0.0: 'custom/b #2.patch' # quoted, the # is the path's",
      "",
    ].join("\n");
    expect(namedPatchPaths("pnpm-workspace.yaml", commented).files.sort()).toEqual([
      "custom/b #2.patch",
      "custom/pad.patch",
    ]);
    const flow =
      "packages: [web]\npatchedDependencies: {pad@1.0.0: custom/pad.patch, '@s/b@2.0.0': \"c/b.patch\"}\n";
    expect(namedPatchPaths("pnpm-workspace.yaml", flow).files.sort()).toEqual([
      "c/b.patch",
      "custom/pad.patch",
    ]);
  });

  it("reads pnpm's YAML patchedDependencies in flow style over lines, quoted commas and values below keys", () => {
    const overLines = [
      "patchedDependencies: {",
      "  pad@1.0.0: custom/pad.patch,",
      '  "@s/b@2.0.0": "custom/a,b.patch"',
      "}",
      "",
    ].join("\n");
    expect(namedPatchPaths("pnpm-workspace.yaml", overLines).files.sort()).toEqual([
      "custom/a,b.patch",
      "custom/pad.patch",
    ]);
    const below = "patchedDependencies:\n  pad@1.0.0:\n    custom/pad.patch\n";
    expect(namedPatchPaths("pnpm-workspace.yaml", below).files).toEqual(["custom/pad.patch"]);
    // A key spelled with YAML's escapes is the same key.
    const escaped = '"patched\\x44ependencies": {pad@1.0.0: custom/pad.patch}\n';
    expect(namedPatchPaths("pnpm-workspace.yaml", escaped).files).toEqual(["custom/pad.patch"]);
    // pnpm 10's lockfile: its package manager's document first, the project's second.
    const lock =
      "---\nlockfileVersion: '9.0'\n\n---\nlockfileVersion: '9.0'\n\npatchedDependencies:\n  pad@1.0.0:\n    hash: abc\n    path: custom/pad.patch\n";
    expect(namedPatchPaths("pnpm-lock.yaml", lock).files).toContain("custom/pad.patch");
    const manifest = "name: web\npnpm: {\n  patchedDependencies: {pad@1.0.0: p/x.patch}}\n";
    expect(namedPatchPaths("package.yaml", manifest).files).toContain("p/x.patch");
  });

  it("reads pnpm's patchedDependencies in a package.json5 manifest", () => {
    const manifest = [
      "// web",
      "{",
      "  name: 'web',",
      "  pnpm: {",
      "    patchedDependencies: {'pad@1.0.0': 'custom/pad.patch', \"b@2.0.0\": \"custom/b\\u002epatch\",},",
      "  },",
      "}",
    ].join("\n");
    const { files, unread } = namedPatchPaths("web/package.json5", manifest);
    expect(files).toEqual(expect.arrayContaining(["web/custom/pad.patch", "web/custom/b.patch"]));
    expect(unread).toBeUndefined();
  });

  it("says why a YAML or JSON5 file that may name patches is not read, and reads nothing of it", () => {
    const anchored = "patchedDependencies:\n  pad@1.0.0: &p custom/pad.patch\n  b@1.0.0: *p\n";
    expect(namedPatchPaths("pnpm-workspace.yaml", anchored)).toEqual({
      files: [],
      folders: [],
      unread: "an anchor, alias, tag or block scalar (line 2)",
    });
    expect(namedPatchPaths("package.json5", "{pnpm: {patchedDependencies: {a: 'x.patch'}}")).toMatchObject({
      unread: expect.stringMatching(/^no comma between members/),
    });
    // A file that names no patch, in a form that could not hide the word, is not read at all.
    expect(namedPatchPaths("pnpm-workspace.yaml", "packages: &p\n  - web\n").unread).toBeUndefined();
  });
});
