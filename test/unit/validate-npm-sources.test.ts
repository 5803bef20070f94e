// validate: layer 4, dependencies and lockfile entries a proposal points off the registry.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  changedDependencySources,
  changedLockfileSources,
  declaresPnpm,
  lockfileKind,
  nonRegistrySource,
} from "../../src/validate/npm-sources.js";

const pkg = (fields: Record<string, unknown>) =>
  JSON.stringify({ name: "demo", version: "1.0.0", ...fields });

describe("validate: nonRegistrySource", () => {
  it("names every source other than the registry that npm, Yarn and pnpm read", () => {
    const sources: Record<string, string> = {
      "git+ssh://git@github.com/evil/pad.git#main": "a git repository",
      "git://github.com/evil/pad.git": "a git repository",
      "git+https://github.com/evil/pad.git": "a git repository",
      "github:evil/pad": "a git repository",
      "gitlab:evil/pad#v1": "a git repository",
      "bitbucket:evil/pad": "a git repository",
      "gist:11081aaa281": "a git repository",
      "evil/pad": "a git repository",
      "evil/pad#semver:^1.0.0": "a git repository",
      "https://cdn.example.invalid/pad-1.0.0.tgz": "a URL",
      "http://cdn.example.invalid/pad.tgz": "a URL",
      "file:../pad": "a local path",
      "link:../pad": "a local path",
      "portal:../pad": "a local path",
      "../pad": "a local path",
      "./vendor/pad.tgz": "a local path",
      "/opt/pad": "a local path",
      "~/pad": "a local path",
      "C:\\pad": 'a "c:" source',
      "exec:./build.js": 'a "exec:" source',
      "npm:pad@github:evil/pad": "a git repository",
      "workspace:../pad": "a local path",
      " GitHub:evil/pad ": "a git repository",
      "pad.tgz": "a local path",
      "pad-1.0.0.TAR.GZ": "a local path",
      "pad.tar": "a local path",
      "npm:pad@pad.tgz": "a local path",
    };
    for (const [spec, source] of Object.entries(sources)) expect(nonRegistrySource(spec), spec).toBe(source);
  });

  it("lets versions, ranges, tags, aliases of them and workspace or catalog references through", () => {
    for (const spec of [
      "1.0.0",
      "^1.2.3",
      "~1.2.3",
      ">=1 <2 || 3.x",
      "*",
      "",
      "latest",
      "next",
      "npm:left-pad@^1.3.0",
      "npm:@scope/pad@1.0.0",
      "npm:pad",
      "jsr:@std/path@^1.0.0",
      "workspace:*",
      "workspace:^",
      "workspace:^1.0.0",
      "catalog:",
      "catalog:react18",
    ]) {
      expect(nonRegistrySource(spec), spec).toBeUndefined();
    }
  });
});

describe("validate: changedDependencySources", () => {
  it("refuses a dependency added or changed to a git repository, a URL or a path", () => {
    expect(
      changedDependencySources(
        pkg({ dependencies: { pad: "^1.0.0" } }),
        pkg({ dependencies: { pad: "github:evil/pad" } }),
      ),
    ).toEqual([
      'changes the dependency "pad" in "dependencies" to "github:evil/pad" (a git repository: the next install fetches it and runs its install scripts)',
    ]);
    expect(changedDependencySources(undefined, pkg({ devDependencies: { t: "file:../t" } }))).toEqual([
      'adds the dependency "t" in "devDependencies" to "file:../t" (a local path: the next install fetches it and runs its install scripts)',
    ]);
    for (const field of ["optionalDependencies", "peerDependencies"]) {
      expect(
        changedDependencySources(pkg({}), pkg({ [field]: { x: "https://e.invalid/x.tgz" } })),
        field,
      ).toHaveLength(1);
    }
  });

  it("refuses the same in npm's overrides, Yarn's resolutions and pnpm's overrides, nested or not", () => {
    const overrides = { foo: { ".": "1.0.0", bar: "git+ssh://git@e.invalid/bar.git" } };
    expect(changedDependencySources(pkg({}), pkg({ overrides }))).toEqual([
      'adds the dependency "foo > bar" in "overrides" to "git+ssh://git@e.invalid/bar.git" (a git repository: the next install fetches it and runs its install scripts)',
    ]);
    expect(changedDependencySources(pkg({}), pkg({ resolutions: { "**/bar": "link:../bar" } }))).toHaveLength(
      1,
    );
    expect(changedDependencySources(pkg({}), pkg({ pnpm: { overrides: { bar: "evil/bar" } } }))).toHaveLength(
      1,
    );
  });

  it("lets registry versions change, and an existing outside source stay or go", () => {
    const git = { dependencies: { pad: "github:owner/pad#v1" } };
    expect(
      changedDependencySources(
        pkg({ dependencies: { a: "1.0.0" } }),
        pkg({ dependencies: { a: "^2.0.0", b: "3" } }),
      ),
    ).toEqual([]);
    expect(changedDependencySources(pkg(git), pkg({ ...git, description: "x" }))).toEqual([]);
    expect(changedDependencySources(pkg(git), pkg({ dependencies: { pad: "^1.0.0" } }))).toEqual([]);
    expect(changedDependencySources(pkg({}), "{")).toEqual([]);
  });

  it("says how many more there are past ten", () => {
    const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`p${i}`, `github:evil/p${i}`]));
    const problems = changedDependencySources(pkg({}), pkg({ dependencies: many }));
    expect(problems).toHaveLength(11);
    expect(problems.at(-1)).toBe("and 4 more such changes");
  });
});

