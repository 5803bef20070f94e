// validate: layer 4, folders of the tree a package.json's `workspaces` change makes workspaces.
import { describe, expect, it } from "vitest";
import { workspaceProblems } from "../../src/validate/npm-workspaces.js";

const TREE: Record<string, string> = {
  "package.json": "{}",
  "packages/a/package.json": JSON.stringify({ name: "a", scripts: { build: "tsc" } }),
  "packages/.hidden/package.json": JSON.stringify({ name: "h", scripts: { postinstall: "node x" } }),
  "fixtures/evil/package.json": JSON.stringify({ name: "evil", scripts: { postinstall: "node x" } }),
  "fixtures/fetch/package.json": JSON.stringify({ name: "f", dependencies: { pad: "github:e/pad" } }),
  "fixtures/local/package.json": JSON.stringify({ name: "l", dependencies: { a: "file:../../packages/a" } }),
  "native/gyp/package.json": JSON.stringify({ name: "g" }),
  "native/gyp/binding.gyp": "{}",
  "addons/upper/package.json": JSON.stringify({ name: "u" }),
  "addons/upper/Binding.gyp": "{}",
  "peers/git/package.json": JSON.stringify({
    name: "pg",
    peerDependencies: { pad: "git+https://e.test/pad.git" },
  }),
  "examples/plain/package.json": JSON.stringify({ name: "p", scripts: { prepublishOnly: "tsc" } }),
};
const paths = Object.keys(TREE);
const read = async (path: string) => TREE[path];
const manifest = (workspaces: unknown) => JSON.stringify({ name: "root", private: true, workspaces });

async function problems(before: unknown, after: unknown, path = "package.json"): Promise<string[]> {
  return workspaceProblems(
    path,
    before === undefined ? undefined : manifest(before),
    manifest(after),
    paths,
    read,
  );
}

describe("validate: workspaceProblems", () => {
  it("refuses a pattern that makes a folder with install scripts, node-gyp or fetched code a workspace", async () => {
    expect(await problems(["packages/*"], ["packages/*", "fixtures/*"])).toEqual([
      'makes "fixtures/evil" a workspace: the next install runs or fetches the script "postinstall" of it (code the proposal does not show)',
      'makes "fixtures/fetch" a workspace: the next install runs or fetches the dependency "pad" from a git repository of it (code the proposal does not show)',
    ]);
    expect(await problems(["packages/*"], ["packages/*", "native/{gyp,other}"])).toEqual([
      'makes "native/gyp" a workspace: the next install runs or fetches node-gyp for its binding.gyp of it (code the proposal does not show)',
    ]);
    // Yarn's and Bun's object form, a new file, and a pattern the check reads only loosely.
    expect(await problems(undefined, { packages: ["fixtures/evil"] })).toHaveLength(1);
    expect(await problems([], ["fixtures/[e]vil"])).toHaveLength(2);
    expect(await problems(["packages/*"], ["packages/*", "../outside/*"])).toEqual([
      'adds the workspace "../outside/*", outside the tree (the next install runs the install scripts of what is there)',
    ]);
    expect(await problems(["packages/*"], "packages/*")).toEqual([
      'changes the field "workspaces" to a form this check does not read (the next install runs the install scripts of every folder it names)',
    ]);
  });

  it("finds a binding.gyp in any spelling a case-insensitive checkout reads as one", async () => {
    // npm's stat of binding.gyp finds Binding.gyp on macOS's and Windows' file systems.
    expect(await problems(["packages/*"], ["packages/*", "addons/*"])).toEqual([
      'makes "addons/upper" a workspace: the next install runs or fetches node-gyp for its binding.gyp of it (code the proposal does not show)',
    ]);
  });

  it("counts a workspace's peerDependencies as fetched: npm 7 and later install them", async () => {
    expect(await problems(["packages/*"], ["packages/*", "peers/*"])).toEqual([
      'makes "peers/git" a workspace: the next install runs or fetches the dependency "pad" from a git repository of it (code the proposal does not show)',
    ]);
  });

  it("takes an old pattern's folders as workspaces only where it surely matched them", async () => {
    // packages/.hidden: `*` matches no dot name in npm's, Yarn's and Bun's globs.
    expect(await problems(["packages/*"], ["packages/*", "packages/.*"])).toHaveLength(1);
    // A new `**` is read loosely: it may match the dot folder.
    expect(await problems(["packages/*"], ["packages/**"])).toHaveLength(1);
    // An old negation excluded the folder; a bracket is read loosely, so matches nothing old.
    expect(await problems(["fixtures/*", "!fixtures/evil"], ["fixtures/*"])).toHaveLength(1);
    expect(await problems(["fixtures/[e]vil"], ["fixtures/evil"])).toHaveLength(1);
  });

  it("accepts ordinary workspace changes", async () => {
    expect(await problems(["packages/*"], ["packages/*", "examples/*"])).toEqual([]);
    expect(await problems(["packages/*"], ["packages/*/"])).toEqual([]);
    expect(
      await problems(["packages/*", "fixtures/*"], ["packages/*", "fixtures/*", "native/*"]),
    ).toHaveLength(1);
    expect(await problems(["packages/*", "fixtures/**"], ["packages/*", "fixtures/*"])).toEqual([]);
    expect(await problems(["packages/*"], ["packages/*", "fixtures/local"])).toEqual([]);
    // A nested package.json's patterns are from its folder.
    expect(await problems(["a"], ["a", "evil"], "fixtures/package.json")).toHaveLength(1);
    expect(await problems(["packages/*"], ["packages/*"])).toEqual([]);
  });
});