describe("validate: changedLockfileSources", () => {
  const lock = (packages: Record<string, unknown>) =>
    JSON.stringify({ name: "demo", lockfileVersion: 3, requires: true, packages: { "": {}, ...packages } });
  const registry = (name: string, version: string, origin = "https://registry.npmjs.org") => ({
    version,
    resolved: `${origin}/${name}/-/${name}-${version}.tgz`,
    integrity: "sha512-AAAA",
  });

  it("knows the lockfiles by name, at any depth and in any case", () => {
    expect(lockfileKind("package-lock.json")).toBe("npm");
    expect(lockfileKind("apps/web/npm-shrinkwrap.json")).toBe("npm");
    expect(lockfileKind("Yarn.lock")).toBe("yarn");
    expect(lockfileKind("pnpm-lock.yaml")).toBe("pnpm");
    expect(lockfileKind("apps/web/bun.lock")).toBe("bun");
    expect(lockfileKind("node_modules/.package-lock.json")).toBe("npm");
    expect(lockfileKind("web/Node_Modules/.pnpm/lock.yaml")).toBe("pnpm");
    expect(lockfileKind("docs/.package-lock.json")).toBeUndefined();
    expect(lockfileKind("node_modules/pad/lock.yaml")).toBeUndefined();
    expect(lockfileKind("docs/package-lock.md")).toBeUndefined();
  });

  it("refuses an npm entry resolved to a git repository, a URL off the registry or a path", () => {
    const before = lock({ "node_modules/pad": registry("pad", "1.0.0") });
    const after = lock({
      "node_modules/pad": { version: "1.0.0", resolved: "git+ssh://git@github.com/evil/pad.git#0123abc" },
      "node_modules/cdn": { version: "1.0.0", resolved: "https://cdn.example.invalid/cdn/-/cdn-1.0.0.tgz" },
      "node_modules/up": { version: "1.0.0", resolved: "../../outside", link: true },
      "node_modules/via": { version: "1.0.0", resolved: "packages/../../outside", link: true },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([
      'changes the source "git+ssh://git@github.com/evil/pad.git#0123abc" for "node_modules/pad" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "https://cdn.example.invalid/cdn/-/cdn-1.0.0.tgz" for "node_modules/cdn" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "../../outside" for "node_modules/up" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "packages/../../outside" for "node_modules/via" (not the registry: the next install fetches it and runs its install scripts)',
    ]);
    const v1 = JSON.stringify({
      lockfileVersion: 1,
      dependencies: { a: { version: "1.0.0", dependencies: { b: { resolved: "https://e.invalid/b.tgz" } } } },
    });
    expect(changedLockfileSources("npm", undefined, v1)).toEqual([
      expect.stringContaining('for "dependencies > a > b"'),
    ]);
  });

  it("reads a version 1 entry's source from its version and from fields too, as npm does", () => {
    const v1 = (dependencies: Record<string, unknown>) =>
      JSON.stringify({ lockfileVersion: 1, dependencies });
    const before = v1({
      pad: { version: "1.0.0", resolved: "https://registry.npmjs.org/pad/-/pad-1.0.0.tgz" },
    });
    const after = v1({
      pad: {
        version: "github:evil/pad#0123abc",
        resolved: "https://registry.npmjs.org/pad/-/pad-1.0.0.tgz",
      },
      up: { version: "file:../../outside" },
      cdn: { version: "1.0.0", from: "https://cdn.example.invalid/cdn-1.0.0.tgz" },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([
      'adds the source "github:evil/pad#0123abc" for "dependencies > pad (version)" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "file:../../outside" for "dependencies > up (version)" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "https://cdn.example.invalid/cdn-1.0.0.tgz" for "dependencies > cdn (from)" (not the registry: the next install fetches it and runs its install scripts)',
    ]);
    // Versions, aliases, `from` specs of the registry and workspace folders of the tree pass.
    const fine = v1({
      a: { version: "1.2.3", from: "a@^1.2.0" },
      "@s/b": { version: "npm:b@2.0.0", from: "@s/b@npm:b@^2" },
      web: { version: "file:packages/web" },
    });
    expect(changedLockfileSources("npm", undefined, fine)).toEqual([]);
  });

  it("lets registry entries, the lockfile's own private registry and workspace links in", () => {
    const privateRegistry = "https://npm.corp.example.invalid/api";
    const before = lock({ "node_modules/a": registry("a", "1.0.0", privateRegistry) });
    const after = lock({
      "node_modules/a": registry("a", "1.1.0", privateRegistry),
      "node_modules/b": registry("b", "2.0.0"),
      "node_modules/c": registry("c", "2.0.0", "https://registry.yarnpkg.com"),
      "node_modules/web": { resolved: "packages/web", link: true },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([]);
    // Not over http, and not with credentials in the URL.
    const plain = lock({ "node_modules/b": registry("b", "2.0.0", "http://registry.npmjs.org") });
    expect(changedLockfileSources("npm", before, plain)).toHaveLength(1);
    const withUser = lock({ "node_modules/b": registry("b", "2.0.0", "https://u:p@registry.npmjs.org") });
    expect(changedLockfileSources("npm", before, withUser)).toHaveLength(1);
  });

  it("trusts a registry the lockfile had by its path, not its host: a forge's archives are anyone's", () => {
    const gitlab = "https://gitlab.com/api/v4/projects/7/packages/npm";
    const before = lock({
      "node_modules/@team/a": { version: "1.0.0", resolved: `${gitlab}/@team/a/-/@team/a-1.0.0.tgz` },
      // An outside source the base already had: a project's archive, whose URL has `/-/` too.
      "node_modules/ok": {
        version: "1.0.0",
        resolved: "https://gitlab.com/team/ok/-/archive/v1/ok-v1.tar.gz",
      },
    });
    const after = lock({
      "node_modules/@team/a": { version: "1.1.0", resolved: `${gitlab}/@team/a/-/@team/a-1.1.0.tgz` },
      "node_modules/@team/b": { version: "1.0.0", resolved: `${gitlab}/@team%2fb/-/b-1.0.0.tgz` },
      "node_modules/ok": {
        version: "1.0.0",
        resolved: "https://gitlab.com/team/ok/-/archive/v1/ok-v1.tar.gz",
      },
      "node_modules/pad": {
        version: "1.0.0",
        resolved: "https://gitlab.com/evil/pad/-/archive/main/pad-main.tar.gz",
      },
      "node_modules/x": { version: "1.0.0", resolved: "https://gitlab.com/x/-/x-1.0.0.tgz" },
      // An archive of the group the base had one of is no registry of its either.
      "node_modules/other": {
        version: "1.0.0",
        resolved: "https://gitlab.com/team/other/-/archive/main/other-main.tar.gz",
      },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([
      'adds the source "https://gitlab.com/evil/pad/-/archive/main/pad-main.tar.gz" for "node_modules/pad" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "https://gitlab.com/x/-/x-1.0.0.tgz" for "node_modules/x" (not the registry: the next install fetches it and runs its install scripts)',
      'adds the source "https://gitlab.com/team/other/-/archive/main/other-main.tar.gz" for "node_modules/other" (not the registry: the next install fetches it and runs its install scripts)',
    ]);
  });

  it("reads Yarn's resolved and resolution lines, and pnpm's resolutions", () => {
    const yarnV1 = (url: string) =>
      `pad@^1.0.0:\n  version "1.0.0"\n  resolved "${url}"\n  integrity sha512-AAAA\n`;
    const ok = yarnV1("https://registry.yarnpkg.com/pad/-/pad-1.0.0.tgz#abc");
    expect(changedLockfileSources("yarn", undefined, ok)).toEqual([]);
    expect(
      changedLockfileSources("yarn", ok, yarnV1("https://codeload.github.com/evil/pad/tar.gz/abc")),
    ).toHaveLength(1);
    const berry = (resolution: string) =>
      `"${resolution.startsWith("resolve@") ? "resolve@npm:^1.22.8" : "pad@npm:^1.0.0"}":\n  version: 1.0.0\n  resolution: "${resolution}"\n`;
    expect(changedLockfileSources("yarn", undefined, berry("pad@npm:1.0.0"))).toEqual([]);
    for (const builtin of [
      "resolve@patch:resolve@npm%3A1.22.8#optional!builtin<compat/resolve>",
      "resolve@patch:resolve@npm%3A1.22.8#optional!builtin<compat/resolve>::version=1.22.8&hash=c3c19d",
    ]) {
      expect(changedLockfileSources("yarn", undefined, berry(builtin)), builtin).toEqual([]);
    }
    for (const resolution of [
      "pad@https://e.invalid/pad.tgz",
      "pad@git+ssh://git@e.invalid/pad.git#commit=abc",
      "pad@file:../pad",
      "pad@patch:pad@npm%3A1.0.0#./patches/pad.patch::version=1.0.0",
      "pad@exec:./make-pad.js",
      // Berry fetches an npm package with an __archiveUrl from that URL, not the registry.
      "pad@npm:1.0.0::__archiveUrl=https%3A%2F%2Fe.invalid%2Fpad.tgz",
      "resolve@patch:resolve@npm%3A1.22.8%3A%3A__archiveUrl%3Dhttps%253A%252F%252Fe.invalid%252Fr.tgz#optional!builtin<compat/resolve>",
    ]) {
      expect(changedLockfileSources("yarn", undefined, berry(resolution)), resolution).toHaveLength(1);
    }
    const pnpm = (resolution: string) => `packages:\n\n  pad@1.0.0:\n    resolution: ${resolution}\n`;
    expect(changedLockfileSources("pnpm", undefined, pnpm("{integrity: sha512-AAAA}"))).toEqual([]);
    for (const resolution of [
      "{tarball: https://e.invalid/pad.tgz}",
      "{commit: abc, repo: https://github.com/evil/pad, type: git}",
      "{directory: ../pad, type: directory}",
      // Quoted or spaced keys: YAML reads the same tarball, a looser reading none.
      '{"tarball": "https://e.invalid/pad.tgz"}',
      "{integrity: sha512-AAAA, 'tarball': https://e.invalid/pad.tgz}",
      "{tarball : https://e.invalid/pad.tgz}",
      '{"type": git, "repo": "https://github.com/evil/pad", "commit": abc}',
    ]) {
      expect(changedLockfileSources("pnpm", undefined, pnpm(resolution)), resolution).toHaveLength(1);
    }
    for (const resolution of [
      "{integrity: sha512-AAAA==}",
      "{integrity: sha512-AAAA, tarball: https://registry.npmjs.org/pad/-/pad-1.0.0.tgz}",
      "{tarball: 'https://registry.npmjs.org/pad/-/pad-1.0.0.tgz', integrity: sha512-AAAA}",
    ]) {
      expect(changedLockfileSources("pnpm", undefined, pnpm(resolution)), resolution).toEqual([]);
    }
  });

  it("refuses a resolution written in any form but the one-line one the package manager writes", () => {
    const unread = "a resolution not in the form the package manager writes: it may name any source";
    // YAML reads each of these as the entry's resolution; pnpm and Berry fetch what it names.
    const pnpm = (entry: string) => `packages:\n\n  pad@1.0.0:\n${entry}\n`;
    for (const entry of [
      "    resolution:\n      tarball: https://e.invalid/pad.tgz",
      '    "resolution": {tarball: https://e.invalid/pad.tgz}',
      "    resolution: {integrity: sha512-AAAA,\n      tarball: https://e.invalid/pad.tgz}",
      '    "resol\\u0075tion": {"t\\u0061rball": "https://e.invalid/pad.tgz"}',
    ]) {
      expect(changedLockfileSources("pnpm", undefined, pnpm(entry)), entry).toContainEqual(
        expect.stringContaining(unread),
      );
    }
    const berry = `"pad@npm:^1.0.0":\n  version: 1.0.0\n  "resolution": "pad@https://e.invalid/pad.tgz"\n`;
    expect(changedLockfileSources("yarn", undefined, berry)).toEqual([
      `adds the line ${JSON.stringify('"resolution": "pad@https://e.invalid/pad.tgz"')} (${unread})`,
    ]);
    const v1 = 'pad@^1.0.0:\n  version "1.0.0"\n  "resolved" "https://e.invalid/pad.tgz"\n';
    expect(changedLockfileSources("yarn", undefined, v1)).toHaveLength(1);
    // Yarn v1 reads a quoted value as JSON: this tarball's host is e.invalid, after the `@`, while
    // the line as written names a registry path.
    const escaped = String.raw`u0040e.invalid@^1.0.0:
  version "1.0.0"
  resolved "https://registry.yarnpkg.com\u0040e.invalid/-/u0040e.invalid-1.0.0.tgz"
`;
    expect(changedLockfileSources("yarn", undefined, escaped)).toEqual([
      `adds the line ${JSON.stringify(escaped.split("\n")[2]?.trim())} (${unread})`,
    ]);
    // A plain scalar goes on over the lines indented deeper: YAML reads this resolution as
    // `pad@npm:1.0.0 ::__archiveUrl=...`, which Berry fetches from that URL.
    const continued = `"pad@npm:^1.0.0":\n  version: 1.0.0\n  resolution: pad@npm:1.0.0\n\n    ::__archiveUrl=https%3A%2F%2Fe.invalid%2Fpad.tgz\n  checksum: abc\n`;
    expect(changedLockfileSources("yarn", undefined, continued)).toEqual([
      `adds the line ${JSON.stringify("resolution: pad@npm:1.0.0")} (${unread})`,
    ]);
    // One the base already had may stay.
    expect(changedLockfileSources("yarn", berry, `${berry}\n`)).toEqual([]);
  });
  it("reads the dependencies a lockfile entry installs with it from the lockfile's copy", () => {
    // Yarn and npm take a locked package's dependencies from the lockfile, and `yarn install` or
    // `npm install` resolves one no entry locks from its spec: here a git repository.
    const v1 = (spec: string) =>
      `pad@^1.0.0:\n  version "1.0.0"\n  resolved "https://registry.yarnpkg.com/pad/-/pad-1.0.0.tgz#abc"\n  dependencies:\n    left "${spec}"\n  bin:\n    pad bin/pad.js\n`;
    expect(changedLockfileSources("yarn", v1("^1.0.0"), v1("^1.1.0"))).toEqual([]);
    expect(changedLockfileSources("yarn", v1("^1.0.0"), v1("git+https://e.invalid/left.git"))).toEqual([
      'adds the dependency "left" of the entry "pad@^1.0.0" on "git+https://e.invalid/left.git" (a git repository: the next install resolves it from there, with the entry, and runs its install scripts)',
    ]);
    const berry = (key: string, spec: string) =>
      `"${key}":\n  version: 1.0.0\n  resolution: "pad@npm:1.0.0"\n  dependencies:\n    "@s/left": "${spec}"\n  bin:\n    pad: bin/pad.js\n  languageName: node\n`;
    expect(
      changedLockfileSources(
        "yarn",
        berry("pad@npm:^1.0.0", "npm:^1.0.0"),
        berry("pad@npm:^1.0.0", "npm:^1.1.0"),
      ),
    ).toEqual([]);
    expect(
      changedLockfileSources(
        "yarn",
        berry("pad@npm:^1.0.0", "npm:^1.0.0"),
        berry("pad@npm:^1.0.0", "https://e.invalid/left.tgz"),
      ),
    ).toHaveLength(1);
    // One the lockfile had may stay, under a key Yarn rewrote as ranges were added.
    const link = berry("pad@npm:^1.0.0", "link:./left");
    expect(
      changedLockfileSources("yarn", link, berry("pad@npm:^1.0.0, pad@npm:^1.0.1", "link:./left")),
    ).toEqual([]);
    const npm = (spec: string) =>
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { pad: "^1.0.0" } },
          "node_modules/pad": {
            version: "1.0.0",
            resolved: "https://registry.npmjs.org/pad/-/pad-1.0.0.tgz",
            dependencies: { left: spec },
          },
        },
      });
    expect(changedLockfileSources("npm", npm("^1.0.0"), npm("^1.1.0"))).toEqual([]);
    expect(changedLockfileSources("npm", npm("^1.0.0"), npm("github:evil/left"))).toHaveLength(1);
    const legacy = (spec: string) =>
      JSON.stringify({
        lockfileVersion: 1,
        dependencies: { pad: { version: "1.0.0", requires: { left: spec } } },
      });
    expect(changedLockfileSources("npm", legacy("^1.0.0"), legacy("file:../left"))).toHaveLength(1);
    const bun = (spec: string) =>
      `{\n  "lockfileVersion": 1,\n  "packages": {\n    "pad": ["pad@1.0.0", "", { "dependencies": { "left": "${spec}" } }, "sha512-AAAA"],\n  },\n}\n`;
    expect(changedLockfileSources("bun", bun("^1.0.0"), bun("^1.1.0"))).toEqual([]);
    expect(changedLockfileSources("bun", bun("^1.0.0"), bun("github:evil/left"))).toHaveLength(1);
  });

  it("breaks a lockfile's lines at a carriage return alone, as Yarn and YAML do", () => {
    // Yarn's parsers and YAML's take a lone \r for a line break: the key after one starts an entry
    // of its own, here resolved to another package's tarball.
    const evil = `evil@^1.0.0:\n  version "1.0.0"\n  resolved "https://registry.yarnpkg.com/evil/-/evil-1.0.0.tgz#abc"\n`;
    const pad = (url: string) => `pad@^1.0.0:\n  version "1.0.0"\n  resolved "${url}"\n`;
    const before = `${evil}\n${pad("https://registry.yarnpkg.com/pad/-/pad-1.0.0.tgz#def")}`;
    const after = `${evil}\r${pad("https://registry.yarnpkg.com/evil/-/evil-1.0.0.tgz#abc")}`;
    expect(changedLockfileSources("yarn", before, after)).toEqual([
      'resolves the entry "pad@^1.0.0" ("pad@1.0.0") to "https://registry.yarnpkg.com/evil/-/evil-1.0.0.tgz#abc" (not the package the entry names: the next install puts that code, and its install scripts, in its place)',
    ]);
    const berry = (glue: string, resolution: string) =>
      `"evil@npm:^1.0.0":\n  version: 1.0.0\n  resolution: "evil@npm:1.0.0"\n${glue}"pad@npm:^1.0.0":\n  version: 1.0.0\n  resolution: "${resolution}"\n`;
    expect(
      changedLockfileSources("yarn", berry("\n", "pad@npm:1.0.0"), berry("\r", "evil@npm:1.0.0")),
    ).toHaveLength(1);
    // A lockfile written with \r\n reads as one with \n.
    const crlf = (version: string) =>
      pad(`https://registry.yarnpkg.com/pad/-/pad-${version}.tgz#def`)
        .replace('1.0.0"', `${version}"`)
        .replaceAll("\n", "\r\n");
    expect(changedLockfileSources("yarn", crlf("1.0.0"), crlf("1.0.1"))).toEqual([]);
  });

  it("reads a package whose name holds the word resolution or tarball as a package", () => {
    // gulp's undertaker depends on default-resolution; pnpm's own packages include tarball-fetcher.
    const v1 = (version: string) =>
      `undertaker@^1.2.1:\n  version "1.2.1"\n  resolved "https://registry.yarnpkg.com/undertaker/-/undertaker-1.2.1.tgz#abc"\n  dependencies:\n    default-resolution "^${version}"\n\ndefault-resolution@^${version}:\n  version "${version}"\n  resolved "https://registry.yarnpkg.com/default-resolution/-/default-resolution-${version}.tgz#abc"\n`;
    expect(changedLockfileSources("yarn", v1("2.0.0"), v1("2.0.1"))).toEqual([]);
    const pnpm = (version: string) =>
      `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      '@pnpm/tarball-fetcher':\n        specifier: ^${version}\n        version: ${version}\n\npackages:\n\n  '@pnpm/tarball-fetcher@${version}':\n    resolution: {integrity: sha512-AAAA}\n`;
    expect(changedLockfileSources("pnpm", pnpm("1.0.0"), pnpm("1.0.1"))).toEqual([]);
    // The key itself, between YAML's separators, is still read wherever it stands.
    const flow = `"pad@npm:^1.0.0": {version: 1.0.0,resolution: "pad@https://e.invalid/pad.tgz"}\n`;
    expect(changedLockfileSources("yarn", undefined, flow)).toHaveLength(1);
  });

  it("reads Bun's text lockfile, JSONC as Bun writes it, and refuses one it cannot read", () => {
    // As `bun install` writes it: trailing commas, an npm entry's registry "" for the default one.
    const bun = (packages: string) =>
      `{\n  "lockfileVersion": 1,\n  "workspaces": {\n    "": { "name": "app", },\n  },\n  "packages": {\n${packages}  },\n}\n`;
    const pad = (entry: string) => `    "pad": ${entry},\n`;
    const registryPad = pad('["pad@1.0.0", "", {}, "sha512-AAAA"]');
    const web = '    "web": ["web@workspace:packages/web"],\n';
    expect(changedLockfileSources("bun", undefined, bun(registryPad + web))).toEqual([]);
    // A comment, which Bun reads too.
    expect(changedLockfileSources("bun", undefined, bun(`    // pinned\n${registryPad}`))).toEqual([]);
    const privateRegistry = pad(
      '["pad@1.0.0", "https://npm.corp.example.invalid/pad/-/pad-1.0.0.tgz", {}, "sha512-AAAA"]',
    );
    expect(changedLockfileSources("bun", undefined, bun(privateRegistry))).toHaveLength(1);
    const newer = pad(
      '["pad@1.1.0", "https://npm.corp.example.invalid/pad/-/pad-1.1.0.tgz", {}, "sha512-BBBB"]',
    );
    expect(changedLockfileSources("bun", bun(privateRegistry), bun(newer))).toEqual([]);
    // A registry on a shared host is trusted by its path: another project's there is anyone's.
    const gitlab = (project: number, version: string) =>
      pad(
        `["pad@${version}", "https://gitlab.com/api/v4/projects/${project}/packages/npm/pad/-/pad-${version}.tgz", {}, "sha512-AAAA"]`,
      );
    expect(changedLockfileSources("bun", bun(gitlab(7, "1.0.0")), bun(gitlab(7, "1.1.0")))).toEqual([]);
    expect(changedLockfileSources("bun", bun(gitlab(7, "1.0.0")), bun(gitlab(666, "1.1.0")))).toHaveLength(1);
    expect(
      changedLockfileSources(
        "bun",
        bun(registryPad),
        bun(pad('["pad@github:evil/pad#0123abc", {}, "evil-pad-0123abc"]')),
      ),
    ).toEqual([
      'changes the source "pad@github:evil/pad#0123abc" for "pad" (not the registry: the next install fetches it and runs its install scripts)',
    ]);
    for (const entry of [
      '["pad@git+ssh://git@e.invalid/pad.git#0123abc", {}, "pad-0123abc"]',
      '["pad@https://e.invalid/pad.tgz", {}]',
      '["pad@file:../pad", {}]',
      '["pad@link:../pad", {}]',
      '["pad@workspace:../outside"]',
      '["pad@1.0.0", "https://e.invalid/", {}, "sha512-AAAA"]',
    ]) {
      expect(changedLockfileSources("bun", bun(registryPad), bun(pad(entry))), entry).toHaveLength(1);
    }
    // Two entries of one name, one of them hidden from a reader that keeps the last: not read, refused.
    const twice = bun(registryPad + pad('["pad@github:evil/pad#0123abc", {}, "x"]'));
    expect(changedLockfileSources("bun", bun(registryPad), twice)).toEqual([
      expect.stringMatching(/^is not a bun\.lock this check can read: .*duplicate key/),
    ]);
    expect(changedLockfileSources("bun", undefined, "{ not json")).toHaveLength(1);
  });
});

describe("validate: a lockfile entry resolved to another package's tarball", () => {
  const another =
    "not the package the entry names: the next install puts that code, and its install scripts, in its place";
  const lock = (packages: Record<string, unknown>) =>
    JSON.stringify({ name: "demo", lockfileVersion: 3, requires: true, packages: { "": {}, ...packages } });
  const npmjs = "https://registry.npmjs.org";

  it("refuses an npm entry whose registry tarball is another package's, or another version's", () => {
    const before = lock({
      "node_modules/lodash": { version: "4.17.21", resolved: `${npmjs}/lodash/-/lodash-4.17.21.tgz` },
    });
    const after = lock({
      "node_modules/lodash": { version: "4.17.21", resolved: `${npmjs}/evil-pkg/-/evil-pkg-1.0.0.tgz` },
      "node_modules/pad": { version: "1.0.0", resolved: `${npmjs}/pad/-/pad-6.6.6.tgz` },
      "node_modules/@s/a": { version: "1.0.0", resolved: `${npmjs}/@evil/a/-/a-1.0.0.tgz` },
      "node_modules/x/node_modules/@s/b": { version: "1.0.0", resolved: `${npmjs}/@s%2fb/-/evil-1.0.0.tgz` },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([
      `resolves the entry "node_modules/lodash" ("lodash@4.17.21") to "${npmjs}/evil-pkg/-/evil-pkg-1.0.0.tgz" (${another})`,
      `resolves the entry "node_modules/pad" ("pad@1.0.0") to "${npmjs}/pad/-/pad-6.6.6.tgz" (${another})`,
      `resolves the entry "node_modules/@s/a" ("@s/a@1.0.0") to "${npmjs}/@evil/a/-/a-1.0.0.tgz" (${another})`,
      `resolves the entry "node_modules/x/node_modules/@s/b" ("@s/b@1.0.0") to "${npmjs}/@s%2fb/-/evil-1.0.0.tgz" (${another})`,
    ]);
    // An alias's name field names its package only where a dependency declares the alias.
    const undeclared = lock({
      "": { dependencies: { lodash: "^4.17.21" } },
      "node_modules/lodash": {
        name: "evil-pkg",
        version: "1.0.0",
        resolved: `${npmjs}/evil-pkg/-/evil-pkg-1.0.0.tgz`,
      },
    });
    expect(changedLockfileSources("npm", before, undeclared)).toEqual([
      `resolves the entry "node_modules/lodash" ("lodash") to "evil-pkg@1.0.0" (${another})`,
    ]);
    // Version 1 names the package by its key, an alias's in its version.
    const v1 = JSON.stringify({
      lockfileVersion: 1,
      dependencies: {
        lodash: { version: "4.17.21", resolved: `${npmjs}/evil-pkg/-/evil-pkg-1.0.0.tgz` },
        foo: { version: "npm:bar@1.0.0", resolved: `${npmjs}/baz/-/baz-1.0.0.tgz` },
      },
    });
    expect(changedLockfileSources("npm", undefined, v1)).toEqual([
      `resolves the entry "dependencies > lodash" ("lodash@4.17.21") to "${npmjs}/evil-pkg/-/evil-pkg-1.0.0.tgz" (${another})`,
      `resolves the entry "dependencies > foo" ("bar@1.0.0") to "${npmjs}/baz/-/baz-1.0.0.tgz" (${another})`,
    ]);
    // One the base already had may stay.
    expect(changedLockfileSources("npm", after, `${after}\n`)).toEqual([]);
  });

  it("lets npm's own entries in: this repository's lockfile, aliases, scopes and private registries", () => {
    const own = readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8");
    expect(changedLockfileSources("npm", undefined, own)).toEqual([]);
    const gitlab = "https://gitlab.com/api/v4/projects/7/packages/npm";
    const before = lock({
      "node_modules/@team/a": { version: "1.0.0", resolved: `${gitlab}/@team/a/-/@team/a-1.0.0.tgz` },
    });
    const after = lock({
      "node_modules/@team/a": { version: "1.1.0", resolved: `${gitlab}/@team/a/-/@team/a-1.1.0.tgz` },
      "node_modules/@team/b": { version: "1.0.0", resolved: `${gitlab}/@team%2fb/-/b-1.0.0.tgz` },
      "": { dependencies: { foo: "npm:bar@^1.0.0" } },
      "node_modules/foo": { name: "bar", version: "1.0.0", resolved: `${npmjs}/bar/-/bar-1.0.0.tgz` },
      "node_modules/c": { version: "1.0.0", dependencies: { "string-width-cjs": "npm:string-width@^4.2.0" } },
      "node_modules/string-width-cjs": {
        name: "string-width",
        version: "4.2.3",
        resolved: `${npmjs}/string-width/-/string-width-4.2.3.tgz`,
      },
      "node_modules/@s/c": { version: "2.0.0-rc.1", resolved: `${npmjs}/@s/c/-/c-2.0.0-rc.1.tgz` },
      "node_modules/c/node_modules/d": { version: "1.0.0", resolved: `${npmjs}/d/-/d-1.0.0.tgz` },
    });
    expect(changedLockfileSources("npm", before, after)).toEqual([]);
    const v1 = JSON.stringify({
      lockfileVersion: 1,
      dependencies: { foo: { version: "npm:@s/bar@1.0.0", resolved: `${npmjs}/@s/bar/-/bar-1.0.0.tgz` } },
    });
    expect(changedLockfileSources("npm", undefined, v1)).toEqual([]);
  });

  it("refuses a yarn.lock entry whose tarball or resolution is another package's than its key's", () => {
    const v1 = (key: string, version: string, url: string) =>
      `${key}:\n  version "${version}"\n  resolved "${url}"\n  integrity sha512-AAAA\n`;
    const yarnjs = "https://registry.yarnpkg.com";
    const good = [
      v1("lodash@^4.17.21", "4.17.21", `${yarnjs}/lodash/-/lodash-4.17.21.tgz#abc`),
      v1('"@s/a@^1.0.0", "@s/a@^1.1.0"', "1.1.0", `${yarnjs}/@s/a/-/a-1.1.0.tgz#abc`),
      v1('foo@npm:bar@^1, "bar@^1.0.0"', "1.0.0", `${yarnjs}/bar/-/bar-1.0.0.tgz#abc`),
    ].join("\n");
    expect(changedLockfileSources("yarn", undefined, good)).toEqual([]);
    const swapped = v1("lodash@^4.17.21", "4.17.21", `${yarnjs}/evil-pkg/-/evil-pkg-1.0.0.tgz#abc`);
    expect(changedLockfileSources("yarn", good, swapped)).toEqual([
      `resolves the entry "lodash@^4.17.21" ("lodash@4.17.21") to "${yarnjs}/evil-pkg/-/evil-pkg-1.0.0.tgz#abc" (${another})`,
    ]);
    for (const entry of [
      v1("lodash@^4.17.21", "4.17.21", `${yarnjs}/lodash/-/lodash-1.0.0.tgz#abc`),
      v1("foo@npm:bar@^1, evil@^1", "1.0.0", `${yarnjs}/evil/-/evil-1.0.0.tgz#abc`),
      v1("foo@npm:bar@^1", "1.0.0", `${yarnjs}/foo/-/foo-1.0.0.tgz#abc`),
    ]) {
      expect(changedLockfileSources("yarn", undefined, entry), entry).toEqual([
        expect.stringContaining(another),
      ]);
    }
    const berry = (key: string, version: string, resolution: string) =>
      `"${key}":\n  version: ${version}\n  resolution: "${resolution}"\n  checksum: abc\n`;
    const fine = [
      berry("pad@npm:^1.0.0, pad@npm:^1.1.0", "1.1.0", "pad@npm:1.1.0"),
      berry("@s/a@npm:^1.0.0", "1.0.0", "@s/a@npm:1.0.0"),
      // An alias shares its target's entry, whose resolution names the target.
      berry(
        "string-width-cjs@npm:string-width@^4.2.0, string-width@npm:^4.1.0",
        "4.2.3",
        "string-width@npm:4.2.3",
      ),
      berry("@s/b@npm:@t/b@^2", "2.0.0", "@t/b@npm:2.0.0"),
      berry(
        "resolve@patch:resolve@npm%3A^1.22.8#optional!builtin<compat/resolve>",
        "1.22.8",
        "resolve@patch:resolve@npm%3A1.22.8#optional!builtin<compat/resolve>::version=1.22.8&hash=c3c19d",
      ),
      berry("app@workspace:.", "0.0.0-use.local", "app@workspace:."),
    ].join("\n");
    expect(changedLockfileSources("yarn", undefined, `__metadata:\n  version: 8\n\n${fine}`)).toEqual([]);
    expect(
      changedLockfileSources("yarn", undefined, berry("lodash@npm:^4.17.21", "4.17.21", "evil@npm:1.0.0")),
    ).toEqual([`resolves the entry "lodash@npm:^4.17.21" ("lodash") to "evil@npm:1.0.0" (${another})`]);
    for (const entry of [
      berry("pad@npm:^1.0.0", "1.0.0", "pad@npm:6.6.6"),
      berry("foo@npm:bar@^1", "1.0.0", "foo@npm:1.0.0"),
      berry("pad@npm:^1.0.0, lodash@npm:^4", "1.0.0", "pad@npm:1.0.0"),
      berry(
        "resolve@patch:resolve@npm%3A^1.22.8#optional!builtin<compat/resolve>",
        "1.22.8",
        "resolve@patch:evil@npm%3A1.22.8#optional!builtin<compat/resolve>",
      ),
    ]) {
      expect(changedLockfileSources("yarn", undefined, entry), entry).toEqual([
        expect.stringContaining(another),
      ]);
    }
  });
  it("refuses a pnpm-lock.yaml package or importer resolved to another package, and links out of the tree", () => {
    const v9 = (lodash: string, core: string, tarball: string) =>
      [
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        "      str:",
        "        specifier: npm:string-width@^4",
        "        version: string-width@4.2.3",
        "      lodash:",
        "        specifier: ^4.17.21",
        `        version: ${lodash}`,
        "      '@example/core':",
        "        specifier: workspace:*",
        `        version: ${core}`,
        "      react-dom:",
        "        specifier: ^18.2.0",
        "        version: 18.2.0(react@18.2.0)",
        "",
        "  packages/core:",
        "    dependencies:",
        "      shared:",
        "        specifier: workspace:*",
        "        version: link:../shared",
        "",
        "packages:",
        "",
        "  string-width@4.2.3:",
        "    resolution: {integrity: sha512-AAAA}",
        "",
        "  '@s/x@1.0.0':",
        `    resolution: {integrity: sha512-AAAA, tarball: ${tarball}}`,
        "",
        "snapshots:",
        "",
        "  string-width@4.2.3: {}",
        "",
      ].join("\n");
    const good = v9("4.17.21", "link:packages/core", "https://registry.npmjs.org/@s/x/-/x-1.0.0.tgz");
    expect(changedLockfileSources("pnpm", undefined, good)).toEqual([]);
    const bad = v9(
      "evil-pkg@1.0.0",
      "link:../outside",
      "https://registry.npmjs.org/@s/evil/-/evil-1.0.0.tgz",
    );
    expect(changedLockfileSources("pnpm", good, bad)).toEqual([
      'adds the source "link:../outside" for "importers > . > @example/core" (not the registry: the next install fetches it and runs its install scripts)',
      `resolves the entry "@s/x@1.0.0" ("@s/x@1.0.0") to "https://registry.npmjs.org/@s/evil/-/evil-1.0.0.tgz" (${another})`,
      `resolves the entry "importers > . > lodash" ("lodash@^4.17.21") to "evil-pkg@1.0.0" (${another})`,
    ]);
    // Version 6 of one project, its aliases `/name@version`; version 5's `/name/version`.
    const v6 = (version: string) =>
      `lockfileVersion: '6.0'\n\ndevDependencies:\n  sw:\n    specifier: npm:string-width@^4.2.0\n    version: /string-width@4.2.3\n  lodash:\n    specifier: ^4.17.21\n    version: ${version}\n\npackages:\n\n  /string-width@4.2.3:\n    resolution: {integrity: sha512-x}\n`;
    expect(changedLockfileSources("pnpm", undefined, v6("4.17.21"))).toEqual([]);
    expect(changedLockfileSources("pnpm", undefined, v6("/evil@1.0.0"))).toEqual([
      `resolves the entry "importers > . > lodash" ("lodash@^4.17.21") to "/evil@1.0.0" (${another})`,
    ]);
    const v5 = (version: string) =>
      `lockfileVersion: 5.4\n\nspecifiers:\n  lodash: ^4.17.21\n  sw: npm:string-width@^4\n\ndependencies:\n  lodash: ${version}\n  sw: /string-width/4.2.3\n\npackages:\n\n  /string-width/4.2.3_react@18.0.0:\n    resolution: {integrity: sha512-x}\n`;
    expect(changedLockfileSources("pnpm", undefined, v5("4.17.21_react@18.0.0"))).toEqual([]);
    expect(changedLockfileSources("pnpm", undefined, v5("/evil/1.0.0"))).toHaveLength(1);
    // A package's own name and version, where pnpm writes them, are its key's.
    const named = (name: string) =>
      `lockfileVersion: '6.0'\n\npackages:\n\n  /pad@1.0.0:\n    resolution: {integrity: sha512-x}\n    name: ${name}\n    version: 1.0.0\n`;
    expect(changedLockfileSources("pnpm", undefined, named("pad"))).toEqual([]);
    expect(changedLockfileSources("pnpm", undefined, named("evil"))).toHaveLength(1);
  });
  it("refuses a pnpm package's own link: or file: dependency that leaves the tree, as pnpm links it in", () => {
    const unread = "a resolution not in the form the package manager writes: it may name any source";
    const off = "not the registry: the next install fetches it and runs its install scripts";
    const v9 = (dependencies: string[]) =>
      [
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        "      pad:",
        "        specifier: ^1.0.0",
        "        version: 1.0.0",
        "",
        "packages:",
        "",
        "  pad@1.0.0:",
        "    resolution: {integrity: sha512-AAAA}",
        "",
        "snapshots:",
        "",
        "  local@file:packages/local: {}",
        "",
        "  pad@1.0.0:",
        "    dependencies:",
        ...dependencies,
        "",
      ].join("\n");
    const inside = v9(["      local: file:packages/local", "      own: link:packages/own"]);
    expect(changedLockfileSources("pnpm", undefined, inside)).toEqual([]);
    const refused = (lines: string[]) => changedLockfileSources("pnpm", inside, v9(lines));
    expect(refused(["      evil: link:../outside"])).toEqual([
      `adds the source "link:../outside" for "snapshots > pad@1.0.0 > evil" (${off})`,
    ]);
    for (const version of ["link:/etc", "link:~/x", "file:../../outside", "'link:packages/../../x'"]) {
      expect(refused([`      evil: ${version}`]), version).toHaveLength(1);
    }
    // Any other form that names a link is read as it may name one out of the tree.
    expect(refused(["      evil: {a: link:../outside}"])).toEqual([
      `adds the line "evil: {a: link:../outside}" (${unread})`,
    ]);
    const flow = inside.replace(
      / {2}pad@1\.0\.0:\n[\s\S]*$/,
      "  pad@1.0.0: {dependencies: {evil: link:../x}}\n",
    );
    expect(changedLockfileSources("pnpm", inside, flow)).toEqual([
      `adds the line "pad@1.0.0: {dependencies: {evil: link:../x}}" (${unread})`,
    ]);
    const shallow = inside.replace("    dependencies:\n      local:", "   dependencies:\n    id:");
    expect(changedLockfileSources("pnpm", inside, shallow)).toHaveLength(3);
    // An alias or merge may bring in a map written anywhere (an override's, which nothing reads).
    const anchored = `overrides: &o\n  evil: link:../x\n\n${inside}`;
    for (const [from, to] of [
      ["    dependencies:\n", "    dependencies: *o\n    other:\n"],
      ["      local:", "      <<: *o\n      local:"],
      ["  pad@1.0.0:\n", "  pad@1.0.0: *o\n  pad@2.0.0:\n"],
    ] as const) {
      const aliased = anchored.replace(from, to);
      expect(changedLockfileSources("pnpm", anchored, aliased), to).toEqual([
        `adds the line ${JSON.stringify(to.split("\n")[0]?.trim())} (${unread})`,
      ]);
    }
    // Version 6 writes them in the packages' entries.
    const v6 = (version: string) =>
      `lockfileVersion: '6.0'\n\ndependencies:\n  pad:\n    specifier: ^1.0.0\n    version: 1.0.0\n\npackages:\n\n  /pad@1.0.0:\n    resolution: {integrity: sha512-x}\n    dependencies:\n      evil: ${version}\n`;
    expect(changedLockfileSources("pnpm", undefined, v6("1.0.0"))).toEqual([]);
    expect(changedLockfileSources("pnpm", undefined, v6("link:../outside"))).toEqual([
      `adds the source "link:../outside" for "packages > /pad@1.0.0 > evil" (${off})`,
    ]);
  });

  it("leaves a pnpm-lock.yaml's copies of the settings to pnpm, which only compares them with its own", () => {
    // pnpm resolves with its settings' overrides and catalogs, never the lockfile's: a copy that
    // differs fails a frozen install or is written over; a catalog's locked version is only a
    // preference among the registry versions the settings' specifier allows.
    const settings = (link: string, checksum: string) =>
      [
        "lockfileVersion: '9.0'",
        "",
        "overrides:",
        `  pad: ${link}`,
        "",
        `packageExtensionsChecksum: sha256-${checksum}`,
        `pnpmfileChecksum: sha256-${checksum}`,
        "",
        "catalogs:",
        "  default:",
        "    pad:",
        "      specifier: ^1.0.0",
        `      version: ${link}`,
        "",
        "importers:",
        "",
        "  .: {}",
        "",
      ].join("\n");
    expect(changedLockfileSources("pnpm", settings("1.0.0", "a"), settings("link:../outside", "b"))).toEqual(
      [],
    );
  });

  it("refuses a pnpm importer's link:, file: or specifier that leaves the tree, and keeps links inside it", () => {
    const off = "not the registry: the next install fetches it and runs its install scripts";
    const v9 = (dependencies: string[], folder = "packages/b") =>
      [
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        "      lodash:",
        "        specifier: ^4.17.21",
        "        version: 4.17.21",
        "",
        `  ${folder}:`,
        "    devDependencies:",
        ...dependencies,
        "",
        "packages:",
        "",
        "  lodash@4.17.21:",
        "    resolution: {integrity: sha512-AAAA}",
        "",
      ].join("\n");
    const dependency = (name: string, specifier: string, version: string) => [
      `      ${name}:`,
      `        specifier: ${specifier}`,
      `        version: ${version}`,
    ];
    // Links and folders inside the tree, from packages/b: a sibling, the root, its own subfolder.
    const inside = v9([
      ...dependency("a", "link:../a", "link:../a"),
      ...dependency("root", "workspace:*", "link:../.."),
      ...dependency("c", "file:../c", "file:packages/c"),
      ...dependency("d", "workspace:../d", "link:../d"),
      ...dependency("own", "link:./vendor/own", "link:vendor/own"),
      ...dependency("sw", "npm:string-width@^4", "string-width@4.2.3"),
    ]);
    expect(changedLockfileSources("pnpm", undefined, inside)).toEqual([]);
    const refused = (lines: string[], folder?: string) =>
      changedLockfileSources("pnpm", inside, v9(lines, folder));
    // A link or folder outside the tree, however it gets there.
    expect(refused(dependency("x", "link:../../../outside", "link:../../../outside"))).toEqual([
      `adds the source "link:../../../outside" for "importers > packages/b > x" (${off})`,
      `adds the source "link:../../../outside" for "importers > packages/b > x (specifier)" (${off})`,
    ]);
    expect(refused(dependency("x", "file:../../../outside", "file:../outside"))).toEqual([
      `adds the source "file:../outside" for "importers > packages/b > x" (${off})`,
      `adds the source "file:../../../outside" for "importers > packages/b > x (specifier)" (${off})`,
    ]);
    for (const version of [
      "link:/etc",
      "link:~/outside",
      "link:../a/../../../outside",
      "file:/etc",
      "file:../../outside",
      // A tarball: its content is not in the tree for a reader to see.
      "file:packages/c/pad.tgz",
      "FILE:../../outside",
    ]) {
      expect(refused(dependency("x", "workspace:*", version)), version).toEqual([
        `adds the source ${JSON.stringify(version)} for "importers > packages/b > x" (${off})`,
      ]);
    }
    // A specifier the next install resolves again: a path out of the tree, a git repository, a URL.
    for (const specifier of [
      "../../../outside",
      "workspace:../../../outside",
      "file:pad.tgz",
      "github:evil/pad",
      "evil/pad",
      "https://e.invalid/pad.tgz",
      "git+ssh://git@e.invalid/pad.git",
    ]) {
      expect(refused(dependency("x", specifier, "1.0.0")), specifier).toEqual([
        `adds the source ${JSON.stringify(specifier)} for "importers > packages/b > x (specifier)" (${off})`,
      ]);
    }
    // From the root importer, `..` already leaves the tree; a changed link is refused as a new one.
    expect(refused(dependency("x", "link:..", "link:.."), ".")).toHaveLength(2);
    expect(
      changedLockfileSources(
        "pnpm",
        undefined,
        v9(dependency("x", "link:../a", "link:../a"), "packages/b/c"),
      ),
    ).toEqual([]);
    // One the base already had may stay.
    const outside = v9(dependency("x", "link:../../../outside", "link:../../../outside"));
    expect(changedLockfileSources("pnpm", outside, `${outside}\n`)).toEqual([]);
    // Version 5's one project: its versions on one line, its specifiers in a map of their own.
    const v5 = (version: string, specifier: string) =>
      `lockfileVersion: 5.4\n\nspecifiers:\n  x: ${specifier}\n\ndependencies:\n  x: ${version}\n`;
    expect(changedLockfileSources("pnpm", undefined, v5("link:packages/x", "link:packages/x"))).toEqual([]);
    expect(changedLockfileSources("pnpm", undefined, v5("link:../outside", "link:../outside"))).toEqual([
      `adds the source "link:../outside" for "importers > . > x" (${off})`,
      `adds the source "link:../outside" for "importers > . > x (specifier)" (${off})`,
    ]);
  });
  it("reads pnpm 10's two-document lockfile: its package manager's and config dependencies too", () => {
    // The first document is the lockfile of pnpm itself and of the config dependencies, which pnpm
    // installs and runs (a config dependency's pnpmfile) before it reads the project's.
    const env = (group: string, specifier: string, version: string, resolution: string) =>
      [
        "---",
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .:",
        "    configDependencies: {}",
        `    ${group}:`,
        "      pnpm:",
        `        specifier: ${specifier}`,
        `        version: ${version}`,
        "",
        "packages:",
        "",
        "  pnpm@10.33.0:",
        `    resolution: ${resolution}`,
        "",
        "snapshots:",
        "",
        "  pnpm@10.33.0: {}",
        "",
        "---",
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .: {}",
        "",
      ].join("\n");
    const good = env("packageManagerDependencies", "10.33.0", "10.33.0", "{integrity: sha512-AAAA}");
    expect(changedLockfileSources("pnpm", undefined, good)).toEqual([]);
    expect(
      changedLockfileSources(
        "pnpm",
        good,
        env("packageManagerDependencies", "10.33.0", "10.33.0", "{tarball: https://e.invalid/pnpm.tgz}"),
      ),
    ).toEqual([expect.stringMatching(/^adds the source "\{tarball: https:\/\/e\.invalid\/pnpm\.tgz\}"/)]);
    for (const group of ["packageManagerDependencies", "configDependencies"]) {
      expect(
        changedLockfileSources(
          "pnpm",
          good,
          env(group, "10.33.0", "link:../evil", "{integrity: sha512-AAAA}"),
        ),
        group,
      ).toEqual([expect.stringMatching(/"link:\.\.\/evil"/)]);
      expect(
        changedLockfileSources(
          "pnpm",
          good,
          env(group, "github:evil/pnpm", "10.33.0", "{integrity: sha512-AAAA}"),
        ),
        group,
      ).toEqual([expect.stringMatching(/"github:evil\/pnpm"/)]);
    }
    // The same name in two groups of an importer: the later one does not hide the first one's link.
    const twice = [
      "lockfileVersion: '9.0'",
      "",
      "importers:",
      "",
      "  .:",
      "    dependencies:",
      "      x:",
      "        specifier: link:../outside",
      "        version: link:../outside",
      "    devDependencies:",
      "      x:",
      "        specifier: ^1.0.0",
      "        version: 1.0.0",
      "",
    ].join("\n");
    expect(changedLockfileSources("pnpm", undefined, twice)).toEqual([
      expect.stringMatching(/^adds the source "link:\.\.\/outside" for "importers > \. > x"/),
      expect.stringMatching(/^adds the source "link:\.\.\/outside" for "importers > \. > x \(specifier\)"/),
    ]);
    // YAML reads a key with spaces before its colon as the key: `importers :` is `importers:`.
    const spaced = (top: string, group: string, field: string) =>
      [
        "lockfileVersion: '9.0'",
        "",
        top,
        "",
        "  .:",
        group,
        "      x:",
        "        specifier: workspace:*",
        `${field} link:../outside`,
        "",
      ].join("\n");
    for (const [top, group, field] of [
      ["importers :", "    dependencies:", "        version:"],
      ["'importers' :", "    dependencies:", "        version:"],
      ["importers:", "    dependencies :", "        version:"],
      ["importers:", "    dependencies:", "        version :"],
    ] as [string, string, string][]) {
      expect(
        changedLockfileSources("pnpm", undefined, spaced(top, group, field)),
        `${top} ${group} ${field}`,
      ).toEqual([expect.stringMatching(/^adds the source "link:\.\.\/outside" for "importers > \. > x"/)]);
    }
    const renamed = (packages: string, name: string) =>
      `lockfileVersion: '9.0'\n\n${packages}\n\n  pad@1.0.0 :\n    ${name} evil\n    resolution: {integrity: sha512-AAAA}\n`;
    expect(changedLockfileSources("pnpm", undefined, renamed("packages:", "name:"))).toHaveLength(1);
    expect(changedLockfileSources("pnpm", undefined, renamed("packages :", "name :"))).toHaveLength(1);
    // A `snapshots:` entry's resolution is read as a `packages:` entry's is.
    const snapshot = (resolution: string) =>
      `lockfileVersion: '9.0'\n\nsnapshots:\n\n  pad@1.0.0:\n    resolution: ${resolution}\n`;
    expect(changedLockfileSources("pnpm", undefined, snapshot("{integrity: sha512-AAAA}"))).toEqual([]);
    expect(
      changedLockfileSources("pnpm", undefined, snapshot("{type: directory, directory: ../pad}")),
    ).toHaveLength(1);
  });

  it("refuses a pnpm importer's line in a form pnpm does not write, which YAML may read as a link out", () => {
    const unread = "a resolution not in the form the package manager writes: it may name any source";
    const lock = (lines: string[]) =>
      ["lockfileVersion: '9.0'", "", "importers:", "", "  .:", ...lines, ""].join("\n");
    const plain = [
      "    dependencies:",
      "      x:",
      "        specifier: link:packages/x",
      "        version: link:packages/x",
    ];
    expect(changedLockfileSources("pnpm", undefined, lock(plain))).toEqual([]);
    // An importer with no dependencies, as pnpm writes it.
    expect(
      changedLockfileSources("pnpm", undefined, lock(["    dependencies: {}", "", "  packages/y: {}"])),
    ).toEqual([]);
    expect(
      changedLockfileSources(
        "pnpm",
        undefined,
        lock([
          "    dependencies:",
          "      x:",
          "        specifier: 'link:packages/x'",
          '        version: "link:packages/x"',
        ]),
      ),
    ).toEqual([]);
    for (const lines of [
      // A flow mapping, at each level.
      ["    dependencies:", "      x: {specifier: 'link:../outside', version: 'link:../outside'}"],
      ["    dependencies: {x: {specifier: 'link:../outside', version: 'link:../outside'}}"],
      // A comment YAML drops: `link:..` is the parent of the tree.
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: link:.. #/packages/x",
      ],
      // An anchor and alias, a tag, a block scalar, a scalar continued on the next line.
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: &out link:packages/x",
      ],
      ["    dependencies:", "      x:", "        specifier: workspace:*", "        version: *out"],
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: !!str link:../outside",
      ],
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: >-",
        "          link:../outside",
      ],
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: link:",
        "          ../outside",
      ],
      ["    dependencies:", "      <<: *base"],
      // Another indentation: YAML reads the field; a reading by columns would not.
      [
        "    dependencies:",
        "      x:",
        "         specifier: workspace:*",
        "         version: link:../outside",
      ],
      ["    dependencies:", "        version: link:../outside"],
      // A field written twice.
      [
        "    dependencies:",
        "      x:",
        "        specifier: workspace:*",
        "        version: link:packages/x",
        "        version: link:../outside",
      ],
      // A top-level group as a flow mapping.
      [],
    ]) {
      const text =
        lines.length === 0 ? "lockfileVersion: 5.4\ndependencies: {x: 'link:../outside'}\n" : lock(lines);
      expect(changedLockfileSources("pnpm", undefined, text), lines.join("\n")).toContainEqual(
        expect.stringContaining(unread),
      );
    }
  });
  it("refuses a bun.lock entry installed as another package than its id, unless declared an alias", () => {
    const bun = (packages: string) =>
      `{\n  "lockfileVersion": 1,\n  "workspaces": {\n    "": { "name": "app", "dependencies": { "string-width-cjs": "npm:string-width@^4.2.0" }, },\n    "packages/web": { "name": "@mono/web", },\n  },\n  "packages": {\n${packages}  },\n}\n`;
    const good = bun(
      [
        '    "string-width": ["string-width@5.1.2", "", {}, "sha512-AAAA"],',
        '    "string-width-cjs": ["string-width@4.2.3", "", {}, "sha512-BBBB"],',
        '    "wrap-ansi/string-width": ["string-width@4.2.3", "", {}, "sha512-BBBB"],',
        '    "@mono/web/@s/a": ["@s/a@1.0.0", "", {}, "sha512-CCCC"],',
        '    "@mono/web": ["@mono/web@workspace:packages/web"],',
        '    "p": ["p@1.0.0", "https://registry.npmjs.org/p/-/p-1.0.0.tgz", {}, "sha512-DDDD"],',
        "",
      ].join("\n"),
    );
    expect(changedLockfileSources("bun", undefined, good)).toEqual([]);
    const swapped = bun(
      [
        '    "lodash": ["evil-pkg@1.0.0", "", {}, "sha512-AAAA"],',
        '    "p": ["p@1.0.0", "https://registry.npmjs.org/evil/-/evil-1.0.0.tgz", {}, "sha512-DDDD"],',
        "",
      ].join("\n"),
    );
    expect(changedLockfileSources("bun", good, swapped)).toEqual([
      `resolves the entry "lodash" ("lodash") to "evil-pkg@1.0.0" (${another})`,
      `resolves the entry "p" ("p@1.0.0") to "https://registry.npmjs.org/evil/-/evil-1.0.0.tgz" (${another})`,
    ]);
    // A package's own dependencies declare an alias too.
    const declared = bun(
      '    "x": ["x@1.0.0", "", { "dependencies": { "lodash": "npm:lodash-es@^4" } }, "sha512-AAAA"],\n    "x/lodash": ["lodash-es@4.17.21", "", {}, "sha512-BBBB"],\n',
    );
    expect(changedLockfileSources("bun", undefined, declared)).toEqual([]);
  });
});

describe("validate: declaresPnpm", () => {
  it("reads pnpm as the package manager in packageManager or devEngines, and nothing else", () => {
    expect(declaresPnpm(pkg({ packageManager: "pnpm@10.33.0+sha512.abc" }))).toBe(true);
    expect(declaresPnpm(pkg({ devEngines: { packageManager: { name: "pnpm", version: "^10" } } }))).toBe(
      true,
    );
    expect(declaresPnpm(pkg({ devEngines: { packageManager: [{ name: "yarn" }, { name: "pnpm" }] } }))).toBe(
      true,
    );
    expect(declaresPnpm(pkg({ packageManager: "yarn@4.0.0" }))).toBe(false);
    expect(declaresPnpm(pkg({ packageManager: "pnpmx@1.0.0" }))).toBe(false);
    expect(declaresPnpm(pkg({ scripts: { build: "pnpm -r build" } }))).toBe(false);
    expect(declaresPnpm("not json")).toBe(false);
    expect(declaresPnpm(undefined)).toBe(false);
  });
});
